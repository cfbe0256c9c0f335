"""Which repository (or repositories) `github_ci` asks about: a package or directory inside a git
work tree selects that repository; a tree without one selects every package repository under it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sofia.errors import param, tool
from sofia.providers.contract import Context, ProviderError
from sofia.runtime import paths

if TYPE_CHECKING:
    from sofia.providers.composer import Discovery


@dataclass(frozen=True)
class Target:
    mode: str
    """`repository` or `tree`."""
    repo_dir: str
    """The repository, or the tree, relative to the workspace root (`/`-separated)."""
    repo: Path | None = None
    repos: list[tuple[str, Path]] = field(default_factory=list)
    """Tree mode: (label, repository) pairs, sorted by label."""
    notes: list[str] = field(default_factory=list)
    """Tree mode: the composer.json files that could not be read (their repositories may be missing)."""


def resolve(root: str, package: str, ctx: Context) -> Target:
    """The target of a github_ci call, or a ProviderError naming what was not found."""
    from sofia.providers import composer

    found = composer.resolve_root(root, ctx)
    base = found.parent if found.is_file() else found
    if package:
        directory = package_dir(base, package, root, ctx)
        repo = enclosing_repository(directory)
        if repo is None:
            raise ProviderError(
                f"{package} is not in a git repository: {paths.shown(directory, ctx.root)}",
                f"{tool('github_ci')} reads the runs of the GitHub repository a package lives in; clone it with git",
            )
        return Target("repository", paths.shown(repo, ctx.root), repo=repo)
    repo = enclosing_repository(base)
    if repo is not None:
        return Target("repository", paths.shown(repo, ctx.root), repo=repo)
    found_packages = composer.discover(base, ctx)
    repos = package_repositories(found_packages)
    notes = composer.unusable_manifests_note(found_packages.errors, ctx.root)
    if not repos:
        unread = f" ({notes[0]})" if notes else ""
        raise ProviderError(
            f"{root} is not in a git repository and contains no package repositories{unread}",
            f"pass a repository, a package, or a tree holding cloned packages as {param('root')}",
        )
    return Target("tree", paths.shown(base, ctx.root), repos=repos, notes=notes)


def package_dir(base: Path, package: str, root: str, ctx: Context) -> Path:
    """The directory `package` names: an existing directory (under root, then the workspace root),
    else a Composer package by name, name suffix or directory basename."""
    from sofia.providers import composer

    if not package.startswith("-"):
        for start in (base, ctx.root):
            candidate = start / package
            if candidate.is_dir():
                return Path(os.path.abspath(candidate))
    return composer.resolve_package(package, base, ctx, root_label=root).path


def enclosing_repository(path: Path) -> Path | None:
    """The nearest directory at or above `path` holding a `.git` entry (no subprocess)."""
    for directory in (path, *path.parents):
        if (directory / ".git").exists():
            return directory
    return None


def package_repositories(found: Discovery) -> list[tuple[str, Path]]:
    """(label, repository) per distinct package repository: the label of the package at the
    repository's top, else of its first package; sorted by label."""
    labels: dict[Path, str] = {}
    for package in found.packages:
        if package.repo is None:
            continue
        if package.path == package.repo or package.repo not in labels:
            labels[package.repo] = package.label
    return sorted(((label, repo) for repo, label in labels.items()), key=lambda pair: (pair[0], str(pair[1])))
