"""Parts every answer shares: its notes, the counts of what was left out, the size of what was read."""

from __future__ import annotations

NOTES = ["str"]
"""What was cut, skipped or not followed, each with its count and how to get the rest."""
OMITTED = {"*": "int"}
"""Present only when something was left out: how many of each list were not shown."""
STATS = {"raw_tok": "int"}
"""The estimated tokens of the files read, against which the answer's own size is compared."""
