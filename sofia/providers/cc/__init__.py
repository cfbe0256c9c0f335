"""The Claude Code transcript tools (`cc_*`, docs/cc.md): each tool is a module here, over shared
readers of the projects directory and its JSONL transcripts.

This module is the family's public face for the rest of sofia (`sf doctor` asks where the
transcripts live): other packages import the names in `__all__` from here, never from the
modules below.
"""

from __future__ import annotations

from sofia.providers.cc.location import projects_root

__all__ = ["projects_root"]
