"""Finding the Composer packages under a tree, shared by every composer/packagist tool and the GitHub
providers' tree mode.

Public API:

* `resolve_root(root, ctx) -> Path` — the `root` parameter made absolute (relative to `ctx.root`),
  or `ProviderError("root not found: …")`.
* `discover(root, ctx) -> Discovery` — every `composer.json` below `root` (a directory, or a
  `composer.json` file): `packages` sorted by name then dir (unnamed last, by dir), and `errors`
  (manifests that cannot be used, one `{"dir", "error"}` row each, sorted by dir). Prunes `vendor`,
  `node_modules`, `.git` and whatever `.gitignore` files met on the way exclude; symlinks are not
  followed.
* `select(discovery, selector) -> list[Package]` — every package whose name is `selector`, ends in
  `/selector`, or whose dir basename is `selector` (what `composer check PACKAGE` runs).
* `resolve_package(selector, root, ctx) -> Package` — exactly one package for `composer show`: an
  existing path (relative to `root`, then to `ctx.root`) beats an exact name, which beats a name
  suffix or dir basename; ties and misses raise `ProviderError` naming the candidates.
* `Discovery.repositories()` — the distinct git repositories holding the packages, in package order;
  `tags(repositories, ctx)` lists their tags (once per repository, 8 at a time).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sofia.errors import param, quote, tool
from sofia.providers.composer import manifest as manifests
from sofia.providers.composer import unfollowed, versions
from sofia.providers.composer.unfollowed import Unfollowed
from sofia.providers.contract import Context, ProviderError
from sofia.runtime import files as filekinds
from sofia.runtime import git, paths, proc, rg

MANIFEST = "composer.json"
PRUNED_DIRS = ("vendor", "node_modules", ".git")
TAG_TIMEOUT = 5.0
PROBES_AT_ONCE = 8


@dataclass(frozen=True)
class Package:
    """One readable `composer.json`."""

    name: str
    """`name` from the manifest; `""` for an unnamed (usually root project) package."""
    dir: str
    """Package directory relative to the workspace (as every tool prints paths), `/`-separated;
    `.` for the workspace itself."""
    path: Path
    """Absolute package directory."""
    manifest: Mapping[str, Any]
    """The parsed manifest, every field a tool reads already type-checked."""
    repo: Path | None
    """The enclosing git repository (first ancestor with a `.git` entry), None outside one."""

    @property
    def label(self) -> str:
        """What to call the package in messages: its name, or its dir when unnamed."""
        return self.name or self.dir

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST


@dataclass(frozen=True)
class BrokenManifest:
    """A `composer.json` that cannot be used; reported as an error row, never skipped silently."""

    dir: str
    path: Path
    error: str
    line: int = 0
    """Where in the file the problem is (1-based), 0 when not known."""
    brief: str = ""
    """The error without what `line` already says."""

    def row(self) -> dict[str, str]:
        return {"dir": self.dir, "error": self.error}

    def unfollowed(self) -> Unfollowed:
        """The manifest (or the directory, when the directory itself could not be read) for a note."""
        file = self.path / MANIFEST
        return Unfollowed(
            "composer.json", file if os.path.isfile(file) else self.path, self.line, self.brief or self.error
        )


def unusable_manifests_note(errors: Iterable[BrokenManifest], workspace: Path) -> list[str]:
    """The note naming every manifest that could not be used (paths relative to `workspace`); [] for none."""
    return unfollowed.notes((error.unfollowed() for error in errors), workspace)


@dataclass(frozen=True)
class Discovery:
    root: Path
    packages: list[Package] = field(default_factory=list)
    errors: list[BrokenManifest] = field(default_factory=list)
    shown_root: str = "."
    """The discovery root as package dirs are printed (relative to the workspace)."""

    def repositories(self) -> list[Path]:
        """Distinct enclosing repositories of the packages, in package order."""
        seen: dict[Path, None] = {}
        for package in self.packages:
            if package.repo is not None:
                seen.setdefault(package.repo, None)
        return list(seen)

    def versions(self, ctx: Context) -> dict[Path, str]:
        """Each repository's version: its highest stable tag under Composer's rules, `""` without one."""
        return {
            repo: versions.highest_stable(names) for repo, names in tags(self.repositories(), ctx).items()
        }


def resolve_root(root: str, ctx: Context) -> Path:
    """The `root` parameter as an absolute path (relative to the workspace root)."""
    if root.startswith("-"):
        raise ProviderError(f"invalid root: {root}", "pass a directory path, e.g. ./packages")
    path = (ctx.root / root) if root else ctx.root
    if filekinds.require(path, root, what="root") == filekinds.MISSING:
        raise ProviderError(
            f"root not found: {root}", f"pass an existing directory (or a composer.json) as {param('root')}"
        )
    if path.is_file() and path.name != MANIFEST:
        raise ProviderError(
            f"root is a file but not a composer.json: {root}", f"pass a directory as {param('root')}"
        )
    return Path(os.path.abspath(path))


def discover(root: Path, ctx: Context) -> Discovery:
    """Every package and every unusable manifest under `root` (absolute; see `resolve_root`)."""
    if root.is_file():
        files = [root]
        base = root.parent
    else:
        base = root
    packages: list[Package] = []
    errors: list[BrokenManifest] = []
    if not root.is_file():
        files = [root / rel for rel in _manifest_files(root, ctx, errors)]
    repo_cache: dict[Path, Path | None] = {}
    for file in files:
        directory = file.parent
        rel = paths.shown(directory, ctx.root)
        try:
            data = manifests.load(file)
        except manifests.ManifestError as exc:
            errors.append(BrokenManifest(rel, directory, exc.message, exc.line, exc.brief))
            continue
        name = manifests.text(data, "name")
        packages.append(Package(name, rel, directory, data, _repository_of(directory, repo_cache)))
    packages.sort(key=lambda p: (p.name == "", p.name, p.dir))
    errors.sort(key=lambda e: e.dir)
    return Discovery(base if root.is_file() else root, packages, errors, paths.shown(base, ctx.root))


def _manifest_files(root: Path, ctx: Context, errors: list[BrokenManifest]) -> list[str]:
    """Paths of `composer.json` files below `root`, relative to it, via ripgrep's walker.

    ripgrep applies `.gitignore` files (also outside git repositories) the way git does, never
    follows symlinks, and `--no-ignore-parent/-global/-exclude/-dot` keep anything but the tree's
    own `.gitignore` files from hiding a package. A directory it cannot read becomes an error row:
    a package there would otherwise go missing without a word.
    """
    extra = [
        "--no-ignore-parent",
        "--no-ignore-global",
        "--no-ignore-exclude",
        "--no-ignore-dot",
        *(f"--glob=!{name}/" for name in PRUNED_DIRS),
        f"--glob={MANIFEST}",
    ]
    listing = rg.walk(["."], cwd=root, extra=extra, defaults=False, timeout=ctx.timeout(60.0))
    for entry in listing.skipped:
        where = root / entry.path
        errors.append(BrokenManifest(paths.shown(where, ctx.root), where, f"not searched: {entry.reason}"))
    return [n for n in listing.files if n.rsplit("/", 1)[-1] == MANIFEST]


def _repository_of(directory: Path, cache: dict[Path, Path | None]) -> Path | None:
    """The nearest ancestor holding a `.git` entry (a directory, or a file for worktrees/submodules)."""
    visited: list[Path] = []
    current = directory
    found: Path | None = None
    while True:
        if current in cache:
            found = cache[current]
            break
        visited.append(current)
        if (current / ".git").exists():
            found = current
            break
        if current.parent == current:
            break
        current = current.parent
    for path in visited:
        cache[path] = found
    return found


def tags(repositories: Sequence[Path], ctx: Context) -> dict[Path, list[str]]:
    """`git tag --list` of each repository (5 s each, 8 at a time); `[]` when git fails or times out."""

    def probe(repo: Path) -> list[str]:
        try:
            done = git.run(["tag", "--list"], cwd=repo, timeout=ctx.timeout(TAG_TIMEOUT))
        except (proc.ProgramTimeout, OSError):
            return []
        if done.returncode != 0:
            return []
        return [line.strip() for line in done.out.splitlines() if line.strip()]

    if not repositories:
        return {}
    with ThreadPoolExecutor(max_workers=min(PROBES_AT_ONCE, len(repositories))) as pool:
        return dict(zip(repositories, pool.map(probe, repositories), strict=True))


def matches(package_name: str, package_dir: str, selector: str, root_dir: str = ".") -> bool:
    """Name, `/`-suffix of the name, or the dir's basename (the package at the discovery root,
    `root_dir`, only by name)."""
    if package_name and (package_name == selector or package_name.endswith("/" + selector)):
        return True
    return package_dir != root_dir and package_dir.rsplit("/", 1)[-1] == selector


def select(discovery: Discovery, selector: str) -> list[Package]:
    """Every package `selector` matches (all of them for an empty selector), in package order."""
    if not selector:
        return list(discovery.packages)
    return [p for p in discovery.packages if matches(p.name, p.dir, selector, discovery.shown_root)]


def select_errors(discovery: Discovery, selector: str) -> list[BrokenManifest]:
    """Unusable manifests whose dir basename is `selector` (all for an empty selector)."""
    return [e for e in discovery.errors if not selector or matches("", e.dir, selector, discovery.shown_root)]


def no_match(selector: str, root_label: str, discovery: Discovery) -> ProviderError:
    """`no package matching "<x>" under <root>; known packages: …` with the five closest names."""
    known = [p.label for p in discovery.packages]
    closest = closest_names(selector, known)
    listing = ", ".join(closest) if closest else "none"
    unread = ""
    if discovery.errors:
        dirs = " ".join(quote(e.dir, 60) for e in discovery.errors[:3])
        more = f" (+{len(discovery.errors) - 3} more)" if len(discovery.errors) > 3 else ""
        unread = (
            f"; {len(discovery.errors)} composer.json files could not be read (one may be it): {dirs}{more}"
        )
    return ProviderError(
        f'no package matching "{quote(selector)}" under {quote(root_label)}; known packages: {listing}{unread}',
        f"pass a package name, a name suffix, a directory name or a path ({tool('composer_ls')} lists them)",
    )


def closest_names(selector: str, names: Iterable[str], count: int = 5) -> list[str]:
    """The `count` names most similar to `selector` (difflib ratio; ties by name)."""

    def score(name: str) -> float:
        tail = name.rsplit("/", 1)[-1]
        return max(
            difflib.SequenceMatcher(None, selector, name).ratio(),
            difflib.SequenceMatcher(None, selector, tail).ratio(),
        )

    unique = sorted(set(names))
    return sorted(unique, key=lambda name: (-score(name), name))[:count]


def resolve_package(selector: str, root: Path, ctx: Context, root_label: str = ".") -> Package:
    """The one package `selector` names under `root`; ProviderError when none or several match."""
    if not selector:
        raise ProviderError(
            "package is empty", "pass a package name, a name suffix, a directory name or a path"
        )
    by_path = _package_at_path(selector, root, ctx)
    if by_path is not None:
        return by_path
    discovery = discover(root, ctx)
    exact = [p for p in discovery.packages if p.name == selector]
    if exact:
        return _only(exact, selector)
    loose = select(discovery, selector)
    broken = select_errors(discovery, selector)
    if not loose and len(broken) == 1:
        raise ProviderError(
            f"{_join(broken[0].dir, MANIFEST)}: {broken[0].error}",
            "fix the manifest (composer validate shows details)",
        )
    if loose or broken:
        return _only(loose, selector, [e.dir for e in broken])
    raise no_match(selector, root_label, discovery)


def _only(found: list[Package], selector: str, broken_dirs: Sequence[str] = ()) -> Package:
    if len(found) == 1 and not broken_dirs:
        return found[0]
    listing = ", ".join([f"{p.label} ({p.dir})" for p in found] + [f"{d} (unreadable)" for d in broken_dirs])
    raise ProviderError(
        f'"{selector}" matches several packages: {listing}',
        "pass the full package name or the package's directory path",
    )


def _package_at_path(selector: str, root: Path, ctx: Context) -> Package | None:
    """The package at `selector` taken as a path (relative to root, then to the workspace root)."""
    if selector.startswith("-"):
        return None
    for base in (root if root.is_dir() else root.parent, ctx.root):
        candidate = base / selector
        if candidate.is_dir() and (candidate / MANIFEST).is_file():
            candidate = candidate / MANIFEST
        if candidate.name == MANIFEST and candidate.is_file():
            return _load_one(Path(os.path.abspath(candidate)), ctx.root)
    return None


def _load_one(file: Path, workspace: Path) -> Package:
    rel = paths.shown(file.parent, workspace)
    try:
        data = manifests.load(file)
    except manifests.ManifestError as exc:
        raise ProviderError(
            f"{_join(rel, MANIFEST)}: {exc}", "fix the manifest (composer validate shows details)"
        ) from None
    return Package(manifests.text(data, "name"), rel, file.parent, data, _repository_of(file.parent, {}))


def _join(directory: str, name: str) -> str:
    return name if directory == "." else f"{directory}/{name}"
