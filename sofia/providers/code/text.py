"""CLI text of a `code` result (docs/code.md, "The text form (TOON)"): one rendering per file document, raw
files verbatim behind a one-line header, slices as plain source with comment headers."""

from __future__ import annotations

import os
from typing import Any

from sofia.providers.code.documents import raw_below, size_text
from sofia.providers.code.model import SLICE_MODE
from sofia.providers.code.slices import WHOLE_FILE_NOTE
from sofia.syntax import MAX_PARSE_BYTES
from sofia.syntax.registry import language


def is_slice_result(result: dict[str, Any]) -> bool:
    """Whether the result is slice mode, as the pipeline marked it (never guessed from its shape)."""
    return result.get("mode") == SLICE_MODE


def reason_text(document: dict[str, Any]) -> str:
    """The human form of a raw document's reason, as in `# raw: <path> (<reason text>)`."""
    reason = document.get("reason", "")
    size = len(document.get("content", "").encode("utf-8", "surrogatepass"))
    if reason == "below_threshold":
        return f"{size_text(size)} < {size_text(raw_below())}: full file is cheaper than structure"
    if reason == "summary_not_smaller":
        return "summary would not be smaller"
    if reason == "slices_not_smaller":
        return "slices would not be smaller"
    if reason == "parse_failed":
        count = document.get("parse_errors", 0)
        return f"could not parse: {count} syntax error{'' if count == 1 else 's'}"
    if reason == "unsupported_type":
        name = document["path"].rsplit("/", 1)[-1]
        extension = os.path.splitext(name)[1]
        return f"no summariser for {extension or name}"
    if reason == "too_large":
        return f"too large to parse ({size_text(size)})" if size > MAX_PARSE_BYTES else "parse took too long"
    return str(reason)


def with_newline(text: str) -> str:
    return text if text.endswith("\n") or not text else text + "\n"


def render_document(document: dict[str, Any], fmt: str) -> str:
    if document.get("mode") == "raw":
        return f"# raw: {document['path']} ({reason_text(document)})\n" + with_newline(document["content"])
    if fmt == "md":
        from sofia.output import markdown

        return markdown.render(document)
    from sofia.output import toon
    from sofia.providers.code.display import display

    if document.get("mode") == "summary":
        document = display(document, toon.render)
    return toon.render(document)


def render(result: Any, fmt: str) -> str | None:
    """TOON/Markdown text of a `code` result; None for JSON (the generic renderer prints it)."""
    if fmt == "json" or not isinstance(result, dict):
        return None
    if is_slice_result(result):
        return slice_text(result)
    parts = [render_document(d, fmt) for d in result.get("files", [])]
    tail = {k: result[k] for k in ("omitted", "notes") if result.get(k)}
    if tail:
        if fmt == "md":
            from sofia.output import markdown

            parts.append(markdown.render(tail))
        else:
            from sofia.output import toon

            parts.append(toon.render(tail))
    return "\n".join(parts)


def _comment(document: dict[str, Any]) -> str:
    record = language(str(document.get("lang") or ""))
    return record.comment if record is not None else "//"


def slice_text(result: dict[str, Any]) -> str:
    """Slice mode as plain source: `// --- <qname> (<path>:<line>-<end_line>) ---` before each slice
    (the language's line comment: `#` for Python and Ruby), misses as marker lines, the
    whole-file case under one header, notes last."""
    documents = result["files"]
    document = documents[0]
    mark = _comment(document)
    blocks: list[str] = []
    if document.get("mode") == "slice":
        for each in documents:
            sign = _comment(each)
            for piece in each["slices"]:
                head = (
                    f"{sign} --- {piece['symbol']} ({each['path']}:{piece['line']}-{piece['end_line']}) ---\n"
                )
                blocks.append(head + with_newline(piece["text"]))
    else:
        why = reason_text(document).split(":")[0]
        names = ", ".join(document.get("symbols", []))
        blocks.append(
            f"{mark} --- {document['path']} (whole file, {why}; has {names}) ---\n"
            + with_newline(document["content"])
        )
    misses = [
        f"{mark} --- {m['symbol']}: not found{'; close: ' + m['close'] if m['close'] else ''} ---\n"
        for m in [*document.get("missing", []), *result.get("missing", [])]
    ]
    if misses:
        blocks.append("".join(misses))
    notes = "".join(
        f"{mark} note: {n}\n" for n in result.get("notes", []) if not n.startswith(WHOLE_FILE_NOTE)
    )
    if notes:
        blocks.append(notes)
    return "\n".join(blocks)
