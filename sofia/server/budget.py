"""The output budget applied to error results too: an error over it is cut to fit, saying so.

A payload over the budget is refused with its size (the agent narrows the call); an error cannot
be narrowed, so its head is sent, within the budget, with a note of how much was left out.
"""

from __future__ import annotations

import mcp_types as types

from sofia.output.tokens import estimate


def fit_error(result: types.CallToolResult, budget: int | None) -> types.CallToolResult:
    """`result` itself, or, for an error over `budget` tokens, the same error cut to fit."""
    if budget is None or not result.is_error or len(result.content) != 1:
        return result
    block = result.content[0]
    if not isinstance(block, types.TextContent):
        return result
    tokens = estimate(block.text)
    if tokens <= budget:
        return result
    note = f"… (error cut to fit the output budget of {budget:,} tokens; it was about {tokens:,})"
    head = _head(block.text, budget - estimate(note) - 1)
    text = f"{head}\n{note}" if head else note
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


def _head(text: str, tokens: int) -> str:
    """The longest start of `text`, cut at a line end when one is near, within `tokens`."""
    if tokens <= 0:
        return ""
    low, high = 0, min(len(text), tokens * 4 + 4)
    while low < high:
        middle = (low + high + 1) // 2
        if estimate(text[:middle]) <= tokens:
            low = middle
        else:
            high = middle - 1
    head = text[:low]
    newline = head.rfind("\n")
    return head[:newline] if newline > len(head) // 2 else head
