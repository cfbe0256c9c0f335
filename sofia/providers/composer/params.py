"""The parameters every PHP-package tool shares (composer_*, packagist_*, github_ci over a tree)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field

from sofia.providers.contract import Cli
from sofia.providers.params import PathParam


def package_is_path(value: str, workspace: Path) -> bool:
    """A package parameter is a path when it is spelt like one or names something on disk; a
    Composer name (`acme/enum`) or a bare suffix (`enum`) is not."""
    if value.startswith(("/", ".", "~")) or value.endswith(".json") or "\\" in value:
        return True
    return (workspace / value).exists()


PACKAGE_PATH = PathParam(when=package_is_path, also_under="root")
"""A package given as a path is confined, relative to the workspace and to `root`."""

TreeRoot = Annotated[
    str,
    Field(description="Tree to scan for composer.json files (or one composer.json)."),
    Cli(flag="--root", metavar="DIR"),
    PathParam(),
]
"""The `root` parameter shared by the Composer and Packagist tools."""
PackageFilter = Annotated[
    str,
    Field(description="Only packages matching by name, name suffix or directory; empty = all."),
    Cli(positional=True, metavar="PACKAGE"),
    PACKAGE_PATH,
]
"""The optional `package` positional of the tools that work on every package by default."""
