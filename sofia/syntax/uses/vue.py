"""Vue single-file components: occurrences in `<script>` blocks are classified as in a plain
script (the blocks' own trees); in the `<template>`, a component's name used as a tag (`<UserBadge>`
or `<user-badge>`) is a `tag` use and a name inside a bound attribute or a `{{ }}` interpolation
is a reference; anything else in the template or a `<style>` is text."""

from __future__ import annotations

import os
import re

from sofia.syntax.tree import Node, text_of
from sofia.syntax.uses import js
from sofia.syntax.uses.model import COMMENT, OTHER, STRING, USE, Binding, Occurrence, Path, Syntax
from sofia.syntax.uses.nodes import ancestors
from sofia.syntax.uses.scan import Base
from sofia.syntax.vue import sfc_blocks

BOUND = ("v-", ":", "@", "#")
"""Attribute name prefixes whose value is a script expression."""
_HUMPS = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def kebab(name: str) -> str:
    """`UserBadge` -> `user-badge` (how templates may write a component's name)."""
    return _HUMPS.sub("-", name).lower()


def is_component_name(name: str) -> bool:
    return bool(name) and name[0].isupper() and any(c.islower() for c in name) and name.isidentifier()


class Analyzer(Base):
    def __init__(self, tree: Syntax, rel: str) -> None:
        self.source = tree.source
        self.blocks = sfc_blocks(tree.source)
        component = os.path.splitext(os.path.basename(rel))[0]
        self.scripts = [
            (b, js.Analyzer(tree, rel, script=b.tree, component=component))
            for b in self.blocks
            if b.tree is not None
        ]
        self.module: Path = js.module_path(rel)

    def _script(self, start: int) -> js.Analyzer | None:
        for block, analyzer in self.scripts:
            if block.element.start_byte <= start < block.element.end_byte:
                return analyzer
        return None

    def root_at(self, start: int) -> Node | None:
        analyzer = self._script(start)
        if analyzer is None:
            return None
        for block, script in self.scripts:
            if script is analyzer:
                raw = next((c for c in block.element.named_children if c.type == "raw_text"), None)
                if raw is not None and raw.start_byte <= start < raw.end_byte:
                    return script.root
        return None

    def classify(self, node: Node, word: str) -> Occurrence:
        analyzer = self._script(node.start_byte)
        assert analyzer is not None
        return analyzer.classify(node, word)

    def resolve(self, name: str) -> Path | None:
        for _, analyzer in self.scripts:
            found = analyzer.resolve(name)
            if found is not None:
                return found
        return None

    def outside(self, start: int, word: str) -> Occurrence:
        length = len(word.encode("utf-8"))
        document = self.blocks[0].element.parent if self.blocks else None
        node = document.descendant_for_byte_range(start, start + length) if document is not None else None
        holders = [node, *ancestors(node)] if node is not None else []
        if any(holder.type == "comment" for holder in holders):
            return Occurrence(start, 0, 0, COMMENT)  # `<!-- ... -->`, in the template or around it
        style = next((b for b in self.blocks if b.tag == "style" and _inside(b.element, start)), None)
        if style is not None:
            return Occurrence(
                start, 0, 0, COMMENT if _in_css_comment(self.source, style.element, start) else STRING
            )
        template = next((b for b in self.blocks if b.tag == "template"), None)
        if template is None or not _inside(template.element, start):
            return Occurrence(start, 0, 0, STRING)
        if (
            node is not None
            and node.type == "tag_name"
            and node.parent is not None
            and node.parent.type == "end_tag"
        ):
            return Occurrence(start, 0, 0, OTHER)
        if node is not None and node.type == "tag_name":
            name = word if word[0].isupper() else _pascal(word)
            return self._use(start, "tag", name)
        for holder in holders:
            if holder.type == "attribute_name":
                return Occurrence(start, 0, 0, OTHER)  # a prop, event or directive name
            if holder.type == "attribute":
                label = next((c for c in holder.named_children if c.type == "attribute_name"), None)
                if label is not None and text_of(label).startswith(BOUND):
                    return self._use(start, "reference", word)
                return Occurrence(start, 0, 0, STRING)
            if holder.type == "text":
                if _interpolated(self.source, holder.start_byte, start):
                    return self._use(start, "reference", word)
                return Occurrence(start, 0, 0, STRING)
        return Occurrence(start, 0, 0, STRING)

    def _use(self, start: int, kind: str, name: str) -> Occurrence:
        """A template use of a script's name, resolved through the scripts' imports."""
        container = self.resolve(name)
        bare = any(analyzer.is_bare(container) for _, analyzer in self.scripts)
        return Occurrence(start, 0, 0, USE, kind, container, bare_import=bare)

    def extra_spellings(self, word: str) -> list[str]:
        spelled = kebab(word) if is_component_name(word) else word
        return [spelled] if spelled != word else []

    def classes(self) -> list[Binding]:
        return [binding for _, analyzer in self.scripts for binding in analyzer.classes()]


def _pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("-"))


def _inside(element: Node, start: int) -> bool:
    return bool(element.start_byte <= start < element.end_byte)


def _in_css_comment(source: bytes, element: Node, position: int) -> bool:
    """Whether `position` lies inside a `/* ... */` of the style block (CSS has no other comment)."""
    before = source[element.start_byte : position]
    opened = before.rfind(b"/*")
    return opened >= 0 and before.rfind(b"*/") < opened


def _interpolated(source: bytes, text_start: int, position: int) -> bool:
    """Whether `position` lies between a `{{` and its `}}` within the template text node."""
    before = source[text_start:position]
    opened = before.rfind(b"{{")
    return opened >= 0 and before.rfind(b"}}") < opened
