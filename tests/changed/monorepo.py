"""The monorepo the path-space tests of `changed` and of the MCP server share: a package
(src/Core) that is the workspace, with changes inside and outside it."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import Repo, git

CONTAINER = """<?php
namespace Core;

class Container
{
    public function get(string $id): object
    {
        return $this->marker[$id];
    }

    public function has(string $id): bool
    {
        return isset($this->marker[$id]);
    }
}
"""

MOVER = """<?php
class {name}
{{
    public function first(): int
    {{
        return 1; // marker
    }}

    public function second(): int
    {{
        return 2;
    }}
}}
"""


def mover(name: str, second: str = "2") -> str:
    """A class whose padding (so a small edit stays a rename) differs from every other class's."""
    padding = "".join(f"// {name} line {i}\n" for i in range(12))
    return MOVER.format(name=name).replace("return 2;", f"return {second};") + padding


def build_monorepo(tmp_path: Path) -> Repo:
    """A repository with the package src/Core (the workspace) and changes inside and outside it,
    renames across its boundary, submodules on both sides and untracked files on both sides."""
    lib = Repo(tmp_path / "lib")
    lib.write("lib.py", "x = 1\n")
    lib.commit("lib one")
    repo = Repo(tmp_path / "mono")
    repo.write("README.md", "# Mono\n")
    repo.write("src/Core/src/Container.php", CONTAINER)
    repo.write("src/Core/src/Leaving.php", mover("Leaving"))
    repo.write("src/Other/Thing.php", "<?php\nfunction thing() { return 1; }\n")
    repo.write("src/Other/Moved.php", mover("Moved"))
    for where in ("src/Core/vendored", "libs/ext"):
        repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib.path), where)
    repo.commit("initial")
    lib.write("lib.py", "x = 2\n")
    second = lib.commit("lib two")
    for where in ("src/Core/vendored", "libs/ext"):
        git(repo.path / where, "-c", "protocol.file.allow=always", "fetch", "-q", "origin")
        git(repo.path / where, "checkout", "-q", second)

    repo.write("README.md", "# Mono!\n")
    repo.write(
        "src/Core/src/Container.php",
        CONTAINER.replace("isset($this->marker[$id])", "array_key_exists($id, $this->marker)"),
    )
    repo.write("src/Other/Thing.php", "<?php\nfunction thing() { return 2; }\n")
    repo.git("mv", "src/Other/Moved.php", "src/Core/src/Moved.php")
    repo.write("src/Core/src/Moved.php", mover("Moved", second="22"))
    repo.git("mv", "src/Core/src/Leaving.php", "src/Other/Leaving.php")
    repo.write("src/Other/Leaving.php", mover("Leaving", second="22"))
    repo.write("src/Core/notes.txt", "marker\n")
    repo.write("src/Other/loose.txt", "loose\n")
    return repo
