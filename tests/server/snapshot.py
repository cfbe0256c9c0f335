"""The reviewed snapshot of every tool definition the agent sees (`tools.snapshot.json`).

Regenerate after reviewing a change to a tool's name, description, schema or annotations:

    python -m tests.server.snapshot
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sofia.providers.registry import PROVIDERS, Provider
from sofia.server.tools import build

SNAPSHOT = Path(__file__).with_name("tools.snapshot.json")


def registered() -> list[Provider]:
    """The MCP providers of the product (never the test suite's own)."""
    return [p for p in PROVIDERS if p.mcp and not p.module.startswith("tests.")]


def wire_form(tool: Any) -> dict[str, Any]:
    """A definition exactly as `tools/list` sends it."""
    dumped: dict[str, Any] = tool.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dumped


def current() -> dict[str, Any]:
    return {name: wire_form(spec.definition) for name, spec in build(registered()).items()}


def render(definitions: dict[str, Any]) -> str:
    return json.dumps(definitions, indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    SNAPSHOT.write_text(render(current()))
    print(f"wrote {SNAPSHOT} ({len(current())} tools)")


if __name__ == "__main__":
    main()
