"""The PHP `api` mode (docs/code.md, "`exported`, `brief` and `api`"): a class's effective public
surface — its own members, then each used trait (recursively, with `insteadof`/`as` applied), then
its parents — with `via` naming where each inherited member is defined. Classes are found through PSR-4 only (the file's own
namespace, composer.json, vendor/composer/installed.json), never outside the workspace root."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sofia.errors import param
from sofia.output.tokens import estimate
from sofia.providers.code.model import SourceFile, Summary
from sofia.providers.code.php_model import Adaptation, Member, PhpFile, PhpType, file_fields, read

MAX_CLASSES = 64
"""Traits and parents resolved per call at most."""
TABLES = ("functions", "properties", "constants")


def summarise_api(php: PhpFile, file: SourceFile) -> Summary:
    resolver = Resolver(file, php.namespace)
    unresolved: list[str] = []
    for php_type in php.types:
        surface = Surface(owner=php_type.name)
        surface.expand(php_type, resolver, unresolved, {php_type.fqcn.lower()})
        php_type.functions = list(surface.tables["functions"].values())
        php_type.properties = list(surface.tables["properties"].values())
        php_type.constants = list(surface.tables["constants"].values())
    notes = []
    if resolver.exhausted:
        notes.append(
            f"{param('api')}: stopped resolving after {MAX_CLASSES} traits and parents; call "
            f"{param('api', True)} on a parent file for the rest"
        )
    return Summary(
        fields=file_fields(php, exported=True, unresolved=list(dict.fromkeys(unresolved))),
        notes=notes,
        extra_raw_tok=resolver.raw_tok,
    )


@dataclass
class Surface:
    """Public members by table, first definition of a name wins (PHP names are case-insensitive,
    except properties). Inherited rows get lines 0: they are not in this file, `via` says where."""

    owner: str
    tables: dict[str, dict[str, Member]] = field(default_factory=lambda: {t: {} for t in TABLES})

    def add(self, table: str, member: Member, via: str) -> None:
        key = member.name if table == "properties" else member.name.lower()
        if member.vis != "public" or key in self.tables[table]:
            return
        row = {**member.row, "owner": self.owner, "name": member.name, "via": via}
        if "vis" in row:
            row["vis"] = member.vis
        if via and "line" in row:
            row["line"] = row["end_line"] = 0
        self.tables[table][key] = replace(member, row=row)

    def add_own(self, php_type: PhpType, via: str) -> None:
        for table, members in members_of(php_type).items():
            for member in members:
                self.add(table, member, via)

    def expand(self, php_type: PhpType, resolver: Resolver, unresolved: list[str], visited: set[str]) -> None:
        """Own members, traits, then parents, depth first."""
        self.add_own(php_type, "")
        self.add_traits(php_type, resolver, unresolved, visited)
        self.expand_parents(php_type, resolver, unresolved, visited)

    def expand_parents(
        self, php_type: PhpType, resolver: Resolver, unresolved: list[str], visited: set[str]
    ) -> None:
        for parent_name in php_type.parents:
            if parent_name.lower() in visited:
                continue
            visited.add(parent_name.lower())
            parent = resolver.find(parent_name)
            if parent is None:
                unresolved.append(f"extends {parent_name}")
                continue
            self.add_own(parent, parent.short)
            self.add_traits(parent, resolver, unresolved, visited)
            self.expand_parents(parent, resolver, unresolved, visited)

    def add_traits(
        self, php_type: PhpType, resolver: Resolver, unresolved: list[str], visited: set[str]
    ) -> None:
        for trait_name in php_type.traits:
            members = trait_members(trait_name, resolver, unresolved, visited)
            for table, member, via in adapt(php_type.adaptations, trait_name, members):
                self.add(table, member, via)


Inherited = list[tuple[str, Member, str]]
"""(table, member, via) rows a trait contributes, at every visibility."""


def members_of(php_type: PhpType) -> dict[str, list[Member]]:
    return {
        "functions": php_type.functions,
        "properties": php_type.properties,
        "constants": php_type.constants,
    }


def trait_members(name: str, resolver: Resolver, unresolved: list[str], visited: set[str]) -> Inherited:
    """A trait's members (its own, then those of the traits it uses, with its own rules applied)."""
    if name.lower() in visited:
        return []
    visited.add(name.lower())
    trait = resolver.find(name)
    if trait is None:
        unresolved.append(f"trait {name}")
        return []
    found: Inherited = [
        (table, member, trait.short) for table, members in members_of(trait).items() for member in members
    ]
    for inner in trait.traits:
        found.extend(adapt(trait.adaptations, inner, trait_members(inner, resolver, unresolved, visited)))
    return found


def adapt(rules: list[Adaptation], trait: str, members: Inherited) -> Inherited:
    """Apply a user's `insteadof`/`as` rules to the members it takes from `trait`."""

    def names(rule: Adaptation, member: Member) -> bool:
        same_trait = not rule.trait or rule.trait.lower() == trait.lower()
        return same_trait and rule.method.lower() == member.name.lower()

    adapted: Inherited = []
    for table, member, via in members:
        if table != "functions":
            adapted.append((table, member, via))
            continue
        excluded = any(
            r.method.lower() == member.name.lower() and trait.lower() in (i.lower() for i in r.insteadof)
            for r in rules
        )
        if not excluded:
            changed = next((r for r in rules if not r.alias and r.vis and names(r, member)), None)
            adapted.append((table, replace(member, vis=changed.vis) if changed else member, via))
        for rule in rules:
            if rule.alias and names(rule, member):
                adapted.append((table, replace(member, name=rule.alias, vis=rule.vis or member.vis), via))
    return adapted


class Resolver:
    """Finds the file declaring a class through PSR-4 mappings, longest prefix first."""

    def __init__(self, file: SourceFile, namespace: str) -> None:
        self.root = file.root.resolve()
        own_prefix = f"{namespace}\\" if namespace else ""
        self.mappings: list[tuple[str, Path]] = [(own_prefix, file.path.parent)]
        composer = self.nearest_composer(file.path.parent)
        if composer is not None:
            self.mappings.extend(composer_mappings(composer))
        self.mappings.sort(key=lambda m: -len(m[0]))
        self.files: dict[Path, PhpFile | None] = {}
        self.raw_tok = 0
        self.found = 0
        self.exhausted = False

    def inside(self, path: Path) -> bool:
        try:
            return path.resolve().is_relative_to(self.root)
        except OSError:
            return False

    def nearest_composer(self, directory: Path) -> Path | None:
        while self.inside(directory):
            candidate = directory / "composer.json"
            if candidate.is_file():
                return candidate
            if directory.resolve() == self.root or directory.parent == directory:
                return None
            directory = directory.parent
        return None

    def find(self, fqcn: str) -> PhpType | None:
        if self.found >= MAX_CLASSES:
            self.exhausted = True
            return None
        for prefix, directory in self.mappings:
            if not fqcn.lower().startswith(prefix.lower()):
                continue
            candidate = directory / (fqcn[len(prefix) :].replace("\\", "/") + ".php")
            php = self.load(candidate)
            declared = next((t for t in php.types if t.fqcn.lower() == fqcn.lower()), None) if php else None
            if declared is not None:
                self.found += 1
                return declared
        return None

    def load(self, path: Path) -> PhpFile | None:
        """The model of a PHP file inside the root, parsed once per call; None when unusable."""
        if path in self.files:
            return self.files[path]
        from sofia.syntax import ParseUnavailable, parse

        php: PhpFile | None = None
        if self.inside(path) and path.is_file():
            try:
                source = path.read_bytes()
                php = read(parse(source, "php").trees[0].root_node)
                self.raw_tok += estimate(source)
            except (OSError, ParseUnavailable):
                php = None
        self.files[path] = php
        return php


def composer_mappings(composer: Path) -> list[tuple[str, Path]]:
    """PSR-4 prefixes of a composer.json (autoload and autoload-dev) and of every installed package."""
    data = read_json(composer)
    if not isinstance(data, dict):
        return []
    base = composer.parent
    mappings = psr4(data.get("autoload"), base) + psr4(data.get("autoload-dev"), base)
    config = data.get("config")
    vendor_name = config.get("vendor-dir") if isinstance(config, dict) else None
    vendor = base / (vendor_name if isinstance(vendor_name, str) else "vendor")
    installed = read_json(vendor / "composer" / "installed.json")
    packages = installed.get("packages") if isinstance(installed, dict) else installed
    for package in packages if isinstance(packages, list) else []:
        if not isinstance(package, dict):
            continue
        install_path = package.get("install-path")
        name = package.get("name")
        if isinstance(install_path, str):
            directory = vendor / "composer" / install_path
        elif isinstance(name, str):
            directory = vendor / name
        else:
            continue
        mappings.extend(psr4(package.get("autoload"), directory))
    return mappings


def psr4(autoload: Any, base: Path) -> list[tuple[str, Path]]:
    """(prefix, directory) pairs of an `autoload` block's `psr-4` map, read by Composer's one
    autoload reader (values of the wrong type are left out)."""
    from sofia.providers.composer import autoload_entries

    entries, _ = autoload_entries(autoload)
    return [(e.prefix, base / path) for e in entries if e.kind == "psr-4" for path in e.paths]


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
