"""`composer_show`: everything about one package in one call — scripts with their commands,
autoload maps, every constraint, and whether `composer.lock` is fresh, with locked versions."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from sofia.output import budget, jsonfmt, tables
from sofia.providers.composer import discovery, lock, neon, unfollowed, versions
from sofia.providers.composer import manifest as manifests
from sofia.providers.composer.params import PACKAGE_PATH, TreeRoot
from sofia.providers.composer.unfollowed import Unfollowed
from sofia.providers.contract import Cli, Context, Implementation
from sofia.providers.params import Input

SCRIPT_LIMIT = 200


class Params(Input):
    package: Annotated[
        str,
        Field(
            min_length=1,
            description=(
                "Full name (acme/array-reader), the part after the slash, its directory name, or a path "
                "to it or its composer.json."
            ),
        ),
        Cli(positional=True, metavar="PACKAGE"),
        PACKAGE_PATH,
    ]
    root: TreeRoot = "."


def run(params: Params, ctx: Context) -> dict[str, Any]:
    root = discovery.resolve_root(params.root, ctx)
    package = discovery.resolve_package(params.package, root, ctx, params.root)
    data = package.manifest
    require = manifests.mapping(data, "require")
    version = ""
    if package.repo is not None:
        version = versions.highest_stable(discovery.tags([package.repo], ctx)[package.repo])
    notes: list[str] = []
    unread: list[Unfollowed] = []
    lock_state = lock_report(package, notes, unread)
    level, level_unread = neon.phpstan_level(package.path)
    unread.extend(level_unread)
    whole: dict[str, Any] = {
        "name": package.name,
        "dir": package.dir,
        "description": manifests.text(data, "description"),
        "version": version,
        "type": manifests.text(data, "type") or "library",
        "license": _license(data.get("license")),
        "php": manifests.text(require, "php"),
        "phpstan": level,
        "scripts": [
            {"name": name, "commands": script_commands(value)} for name, value in _sorted(data, "scripts")
        ],
        "autoload": autoload_rows(data.get("autoload")),
        "autoload_dev": autoload_rows(data.get("autoload-dev")),
        "require": [{"name": name, "constraint": value} for name, value in _sorted(data, "require")],
        "require_dev": [{"name": name, "constraint": value} for name, value in _sorted(data, "require-dev")],
        "lock": lock_state,
        "vendor_installed": (package.path / _vendor_dir(data) / "autoload.php").is_file(),
        "notes": [*unfollowed.notes(unread, ctx.root), *notes],
    }
    return _fit(whole, ctx.budget)


def script_commands(value: Any) -> str:
    """A script as one line: a string as is, a list of strings joined with ` && `, else compact JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return " && ".join(value)
    return jsonfmt.compact(value).decode()


def autoload_rows(block: Any) -> list[dict[str, str]]:
    """`psr-4`/`psr-0` rows per prefix (sorted), then one `classmap` and one `files` row."""
    entries, _ = manifests.autoload_entries(block)
    return [{"kind": e.kind, "key": e.prefix, "paths": " ".join(e.paths)} for e in entries]


def lock_report(package: discovery.Package, notes: list[str], unread: list[Unfollowed]) -> dict[str, Any]:
    """The `lock` object: presence, freshness, locked versions of the direct requirements.

    A lock that cannot be read, or whose package lists cannot be, goes to `unread`.
    """
    data = package.manifest
    lock_path = package.path / "composer.lock"
    expected = lock.content_hash(data)
    report: dict[str, Any] = {
        "present": False,
        "fresh": None,
        "content_hash": "",
        "expected_hash": expected,
        "locked": [],
        "not_locked": [],
    }
    if not lock_path.exists():
        return report
    report["present"] = True
    parsed, problem = lock.read(lock_path)
    if parsed is None:
        unread.append(Unfollowed("composer.lock", lock_path, problem.line, problem.reason))
        return report
    stored = parsed.get("content-hash")
    if isinstance(stored, str):
        report["content_hash"] = stored
    elif isinstance(parsed.get("hash"), str):
        report["content_hash"] = parsed["hash"]
        try:
            report["expected_hash"] = lock.legacy_hash(package.manifest_path.read_bytes())
        except OSError:
            report["expected_hash"] = ""
    report["fresh"] = bool(report["content_hash"]) and report["content_hash"] == report["expected_hash"]
    if not report["fresh"]:
        notes.append("composer.lock is stale: run composer update --lock")
    in_lock, lock_problems = lock.locked_packages(parsed)
    if lock_problems:
        unread.append(Unfollowed("composer.lock", lock_path, 0, ", ".join(lock_problems)))
    for key in ("require", "require-dev"):
        for name, constraint in _sorted(data, key):
            if manifests.is_platform(name):
                continue
            entry = in_lock.get(name.lower())
            if entry is None:
                report["not_locked"].append(name)
            else:
                report["locked"].append(
                    {"name": name, "constraint": constraint, "version": entry[0], "dev": entry[1]}
                )
    if report["not_locked"]:
        notes.append(
            f"requirements missing from composer.lock: {' '.join(report['not_locked'])}; run composer update"
        )
    return report


def _sorted(data: Any, key: str) -> list[tuple[str, Any]]:
    return sorted(manifests.mapping(data, key).items())


def _license(value: Any) -> str:
    if isinstance(value, list):
        return " or ".join(value)
    return value if isinstance(value, str) else ""


def _vendor_dir(data: Any) -> str:
    configured = manifests.mapping(data, "config").get("vendor-dir")
    return configured if isinstance(configured, str) and configured else "vendor"


SHOWN_LISTS = ("lock.locked", "autoload_dev", "autoload")
"""The lists the budget may shorten, in ladder order, each named by its path in the result."""


def _fit(whole: dict[str, Any], limit: int | None) -> dict[str, Any]:
    """Ladder: script commands to 200 characters, then locked rows, then autoload rows."""
    hint = "the package is large; read composer.json for the rest"
    totals = {
        "lock.locked": len(whole["lock"]["locked"]),
        "autoload_dev": len(whole["autoload_dev"]),
        "autoload": len(whole["autoload"]),
    }
    longest = max((len(s["commands"]) for s in whole["scripts"]), default=0)
    units = {"lock.locked": "locked packages", "autoload_dev": "autoload rows", "autoload": "autoload rows"}

    def build(knobs: budget.Knobs) -> dict[str, Any]:
        result = dict(whole)
        notes = list(whole["notes"])
        chars = knobs["chars"]
        result["scripts"] = [{**s, "commands": tables.cut(s["commands"], chars)} for s in whole["scripts"]]
        cut = sum(len(s["commands"]) > chars for s in whole["scripts"])
        if cut:
            notes.append(budget.shortened_note("commands", budget.texts_cut(cut, chars), limit, hint))
        result["lock"] = {**whole["lock"], "locked": whole["lock"]["locked"][: knobs["lock.locked"]]}
        result["autoload_dev"] = whole["autoload_dev"][: knobs["autoload_dev"]]
        result["autoload"] = whole["autoload"][: knobs["autoload"]]
        for key in SHOWN_LISTS:
            if knobs[key] < totals[key]:
                notes.append(budget.note(key, knobs[key], totals[key], units[key], limit, hint))
        result["notes"] = notes
        return budget.with_omitted(result, {key: totals[key] - knobs[key] for key in SHOWN_LISTS})

    ladder: list[budget.Step] = [
        budget.Lower({"chars": SCRIPT_LIMIT}),
        *(budget.Shrink(key) for key in SHOWN_LISTS),
    ]
    return budget.fit(build, {"chars": longest, **totals}, ladder, limit)


IMPLEMENTATION = Implementation(params=Params, run=run)
