"""`sf refs` scored against semantic reference finders (jedi, the TypeScript language service,
go/types, a PHP language server) on real public code installed at bench time."""
