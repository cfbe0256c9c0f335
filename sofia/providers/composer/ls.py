"""`composer_ls`: one digest row per package of a tree, instead of reading every `composer.json`,
running `git tag` and grepping `phpstan.neon` by hand."""

from __future__ import annotations

from typing import Any

from sofia.providers.composer import discovery, fitting, neon
from sofia.providers.composer import manifest as manifests
from sofia.providers.composer.params import TreeRoot
from sofia.providers.contract import Context, Implementation
from sofia.providers.params import Input


class Params(Input):
    root: TreeRoot = "."


def run(params: Params, ctx: Context) -> dict[str, Any]:
    root = discovery.resolve_root(params.root, ctx)
    found = discovery.discover(root, ctx)
    repo_versions = found.versions(ctx)
    rows = [digest(package, repo_versions) for package in found.packages]
    result: dict[str, Any] = {
        "root": params.root,
        "packages": rows,
        "errors": [error.row() for error in found.errors],
        "notes": [],
        "omitted": {},
    }
    hint = "narrow with root"
    if not fitting.drop_trailing(result, "packages", ctx.budget, "packages", hint):
        fitting.drop_trailing(result, "errors", ctx.budget, "error rows", hint)
    fitting.floor_note(result, ctx.budget)
    return result


def digest(package: discovery.Package, repo_versions: dict[Any, str]) -> dict[str, str]:
    data = package.manifest
    return {
        "name": package.name,
        "dir": package.dir,
        "version": repo_versions.get(package.repo, "") if package.repo else "",
        "type": manifests.text(data, "type") or "library",
        "php": manifests.text(manifests.mapping(data, "require"), "php"),
        "phpstan": neon.phpstan_level(package.path),
        "namespaces": " ".join(manifests.namespaces(data)),
        "scripts": " ".join(manifests.script_names(data)),
        "deps": " ".join(manifests.dependency_names(data, "require")),
        "dev_deps": " ".join(manifests.dependency_names(data, "require-dev")),
    }


IMPLEMENTATION = Implementation(params=Params, run=run)
