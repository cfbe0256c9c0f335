"""`refs`: where a symbol is defined and every place that uses it, with no index (docs/refs.md).

ripgrep's word search on each name's last segment (grep's engine) gives the candidate files and
the exact textual totals; only those files are parsed, and every occurrence is classified on its
syntax tree (`sofia.syntax.uses`). `provider` holds the input model and `run`; the search, the
matching of uses to the requested names and the result's shape live in the other modules. The
package itself imports nothing, so `head_start` can start ripgrep before pydantic is imported.
"""
