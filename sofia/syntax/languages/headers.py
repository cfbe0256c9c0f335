"""A declaration's signature as written: the source of its header with modifiers, attributes,
the declaring keyword and the name cut out, spacing kept as the author wrote it (`void <T>(T x)`,
`(x: Int): String`). Shared by the languages whose signatures the generic header cannot spell."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from sofia.syntax.tree import Node, text_of


def written(
    node: Node,
    name_node: Node,
    *,
    skip: Iterable[str],
    stop: Iterable[str],
    dropped: Callable[[Node], bool] | None = None,
) -> str:
    """The header of `node` up to its first child of a `stop` type, without children of `skip`
    types, extras (comments) and those `dropped` says, and without the name."""
    skipped, stops = frozenset(skip), frozenset(stop)
    pieces: list[str] = []
    previous: Node | None = None
    for child in node.children:
        if child.type in stops:
            break
        removed = child.type in skipped or child.is_extra or (dropped is not None and dropped(child))
        if removed and child != name_node:
            previous = child if pieces else None
            continue
        if previous is not None and child.start_byte > previous.end_byte:
            pieces.append(" ")
        pieces.append("\0" if child == name_node else text_of(child))
        previous = child if pieces else None
    return " ".join("".join(pieces).replace("\0", "").split())
