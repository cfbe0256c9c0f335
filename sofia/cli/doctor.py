"""`sf doctor`: what sofia needs, checked for real, each with ok / what is wrong and how to fix it."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sofia import __version__
from sofia.runtime import proc

Check = dict[str, Any]


def _row(check: str, status: str, detail: str, fix: str = "", required: bool = True) -> Check:
    return {"check": check, "status": status, "required": required, "detail": detail, "fix": fix}


def _version_of(args: list[str], timeout: float = 15) -> str | None:
    try:
        done = proc.run(args, timeout=timeout)
    except (proc.ProgramNotFound, proc.ProgramTimeout):
        return None
    if done.returncode != 0:
        return None
    first = (done.out.strip() or done.err.strip()).splitlines()
    return first[0] if first else ""


def check_python() -> Check:
    version = ".".join(map(str, sys.version_info[:3]))
    return _row("python", "ok", f"{version} at {sys.executable}; sofia {__version__}")


def check_git() -> Check:
    version = _version_of(["git", "--version"])
    if version is None:
        return _row("git", "missing", "git is not on PATH", "install git (apt-get install git)")
    return _row("git", "ok", version)


def check_rg() -> Check:
    from sofia.providers.contract import ProviderError
    from sofia.runtime import rg

    try:
        path, version = rg.locate()
    except ProviderError as exc:
        return _row("ripgrep", "missing", exc.message, exc.hint)
    return _row("ripgrep", "ok", f"{version} at {path}")


def check_grammars() -> Check:
    """Every grammar of the language registry loads and parses (`sofia.syntax.registry.GRAMMARS`)."""
    from sofia.syntax import registry
    from sofia.syntax.grammars import LanguageUnsupported, language, parse_bytes

    failed: list[str] = []
    for grammar in registry.GRAMMARS:
        try:
            language(grammar.name)
            parse_bytes(b"x", grammar.name)
        except (LanguageUnsupported, ImportError, ValueError, OSError) as error:
            failed.append(f"{grammar.name} ({grammar.distribution}: {error})")
    if failed:
        return _row(
            "tree-sitter",
            "missing",
            "grammars that do not load: " + "; ".join(failed),
            "reinstall sofia: python3 -m pip install .",
        )
    return _row("tree-sitter", "ok", "grammars: " + ", ".join(grammar.name for grammar in registry.GRAMMARS))


def check_gh() -> Check:
    version = _version_of(["gh", "--version"])
    if version is None:
        return _row(
            "gh",
            "missing",
            "GitHub CLI not on PATH (github_* tools unavailable)",
            "install it from https://cli.github.com/, then run gh auth login",
            required=False,
        )
    try:
        done = proc.run(["gh", "auth", "status"], timeout=15)
    except proc.ProgramTimeout:
        return _row(
            "gh", "warn", f"{version}; gh auth status timed out", "check your network", required=False
        )
    if done.returncode != 0:
        return _row(
            "gh",
            "warn",
            f"{version}; not authenticated",
            "run gh auth login (or set GH_TOKEN)",
            required=False,
        )
    return _row("gh", "ok", f"{version}; authenticated", required=False)


def check_php_tools() -> list[Check]:
    rows = []
    for name, args, fix in (
        ("php", ["php", "--version"], "install php-cli (apt-get install php-cli)"),
        ("composer", ["composer", "--version", "--no-ansi"], "install composer (apt-get install composer)"),
    ):
        version = _version_of(args)
        if version is None:
            rows.append(
                _row(name, "missing", f"{name} not on PATH (composer_check unavailable)", fix, required=False)
            )
        else:
            rows.append(_row(name, "ok", version, required=False))
    return rows


def check_claude_projects() -> Check:
    from sofia.providers.cc import projects_root

    root = projects_root()
    if not root.is_dir():
        return _row(
            "claude code data",
            "missing",
            f"no projects directory at {root} (cc_* tools have nothing to read)",
            "use Claude Code once, or set CC_PROJECTS_DIR",
            required=False,
        )
    projects = sum(1 for p in root.iterdir() if p.is_dir())
    return _row("claude code data", "ok", f"{projects} projects under {root}", required=False)


def check_mcp() -> Check:
    try:
        from sofia.server.selfcheck import roundtrip
    except ImportError:
        return _row(
            "mcp server", "missing", "the MCP server is not part of this installation", "reinstall sofia"
        )
    started = time.perf_counter()
    ok, detail = roundtrip()
    if not ok:
        return _row("mcp server", "fail", detail, "run sf mcp --log-level debug to see what fails")
    return _row("mcp server", "ok", f"{detail} ({time.perf_counter() - started:.2f} s in all)")


def check_clients() -> list[Check]:
    """Every sofia entry in any place an MCP client keeps one (whether or not the client seems
    installed), started and greeted as the client would. An entry that exists is meant to work:
    a failing one is a required check, so `ok` is never true beside it."""
    from sofia.cli import init
    from sofia.cli.clients import CLIENTS

    rows = []
    home, project = Path.home(), Path.cwd()
    for client in CLIENTS:
        for row in init.check(client, None, project, home, explicit=False):
            ok = row["action"] == "ok"
            rows.append(
                _row(
                    f"{client.name} ({row['scope']})",
                    "ok" if ok else "fail",
                    f"{row['file']}: {row['detail']}",
                    "" if ok else "run sf init to write a working entry, then sf init --check",
                )
            )
    if not rows:
        rows.append(
            _row(
                "mcp clients",
                "missing",
                "no sofia entry in any place an MCP client keeps one",
                "run sf init in your project",
                required=False,
            )
        )
    return rows


CHECKS: tuple[Callable[[], Check | list[Check]], ...] = (
    check_python,
    check_git,
    check_rg,
    check_grammars,
    check_gh,
    check_php_tools,
    check_claude_projects,
    check_mcp,
    check_clients,
)


def run_doctor(fmt: str) -> int:
    """Run every check, print the table, exit 1 when something required is broken."""
    from sofia.output import render

    rows: list[Check] = []
    for check in CHECKS:
        result = check()
        rows.extend(result if isinstance(result, list) else [result])
    broken = [r["check"] for r in rows if r["required"] and r["status"] != "ok"]
    document = {
        "checks": rows,
        "ok": not broken,
        "summary": f"required checks failing: {', '.join(broken)}" if broken else "everything required works",
    }
    sys.stdout.write(render.render(document, fmt))
    return 1 if broken else 0
