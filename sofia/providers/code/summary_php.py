"""PHP summaries (spec tools-code §1.4 "PHP"): the file model of `php_model` as summary fields,
with `exported` filtering and the hint that points at `api` for inherited members."""

from __future__ import annotations

from typing import Any

from sofia.providers.code.model import SourceFile, Summary, SummaryOptions
from sofia.providers.code.php_model import Member, PhpFile, read, short_name
from sofia.syntax.tree import SymbolTree


def summarise(tree: SymbolTree, file: SourceFile, options: SummaryOptions) -> Summary:
    php = read(tree.trees[0].root_node)
    if options.api:
        from sofia.providers.code import php_api

        return php_api.summarise_api(php, file)
    return Summary(
        fields=file_fields(php, options.exported), notes=api_hints(php) if options.exported else []
    )


def file_fields(php: PhpFile, exported: bool, unresolved: list[str] | None = None) -> dict[str, Any]:
    """The summary keys of a file model; `exported` keeps public members only. With `unresolved`
    (the api surface) rows keep their surface order instead of the file's line order."""
    in_file_order = unresolved is None

    def rows(members: list[Member]) -> list[dict[str, Any]]:
        return [m.row for m in members if not exported or m.vis == "public"]

    functions = [*php.functions]
    properties: list[dict[str, Any]] = []
    constants = [*php.constants]
    ctor: list[dict[str, Any]] = []
    cases: list[dict[str, Any]] = []
    for php_type in php.types:
        functions.extend(rows(php_type.functions))
        properties.extend(rows(php_type.properties))
        constants.extend(m for m in php_type.constants if not exported or m.vis == "public")
        if php_type.ctor_public or not exported:
            ctor.extend(php_type.ctor)
        cases.extend(php_type.cases)
    fields: dict[str, Any] = {
        "namespace": php.namespace,
        "imports": php.imports,
        "types": [t.row for t in php.types],
        "functions": sorted(functions, key=lambda r: int(r["line"])) if in_file_order else functions,
    }
    constant_rows = [m.row for m in (sorted(constants, key=lambda m: m.line) if in_file_order else constants)]
    optional = {"properties": properties, "ctor": ctor, "constants": constant_rows, "cases": cases}
    fields.update({key: value for key, value in optional.items() if value})
    if unresolved:
        fields["unresolved"] = unresolved
    return fields


def api_hints(php: PhpFile) -> list[str]:
    """`exported` without `api`: name what the class inherits that this view does not show."""
    notes = []
    for php_type in php.types:
        parts = []
        if php_type.traits:
            parts.append("uses traits " + ", ".join(short_name(t) for t in php_type.traits))
        if php_type.parents:
            parts.append("extends " + ", ".join(short_name(p) for p in php_type.parents))
        if parts:
            notes.append(
                f"{php_type.name} {' and '.join(parts)}; call with api=true for the full callable surface"
            )
    return notes
