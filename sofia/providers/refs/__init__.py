"""`refs`: where a symbol is defined and every place that uses it, with no index (docs/refs.md).

ripgrep's word search on each name's last segment (grep's engine, through its public face) gives
the candidate files and the exact textual totals; only those files are parsed, and every
occurrence is classified on its syntax tree (`sofia.syntax.uses`). `provider.run` runs the stages
in turn: `engine` collects (counts, then `classify` classifies the candidates, `bound` samples a
name in very many files), `match` matches each name's occurrences, `shape` fits the result.
`model` holds the types the stages hand on and `params` the input model, so no stage imports
another's caller. The package itself imports nothing, so `head_start` can start ripgrep before
pydantic is imported.
"""
