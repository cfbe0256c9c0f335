"""The query-driven languages: one module per language holding its `SPEC`, and its query file
beside it (docs/adding-a-language.md). Nothing here is imported until a file of that language is
parsed."""
