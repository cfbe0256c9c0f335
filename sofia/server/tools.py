"""The tool list, generated from the provider registry: definitions, annotations, instructions."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import mcp_types as types
from pydantic import BaseModel

from sofia.errors import render
from sofia.providers.registry import Provider, group_named
from sofia.server.schema import input_schema
from sofia.workers.protocol import PayloadFormat

log = logging.getLogger("sofia.mcp")

TITLE = "sofia — workspace context for coding agents"

_INTRO = (
    "sofia answers questions about this workspace with compact, read-only {format}; prefer it to reading "
    "whole files or running shell commands. Paths are relative to the workspace root."
)
_FORMATS: dict[PayloadFormat, str] = {
    "json": "JSON",
    "toon": "TOON (`key: value` lines; `rows[N]{a,b}:` heads N comma-separated rows), or JSON when shorter",
}
"""How the instructions name each payload format (`sf mcp --payload`)."""
_OUTRO = "A shortened result says what was left out and how to narrow the call."


@dataclass(frozen=True)
class ToolSpec:
    """One served tool: its provider, input model and wire definition."""

    provider: Provider
    model: type[BaseModel]
    definition: types.Tool

    @property
    def name(self) -> str:
        return self.provider.name


def build(providers: Sequence[Provider]) -> dict[str, ToolSpec]:
    """Tool definitions keyed by name (importing each provider module for its input model).

    A provider whose module cannot even be imported is left out, loudly: one broken tool must
    not take the others down with it.
    """
    specs: dict[str, ToolSpec] = {}
    for provider in providers:
        try:
            model = provider.params
            specs[provider.name] = ToolSpec(provider, model, definition(provider, model))
        except Exception:
            log.exception("tool %s left out: its provider %s failed to load", provider.name, provider.module)
    return specs


def definition(provider: Provider, model: type[BaseModel]) -> types.Tool:
    hints = provider.annotations
    return types.Tool(
        name=provider.name,
        description=render(provider.description),
        input_schema=input_schema(model),
        annotations=types.ToolAnnotations(
            read_only_hint=hints.read_only,
            destructive_hint=hints.destructive,
            idempotent_hint=hints.idempotent,
            open_world_hint=hints.open_world,
        ),
    )


def instructions(providers: Sequence[Provider], payload: PayloadFormat = "json") -> str:
    """What the results look like (the `payload` format) and what to ask which tool, for the tools
    actually served (at most ~150 words): each tool's guide line, or once its group's when the
    group has one."""
    lines: list[str] = []
    for provider in providers:
        group = group_named(provider.group)
        line = group.guide if group is not None and group.guide else provider.guide
        if line and line not in lines:
            lines.append(line)
    intro = _INTRO.format(format=_FORMATS[payload])
    return " ".join([intro, *(f"{line}." for line in lines), _OUTRO])
