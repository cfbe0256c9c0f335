"""What the tests over every served tool call and check for `grep` (see tests/served.py)."""

from __future__ import annotations

from tests.served import Case, Row

ROWS = {
    "grep": Row({"patterns": ["caption"], "root": "app"}, ("patterns",), lambda p: "Widget::caption" in p),
}
CASES = [
    Case(
        "grep",
        {"patterns": ["("], "regex": True},
        ["grep", "(", "--regex"],
        "(regex=true uses ripgrep syntax; look-around and backreferences are unsupported; drop regex=true",
        "(--regex uses ripgrep syntax; look-around and backreferences are unsupported; drop --regex",
        error=True,
    ),
    Case(
        "grep",
        {"patterns": ["needle"], "max_per_pattern": 1, "root": "repo"},
        ["grep", "needle", "--max-per-pattern", "1", "--root", "repo"],
        "narrow with exts, root or word=true, or raise max_per_pattern",
        "narrow with --ext, --root or --word, or raise --max-per-pattern",
    ),
    Case(
        "grep",
        {"patterns": ["x"], "ignore_dirs": ["a/b"]},
        ["grep", "x", "--ignore-dir", "a/b"],
        "ignore_dirs takes directory names, not paths or globs",
        "--ignore-dir takes directory names, not paths or globs",
        error=True,
    ),
]
