"""The `symbols` cell: touched names joined `; `, written so that what repeats is written once.

* Consecutive names that share everything up to their last `.` or `::` (the `+`/`-` mark
  included) are written once in shell brace form: `BaseClient.{__init__,auth,build_request}`
  stands for `BaseClient.__init__; BaseClient.auth; BaseClient.build_request`, and
  `+Flask.{run,test}` for `+Flask.run; +Flask.test`.
* In a file that is wholly new (`A`, `?`) every name would carry `+`, in a wholly deleted one
  (`D`) every name `-`: the status already says so, and the marks are left out.
* At most `limit` names, then `(+N more)`; the count is of names, not of brace groups.

git's funcname contexts (free text such as `class Greeter`) are shown as they are, never grouped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

LIMIT = 8
"""Names shown per file."""
SHORT_LIMIT = 3
"""Names shown per file once the result is over budget."""
QNAME = re.compile(r"^([+-]?)(.*(?:::|\.))([^.:,;{}\s]+)$")
"""A mark, an owner ending in its separator, and the last name."""
WHOLE_MARK = {"A": "+", "?": "+", "D": "-"}


def cell(names: Sequence[str], status: str, contexts: bool = False, limit: int = LIMIT) -> str:
    """The cell for `names` of a row with `status`; `contexts` for git's funcname text."""
    shown = list(names[:limit])
    more = len(names) - len(shown)
    if not contexts:
        mark = WHOLE_MARK.get(status, "")
        if mark and shown and all(name.startswith(mark) for name in names):
            shown = [name[1:] for name in shown]
        text = "; ".join(_grouped(shown))
    else:
        text = "; ".join(shown)
    return f"{text} (+{more} more)" if more else text


def _grouped(names: list[str]) -> list[str]:
    groups: list[tuple[str, list[str]]] = []
    for name in names:
        match = QNAME.match(name)
        if match is None:
            groups.append(("", [name]))
            continue
        head = match.group(1) + match.group(2)
        if groups and groups[-1][0] == head:
            groups[-1][1].append(match.group(3))
        else:
            groups.append((head, [match.group(3)]))
    out = []
    for head, leaves in groups:
        if not head:
            out.append(leaves[0])
        elif len(leaves) == 1:
            out.append(head + leaves[0])
        else:
            out.append(head + "{" + ",".join(leaves) + "}")
    return out


__all__ = ["LIMIT", "SHORT_LIMIT", "cell"]
