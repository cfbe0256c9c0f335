"""A symbol's extent runs from its first leading decorator, attribute or doc comment to its last
line: every query of the symbol layer (`enclosing`, `touched_symbols`) uses that
extent, while `line` stays the declaration's own first line (what a summary shows)."""

from __future__ import annotations

import pytest

from sofia.syntax import parse, slice_text, touched_symbols

PYTHON = b'''import frappe


@frappe.whitelist()
@frappe.read_only(
    allow_guest=True,
)
def get_items(name):
    """Items of a list."""
    return frappe.get_all(name)


class Shop:
    # The price, cached.
    @property
    def price(self):
        return 1
'''

PHP = b"""<?php
namespace App\\Controller;

/**
 * Users.
 */
#[Route('/api/users')]
final class UserController
{
    /**
     * Deletes one user.
     */
    #[Route('/{id}', methods: ['DELETE'])]
    #[IsGranted('ROLE_ADMIN')]
    public function destroy(int $id): void
    {
    }
}
"""

TS = b"""import { Component, Input, HostListener } from '@angular/core'

/** A card. */
@Component({
  selector: 'app-card',
})
export class CardComponent {
  /** The title. */
  @Input()
  title = ''

  /**
   * Clicks.
   */
  @HostListener('click')
  onClick(): void {
    return
  }
}

/**
 * Adds.
 */
export function add(a: number, b: number): number {
  return a + b
}
"""

GO = b"""package server

// Server serves the API.
//
// It is safe for concurrent use.
type Server struct{}

// Routes lists the routes.
func (s *Server) Routes() int {
\treturn 1
}
"""

VUE = b"""<template>
  <div />
</template>

<script lang="ts">
import { Component, Vue, Prop } from 'vue-property-decorator'

/** The card. */
@Component
export default class Card extends Vue {
  /** Its title. */
  @Prop() title!: string

  /** Greets. */
  @Emit('greet')
  greet(): string {
    return 'hi'
  }
}
</script>
"""


def lines_of(source: bytes, text: bytes) -> list[int]:
    """1-based numbers of the lines holding `text`."""
    return [n for n, line in enumerate(source.split(b"\n"), 1) if text in line]


CASES = [
    ("python", PYTHON, b"@frappe.whitelist()", "get_items", b"def get_items"),
    ("python", PYTHON, b"allow_guest=True", "get_items", b"def get_items"),
    ("python", PYTHON, b"# The price, cached.", "Shop.price", b"def price"),
    ("python", PYTHON, b"@property", "Shop.price", b"def price"),
    ("php", PHP, b"#[Route('/api/users')]", "UserController", b"final class"),
    ("php", PHP, b" * Users.", "UserController", b"final class"),
    ("php", PHP, b" * Deletes one user.", "UserController::destroy", b"public function destroy"),
    ("php", PHP, b"#[IsGranted", "UserController::destroy", b"public function destroy"),
    ("ts", TS, b"/** A card. */", "CardComponent", b"export class CardComponent"),
    ("ts", TS, b"selector: 'app-card'", "CardComponent", b"export class CardComponent"),
    ("ts", TS, b"@HostListener('click')", "CardComponent.onClick", b"onClick(): void"),
    ("ts", TS, b"   * Clicks.", "CardComponent.onClick", b"onClick(): void"),
    ("ts", TS, b" * Adds.", "add", b"export function add"),
    ("go", GO, b"// It is safe", "Server", b"type Server"),
    ("go", GO, b"// Routes lists", "Server.Routes", b"func (s *Server)"),
    ("vue", VUE, b"/** The card. */", "Card", b"export default class"),
    ("vue", VUE, b"@Component", "Card", b"export default class"),
    ("vue", VUE, b"@Emit('greet')", "Card.greet", b"greet(): string"),
]


@pytest.mark.parametrize(("lang", "source", "marker", "qname", "declaration"), CASES)
def test_leading_lines_belong_to_the_symbol(
    lang: str, source: bytes, marker: bytes, qname: str, declaration: bytes
) -> None:
    tree = parse(source, lang, "Card.vue" if lang == "vue" else "")
    [line] = lines_of(source, marker)
    symbol = tree.enclosing(line)
    assert symbol is not None and symbol.qname == qname
    assert symbol.contains(line)
    assert symbol.line == lines_of(source, declaration)[0]
    assert symbol.slice_line <= line < symbol.line
    assert slice_text(source, symbol).split(b"\n")[line - symbol.slice_line] == source.split(b"\n")[line - 1]


@pytest.mark.parametrize(("lang", "source", "marker", "qname", "declaration"), CASES)
def test_editing_only_a_leading_line_touches_the_symbol(
    lang: str, source: bytes, marker: bytes, qname: str, declaration: bytes
) -> None:
    [line] = lines_of(source, marker)
    edited = source.replace(marker, marker + b" ", 1)
    name = "Card.vue" if lang == "vue" else ""
    assert touched_symbols(lang, source, edited, [(line, line)], [(line, line)], name) == [qname]


def test_the_extent_is_the_slice_range_and_the_declaration_line_is_kept() -> None:
    tree = parse(PYTHON, "python")
    [function] = tree.find("get_items")
    assert (function.slice_line, function.end_line) == (4, 10)
    assert function.line == 8
    assert function.contains(4) and function.contains(10)
    assert not function.contains(3) and not function.contains(11)
    assert tree.enclosing(3) is None
    assert tree.enclosing(11) is None


def test_a_comment_ending_the_block_above_is_not_taken() -> None:
    source = b"def a():\n    return 1\n    # about a's end\ndef b():\n    return 2\n"
    tree = parse(source, "python")
    symbol = tree.enclosing(3)
    assert symbol is None or symbol.qname == "a"
    [b] = tree.find("b")
    assert b.slice_line == b.line == 4
