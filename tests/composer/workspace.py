"""The PHP workspace fixture: three real git repositories built from `fixtures/workspace`.

* `monorepo/` — `acme/monorepo` plus packages array-reader (check passes), enum (PHPUnit failures),
  http-client (PHPStan errors), money (no check script), queue (hangs past any timeout) and broken
  (malformed composer.json). Tags `v1.0.0` `v1.1.0` (annotated) `v1.2.0-RC1` `latest`; a bare
  `monorepo-origin.git` holds `main`, `v1.0.0` and `v1.1.0`.
* `standalone/` — `acme/slugger`, tag `v2.0.0` not pushed; its bare origin holds only `main`.
* `fresh/` — `acme/feature-flags`, no tags, no origin.

Check scripts are tiny PHP programs replaying recorded tool output (`monorepo/tools`), so the real
`composer` runs them without network access or a vendor install.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import git

FIXTURES = Path(__file__).parent / "fixtures"

MONOREPO_PACKAGES = (
    "acme/array-reader",
    "acme/enum",
    "acme/http-client",
    "acme/money",
    "acme/monorepo",
    "acme/queue",
)


@dataclass(frozen=True)
class Workspace:
    root: Path

    @property
    def monorepo(self) -> Path:
        return self.root / "monorepo"

    @property
    def standalone(self) -> Path:
        return self.root / "standalone"

    @property
    def fresh(self) -> Path:
        return self.root / "fresh"

    def origin(self, name: str) -> Path:
        return self.root / f"{name}-origin.git"


def build_workspace(target: Path) -> Workspace:
    shutil.copytree(FIXTURES / "workspace", target)
    space = Workspace(target)

    repo = space.monorepo
    _init(repo)
    git(repo, "add", "-A", "--", ":!packages/queue", ":!packages/broken")
    git(repo, "commit", "-q", "-m", "Array reader, enum, HTTP client and money packages")
    git(repo, "tag", "v1.0.0")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Queue package")
    git(repo, "tag", "-a", "v1.1.0", "-m", "Release v1.1.0")
    git(repo, "tag", "v1.2.0-RC1")
    git(repo, "tag", "latest")
    _origin(space, "monorepo", "main", "v1.0.0", "v1.1.0")

    _init(space.standalone)
    git(space.standalone, "add", "-A")
    git(space.standalone, "commit", "-q", "-m", "Slugger")
    git(space.standalone, "tag", "-a", "v2.0.0", "-m", "Release v2.0.0")
    _origin(space, "standalone", "main")

    _init(space.fresh)
    git(space.fresh, "add", "-A")
    git(space.fresh, "commit", "-q", "-m", "Feature flags")
    return space


def _init(repo: Path) -> None:
    git(repo, "init", "-q", "-b", "main")


def _origin(space: Workspace, name: str, *refs: str) -> None:
    bare = space.origin(name)
    git(space.root, "init", "-q", "--bare", "-b", "main", str(bare))
    repo = space.root / name
    git(repo, "remote", "add", "origin", bare.as_uri())
    git(repo, "push", "-q", "origin", *refs)
