"""`composer_show`: everything about one package in one call — scripts with their commands,
autoload maps, every constraint, and whether `composer.lock` is fresh, with locked versions."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from sofia.output import jsonfmt, tables
from sofia.providers.composer import discovery, fitting, lock, neon, versions
from sofia.providers.composer import manifest as manifests
from sofia.providers.composer.params import PACKAGE_PATH, TreeRoot
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
    lock_state = lock_report(package, notes)
    result: dict[str, Any] = {
        "name": package.name,
        "dir": package.dir,
        "description": manifests.text(data, "description"),
        "version": version,
        "type": manifests.text(data, "type") or "library",
        "license": _license(data.get("license")),
        "php": manifests.text(require, "php"),
        "phpstan": neon.phpstan_level(package.path),
        "scripts": [
            {"name": name, "commands": script_commands(value)} for name, value in _sorted(data, "scripts")
        ],
        "autoload": autoload_rows(manifests.mapping(data, "autoload")),
        "autoload_dev": autoload_rows(manifests.mapping(data, "autoload-dev")),
        "require": [{"name": name, "constraint": value} for name, value in _sorted(data, "require")],
        "require_dev": [{"name": name, "constraint": value} for name, value in _sorted(data, "require-dev")],
        "lock": lock_state,
        "vendor_installed": (package.path / _vendor_dir(data) / "autoload.php").is_file(),
        "notes": notes,
        "omitted": {},
    }
    _fit(result, ctx.budget)
    return result


def script_commands(value: Any) -> str:
    """A script as one line: a string as is, a list of strings joined with ` && `, else compact JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return " && ".join(value)
    return jsonfmt.compact(value).decode()


def autoload_rows(section: dict[str, Any]) -> list[dict[str, str]]:
    """`psr-4`/`psr-0` rows per prefix (sorted), then one `classmap` and one `files` row."""
    rows: list[dict[str, str]] = []
    for kind in ("psr-4", "psr-0"):
        for key, paths in sorted(manifests.mapping(section, kind).items()):
            joined = paths if isinstance(paths, str) else " ".join(paths)
            rows.append({"kind": kind, "key": key, "paths": joined})
    for kind in ("classmap", "files"):
        entries = section.get(kind)
        if entries:
            rows.append({"kind": kind, "key": "", "paths": " ".join(entries)})
    return rows


def lock_report(package: discovery.Package, notes: list[str]) -> dict[str, Any]:
    """The `lock` object: presence, freshness, locked versions of the direct requirements."""
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
        notes.append(f"{problem}: run composer update --lock to rewrite it")
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
    in_lock = lock.locked_packages(parsed)
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


def _fit(result: dict[str, Any], budget: int | None) -> None:
    """Ladder: script commands to 200 characters, then locked rows, then autoload rows."""
    from sofia.output import budget as budgets

    if budgets.fits(result, budget):
        return
    if fitting.shorten_cells(result["scripts"], "commands", SCRIPT_LIMIT, tables.cut):
        result["notes"].append(f"script commands cut to {SCRIPT_LIMIT} characters to fit the output budget")
    hint = "the package is large; read composer.json for the rest"
    lock_part = result["lock"]
    if not budgets.fits(result, budget) and lock_part["locked"]:
        _drop_nested(result, lock_part, "locked", budget, hint)
    for key in ("autoload_dev", "autoload"):
        if fitting.drop_trailing(result, key, budget, "autoload rows", hint):
            return
    fitting.floor_note(result, budget)


def _drop_nested(
    result: dict[str, Any], holder: dict[str, Any], key: str, budget: int | None, hint: str
) -> None:
    """`drop_trailing` for a list inside a nested object (`lock.locked`)."""
    from sofia.output import budget as budgets

    rows = holder[key]
    total = len(rows)
    notes = list(result["notes"])

    def apply(keep: int) -> None:
        holder[key] = rows[:keep]
        result["omitted"] = {**result["omitted"], key: total - keep}
        result["notes"] = [*notes, budgets.note(key, keep, total, "locked packages", budget, hint)]

    def fits_with(keep: int) -> bool:
        apply(keep)
        return budgets.fits(result, budget)

    keep = budgets.largest_prefix(total, fits_with)
    apply(keep)


IMPLEMENTATION = Implementation(params=Params, run=run)
