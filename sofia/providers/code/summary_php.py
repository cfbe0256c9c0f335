"""PHP summaries: the file model of `php_model` as summary fields,
with `exported` filtering and the hint that points at `api` for inherited members."""

from __future__ import annotations

from sofia.errors import param
from sofia.providers.code.model import SourceFile, Summary, SummaryOptions
from sofia.providers.code.php_model import PhpFile, file_fields, read, short_name
from sofia.syntax.tree import SymbolTree


def summarise(tree: SymbolTree, file: SourceFile, options: SummaryOptions) -> Summary:
    php = read(tree.trees[0].root_node)
    if options.api:
        from sofia.providers.code import php_api

        return php_api.summarise_api(php, file)
    return Summary(
        fields=file_fields(php, options.exported), notes=api_hints(php) if options.exported else []
    )


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
                f"{php_type.name} {' and '.join(parts)}; call with {param('api', True)} for the full callable surface"
            )
    return notes
