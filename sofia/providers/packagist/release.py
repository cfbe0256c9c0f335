"""`sf packagist release` (CLI only, never an MCP tool): tag, push, ask Packagist to update, verify.

Every precondition is checked before anything changes and all failures are reported together.
`--dry-run` prints the exact plan and changes nothing; otherwise the plan is confirmed (or `--yes`),
run step by step, and after a failure the result lists the commands that finish the job by hand.
The API token is never printed: it appears as `***` or as `$PACKAGIST_API_TOKEN`.
"""

from __future__ import annotations

import os
import re
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from sofia import settings
from sofia.errors import param
from sofia.output import jsonfmt
from sofia.providers import composer
from sofia.providers.composer import PACKAGE_PATH, TreeRoot
from sofia.providers.contract import Cli, Context, Implementation, Outcome, ProviderError
from sofia.providers.packagist import client, remote
from sofia.providers.params import Input
from sofia.runtime import git, paths, proc

DEFAULT_API_URL = "https://packagist.org"
POLL_INTERVAL = 5.0
POST_TIMEOUT = 20.0
PUSH_TIMEOUT = 60.0
TOKEN_ENV = "PACKAGIST_API_TOKEN"
USERNAME_ENV = "PACKAGIST_USERNAME"
HIDDEN = "***"


class Params(Input):
    package: Annotated[
        str,
        Field(
            min_length=1,
            description="Package to release: full name, the part after the slash, directory name or path.",
        ),
        Cli(positional=True, metavar="PACKAGE"),
        PACKAGE_PATH,
    ]
    version: Annotated[
        str,
        Field(min_length=1, description="Version to tag, used verbatim as the tag name (1.4.0 or v1.4.0)."),
        Cli(positional=True, metavar="VERSION"),
    ]
    root: TreeRoot = "."
    message: Annotated[
        str,
        Field(description='Tag message (default: "Release <version>").'),
        Cli(flag="--message", metavar="TEXT"),
    ] = ""
    username: Annotated[
        str,
        Field(
            description="Packagist user (default: $PACKAGIST_USERNAME, then the token file, then the vendor name)."
        ),
        Cli(flag="--username", metavar="USER"),
    ] = ""
    dry_run: Annotated[
        bool, Field(description="Print the exact plan and change nothing."), Cli(flag="--dry-run")
    ] = False
    yes: Annotated[
        bool,
        Field(description="Run without asking (required without a terminal)."),
        Cli(flag="--yes", short="-y"),
    ] = False
    timeout_s: Annotated[
        int,
        Field(ge=1, description="Seconds to wait for the version to appear on Packagist."),
        Cli(flag="--timeout", metavar="SECONDS"),
    ] = 90
    any_branch: Annotated[
        bool,
        Field(description="Allow tagging on a branch other than origin's default branch (backports)."),
        Cli(flag="--any-branch"),
    ] = False


@dataclass
class Plan:
    """Everything the steps need, gathered while checking the preconditions."""

    package: composer.Package
    repo: Path
    repo_label: str
    tag: str
    message: str
    origin_url: str
    api_url: str
    username: str
    token: str
    p2_url: str
    timeout_s: int
    flags: list[str] = field(default_factory=list)

    def commands(self) -> dict[str, str]:
        """The plan as printed: exact commands, the token shown as `***`."""
        return {
            "tag": shlex.join(["git", "-C", self.repo_label, "tag", "-a", self.tag, "-m", self.message]),
            "push": shlex.join(["git", "-C", self.repo_label, "push", "origin", self.tag]),
            "notify": f"POST {self.update_url(HIDDEN)} {self.body_text()}",
            "verify": f"poll {self.p2_url} every {POLL_INTERVAL:g} s until {self.tag} appears (at most {self.timeout_s} s)",
        }

    def by_hand(self) -> dict[str, str]:
        """Commands a person can paste to finish a step (the token stays in the environment)."""
        return {
            "tag": self.commands()["tag"],
            "push": self.commands()["push"],
            "notify": (
                "curl -sS -X POST -H 'Content-Type: application/json' "
                f'"{self.update_url("$" + TOKEN_ENV)}" -d {shlex.quote(self.body_text())}'
            ),
            "verify": f"sf packagist status {self.package.name} --root {shlex.quote(self.repo_label)}",
        }

    def update_url(self, token_text: str) -> str:
        return f"{self.api_url}/api/update-package?username={self.username}&apiToken={token_text}"

    def body(self) -> dict[str, Any]:
        return {"repository": {"url": self.origin_url}}

    def body_text(self) -> str:
        return jsonfmt.compact(self.body()).decode()


STEPS = ("tag", "push", "notify", "verify")


def run(params: Params, ctx: Context) -> Outcome:
    token = _token()
    try:
        plan = _check_preconditions(params, ctx, token)
        commands = plan.commands()
        steps = [{"step": s, "status": "planned", "command": commands[s], "detail": ""} for s in STEPS]
        if params.dry_run:
            result = _result(plan, params, steps, dry_run=True)
            result["notes"].append("dry run: nothing was changed; run again without --dry-run to release")
            return Outcome(_scrub(result, token), 0)
        if not params.yes:
            question = "\n".join(
                ["sf packagist release will run:", *(f"  {commands[s]}" for s in STEPS), "Proceed?"]
            )
            if not ctx.confirm(question):
                raise ProviderError(
                    "release not confirmed; nothing was changed",
                    f"check the plan with {param('dry_run', True)}, then pass {param('yes', True)} "
                    "(required without a terminal)",
                )
        return _scrub_outcome(_execute(plan, params, steps, ctx), token)
    except ProviderError as exc:
        raise ProviderError(_scrub(exc.message, token), _scrub(exc.hint, token)) from None


def _check_preconditions(params: Params, ctx: Context, token: str) -> Plan:
    """Every precondition, all of them checked; one refusal lists each that failed."""
    problems: list[str] = []
    flags: list[str] = []
    parsed = composer.parse_version(params.version)
    if params.version.startswith("-") or parsed is None or parsed.stability == 0:
        problems.append(
            f"invalid version {params.version!r}: use a Composer release version such as 1.4.0 or v1.4.0"
        )
    if not token:
        problems.append(
            f"no Packagist API token: set {TOKEN_ENV} or write {TOKEN_ENV}=… to {_token_file()} "
            "(the token is on your packagist.org profile page)"
        )
    package: composer.Package | None = None
    try:
        root = composer.resolve_root(params.root, ctx)
        package = composer.resolve_package(params.package, root, ctx, params.root)
    except ProviderError as exc:
        problems.append(exc.message)
    if package is not None and not package.name:
        problems.append(f"the package in {package.dir} has no name in composer.json; Packagist needs one")
    elif package is not None and not composer.valid_name(package.name):
        problems.append(f"{package.name} is not a valid Composer package name (lower-case vendor/project)")
    if package is None or package.repo is None:
        if package is not None:
            problems.append(f"{package.dir} is not inside a git repository")
        raise _refusal(problems)
    repo = package.repo
    origin_url = _repository_checks(params, repo, problems, flags)
    if problems:
        raise _refusal(problems)
    label = paths.shown(repo, ctx.root)
    return Plan(
        package=package,
        repo=repo,
        repo_label=label,
        tag=params.version,
        message=params.message or f"Release {params.version}",
        origin_url=https_url(origin_url),
        api_url=settings.get("SOFIA_PACKAGIST_API_URL") or DEFAULT_API_URL,
        username=params.username or _username(package.name),
        token=token,
        p2_url=client.p2_url(package.name),
        timeout_s=params.timeout_s,
        flags=flags,
    )


def _repository_checks(params: Params, repo: Path, problems: list[str], flags: list[str]) -> str:
    """Clean tree, origin, unused tag, branch; returns origin's URL (`""` when unset)."""
    status = git.run(["status", "--porcelain"], cwd=repo, timeout=30)
    changed = [line for line in status.out.splitlines() if line.strip()]
    if status.returncode != 0:
        problems.append(f"git status failed in {repo}: {status.last_error_line()}")
    elif changed:
        problems.append(
            f"the working tree is not clean ({len(changed)} changed paths): commit or stash them first"
        )
    if git.run(["rev-parse", "--verify", "--quiet", "HEAD"], cwd=repo, timeout=10).returncode != 0:
        problems.append("the repository has no commit to tag")
    local_tags = [t for t in git.run(["tag", "--list"], cwd=repo, timeout=10).out.splitlines() if t]
    if params.version in local_tags:
        problems.append(f"tag {params.version} already exists locally")
    else:
        same = [
            t
            for t in local_tags
            if composer.parse_version(t) is not None and composer.compare_versions(t, params.version) == 0
        ]
        if same:
            problems.append(f"version {params.version} is already tagged as {same[0]}")
    _flag_version(params.version, local_tags, flags)
    origin = git.run(["remote", "get-url", "origin"], cwd=repo, timeout=10)
    if origin.returncode != 0:
        problems.append("no origin remote: add one with git remote add origin URL")
        return ""
    remote_tags = remote.remote_tags(repo)
    if not remote_tags.ok:
        problems.append(f"cannot check the tags on origin: {remote_tags.error}")
    elif params.version in remote_tags.tags:
        problems.append(f"tag {params.version} already exists on origin")
    _check_branch(params, repo, problems, flags)
    return origin.out.strip()


def _check_branch(params: Params, repo: Path, problems: list[str], flags: list[str]) -> None:
    current = git.run(["symbolic-ref", "--quiet", "--short", "HEAD"], cwd=repo, timeout=10).out.strip()
    default = remote.default_branch(repo)
    if params.any_branch:
        return
    if not current:
        problems.append("HEAD is detached: check out the release branch, or pass --any-branch")
    elif not default:
        flags.append(f"origin's default branch is unknown; tagging on {current}")
    elif current != default:
        problems.append(
            f"on branch {current}, not origin's default branch {default}: switch, or pass --any-branch"
        )


def _flag_version(version: str, local_tags: list[str], flags: list[str]) -> None:
    """Allowed but worth a second look: backports and a tag spelling unlike the existing ones."""
    highest = composer.highest_stable(local_tags)
    if not highest or composer.parse_version(version) is None:
        return
    if composer.compare_versions(version, highest) <= 0:
        flags.append(f"{version} is not above the highest stable tag {highest} (a backport?)")
    if highest[0] in "vV" and version[0] not in "vV":
        flags.append(f"existing tags start with v ({highest}); this tag will not")
    elif highest[0] not in "vV" and version[0] in "vV":
        flags.append(f"existing tags have no v prefix ({highest}); this tag will")


def _refusal(problems: list[str]) -> ProviderError:
    listing = "\n".join(f"  - {problem}" for problem in problems)
    return ProviderError(
        f"release refused, {len(problems)} precondition{'s' if len(problems) != 1 else ''} failed:\n{listing}",
        "fix them, then check the plan with sf packagist release PACKAGE VERSION --dry-run",
    )


def _execute(plan: Plan, params: Params, steps: list[dict[str, str]], ctx: Context) -> Outcome:
    for step in steps:
        step["status"] = "not-run"
    runners = {"tag": _tag, "push": _push, "notify": _notify, "verify": _verify}
    failed = ""
    for index, name in enumerate(STEPS):
        ctx.progress(index, len(STEPS), f"{name}: {steps[index]['command']}")
        ok, detail = runners[name](plan, params)
        steps[index]["status"] = "done" if ok else "failed"
        steps[index]["detail"] = detail
        if not ok:
            failed = name
            break
    result = _result(plan, params, steps, dry_run=False)
    if not failed:
        result["notes"].append(f"{plan.package.name} {plan.tag} is released and visible on Packagist")
        return Outcome(result, 0)
    remaining = STEPS[STEPS.index(failed) :]
    by_hand = plan.by_hand()
    result["finish_by_hand"] = [by_hand[name] for name in remaining]
    if failed == "verify":
        result["notes"].append(
            f"tag {plan.tag} is pushed to origin and Packagist was asked to update, but {plan.tag} is not "
            f"visible after {params.timeout_s} s; check again later (the last command below)"
        )
    else:
        done = [name for name in STEPS if name != failed and STEPS.index(name) < STEPS.index(failed)]
        state = f"done: {', '.join(done)}" if done else "nothing was changed"
        result["notes"].append(f"step {failed} failed ({state}); finish with the commands in finish_by_hand")
    return Outcome(result, 1)


def _tag(plan: Plan, params: Params) -> tuple[bool, str]:
    done = git.run(["tag", "-a", plan.tag, "-m", plan.message], cwd=plan.repo, timeout=30)
    if done.returncode != 0:
        return False, f"git tag failed: {done.last_error_line()}"
    return True, f"annotated tag {plan.tag} created"


def _push(plan: Plan, params: Params) -> tuple[bool, str]:
    try:
        done = git.run(["push", "origin", plan.tag], cwd=plan.repo, timeout=PUSH_TIMEOUT)
    except proc.ProgramTimeout:
        return False, f"git push gave no answer within {PUSH_TIMEOUT:g} s"
    if done.returncode != 0:
        return False, f"git push failed: {done.last_error_line()}"
    return True, f"{plan.tag} pushed to origin"


def _notify(plan: Plan, params: Params) -> tuple[bool, str]:
    import httpx

    try:
        response = httpx.post(
            f"{plan.api_url}/api/update-package",
            params={"username": plan.username, "apiToken": plan.token},
            json=plan.body(),
            headers={"User-Agent": client.USER_AGENT},
            timeout=POST_TIMEOUT,
        )
    except httpx.HTTPError as exc:
        return False, f"Packagist API unreachable: {type(exc).__name__}"
    if 200 <= response.status_code < 300:
        return True, f"Packagist answered HTTP {response.status_code}"
    excerpt = " ".join(response.text.split())[:160]
    return False, f"Packagist answered HTTP {response.status_code}: {excerpt}"


def _verify(plan: Plan, params: Params) -> tuple[bool, str]:
    """Poll p2 now and every 5 s; the last poll happens when the timeout is up (and may take 5 s more)."""
    started = time.monotonic()
    deadline = started + params.timeout_s
    last = "none"
    with client.P2Client(deadline + client.REQUEST_TIMEOUT) as p2:
        while True:
            fetched = p2.fetch(plan.package.name)
            if fetched.versions is not None and any(
                composer.compare_versions(v, plan.tag) == 0 for v in fetched.versions
            ):
                return True, f"{plan.tag} visible on Packagist after {time.monotonic() - started:.0f} s"
            if fetched.error:
                last = fetched.error
            elif fetched.versions is None:
                last = "not published"
            else:
                last = f"latest {composer.highest_stable(fetched.versions) or 'none stable'}"
            pause = min(POLL_INTERVAL, deadline - time.monotonic())
            if pause <= 0:
                return False, f"not visible after {params.timeout_s} s (last answer: {last})"
            time.sleep(pause)


def _result(plan: Plan, params: Params, steps: list[dict[str, str]], dry_run: bool) -> dict[str, Any]:
    return {
        "package": plan.package.name,
        "dir": plan.package.dir,
        "repo": plan.repo_label,
        "version": params.version,
        "tag": plan.tag,
        "dry_run": dry_run,
        "steps": steps,
        "flags": list(plan.flags),
        "finish_by_hand": [],
        "notes": [],
        "omitted": {},
    }


def https_url(url: str) -> str:
    """`origin` as the https URL Packagist knows the repository by; credentials removed."""
    scp = re.fullmatch(r"(?:[^@/]+@)?(?P<host>[^:/]+):(?P<path>(?!/).+?)(?:\.git)?/?", url)
    if scp and "://" not in url:
        return f"https://{scp['host']}/{scp['path']}"
    ssh = re.fullmatch(
        r"(?:ssh|git|git\+ssh)://(?:[^@/]+@)?(?P<host>[^:/]+)(?::\d+)?/(?P<path>.+?)(?:\.git)?/?", url
    )
    if ssh:
        return f"https://{ssh['host']}/{ssh['path']}"
    return re.sub(r"^(https?://)[^@/]+@", r"\1", url)


def _token() -> str:
    """`$PACKAGIST_API_TOKEN`, else the same key in the token file; `""` when neither has one."""
    from_env = os.environ.get(TOKEN_ENV, "").strip()
    return from_env or _token_file_values().get(TOKEN_ENV, "")


def _username(name: str) -> str:
    return (
        os.environ.get(USERNAME_ENV, "").strip()
        or _token_file_values().get(USERNAME_ENV, "")
        or name.split("/")[0]
    )


def _token_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "sofia" / "packagist.env"


def _token_file_values() -> dict[str, str]:
    """`KEY=value` lines of the token file (`export`, quotes and comments allowed)."""
    try:
        text = _token_file().read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    values: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        values[key.strip()] = value.strip().strip("'\"")
    return values


def _scrub(value: Any, token: str) -> Any:
    """`value` with every occurrence of the token replaced by `***`."""
    if len(token) < 4:
        return value
    if isinstance(value, str):
        return value.replace(token, HIDDEN)
    if isinstance(value, list):
        return [_scrub(item, token) for item in value]
    if isinstance(value, dict):
        return {key: _scrub(item, token) for key, item in value.items()}
    return value


def _scrub_outcome(outcome: Outcome, token: str) -> Outcome:
    return Outcome(_scrub(outcome.result, token), outcome.exit_code)


IMPLEMENTATION = Implementation(params=Params, run=run)
