"""`composer_ls`: one digest row per package of a tree, instead of reading every `composer.json`,
running `git tag` and grepping `phpstan.neon` by hand."""

from __future__ import annotations

from typing import Any

from sofia.errors import param
from sofia.output import budget
from sofia.providers.composer import discovery, neon, unfollowed
from sofia.providers.composer import manifest as manifests
from sofia.providers.composer.params import TreeRoot
from sofia.providers.composer.unfollowed import Unfollowed
from sofia.providers.contract import Context, Implementation
from sofia.providers.params import Input


class Params(Input):
    root: TreeRoot = "."


def run(params: Params, ctx: Context) -> dict[str, Any]:
    root = discovery.resolve_root(params.root, ctx)
    found = discovery.discover(root, ctx)
    repo_versions = found.versions(ctx)
    unread: list[Unfollowed] = [error.unfollowed() for error in found.errors]
    rows = [digest(package, repo_versions, unread) for package in found.packages]
    result: dict[str, Any] = {
        "root": params.root,
        "packages": rows,
        "errors": [error.row() for error in found.errors],
        "notes": unfollowed.notes(unread, ctx.root),
    }
    hint = f"narrow with {param('root')}"
    if not budget.keep_prefix(result, "packages", ctx.budget, "packages", hint):
        budget.keep_prefix(result, "errors", ctx.budget, "error rows", hint)
    budget.add_floor_note(result, ctx.budget)
    return result


def digest(
    package: discovery.Package, repo_versions: dict[Any, str], unread: list[Unfollowed]
) -> dict[str, str]:
    """One package's row; PHPStan configurations whose level could not be read go to `unread`."""
    data = package.manifest
    level, level_unread = neon.phpstan_level(package.path)
    unread.extend(level_unread)
    return {
        "name": package.name,
        "dir": package.dir,
        "version": repo_versions.get(package.repo, "") if package.repo else "",
        "type": manifests.text(data, "type") or "library",
        "php": manifests.text(manifests.mapping(data, "require"), "php"),
        "phpstan": level,
        "namespaces": " ".join(manifests.namespaces(data)),
        "scripts": " ".join(manifests.script_names(data)),
        "deps": " ".join(manifests.dependency_names(data, "require")),
        "dev_deps": " ".join(manifests.dependency_names(data, "require-dev")),
    }


IMPLEMENTATION = Implementation(params=Params, run=run)
