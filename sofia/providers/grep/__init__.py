"""`grep`: every hit of one or more patterns with its enclosing symbol, capped per pattern, with
exact totals (docs/grep.md).

ripgrep is the matching authority: a count phase gives exact per-file totals without streaming
every match, a detail phase reads only the files whose hits are shown. `provider` holds the input
model and `run`; the request, the rg plumbing, text windows, symbols and result shaping live in
the other modules. The package itself imports nothing, so `head_start` can run before pydantic
is imported.
"""
