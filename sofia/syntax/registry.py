"""The language registry: one record per language sofia reads, holding every fact the engines need
(docs/languages.md, generated from this list, and docs/adding-a-language.md).

The records are plain data: reading them imports no grammar, no tree-sitter and no language module,
so `sf --help` and listing commands stay cheap. The engines (`sofia.syntax.parse`, the `code`
summarisers, the use classifiers in `sofia.syntax.uses`) look a language up here and import what
the record names on first use; no engine tests a language's name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Grammar:
    """A tree-sitter grammar wheel and how to load it."""

    name: str
    distribution: str
    """The PyPI distribution (a dependency in pyproject.toml, listed by `sf doctor`)."""
    module: str
    function: str = "language"
    """The module function returning the language pointer."""


@dataclass(frozen=True)
class Language:
    """Everything the engines need to know about one language (docs/adding-a-language.md)."""

    name: str
    """The `lang` every tool prints."""
    title: str
    extensions: tuple[str, ...]
    """Lower case, with the dot; matched case-insensitively."""
    grammar: str
    """The Grammar parsing it (a Vue file's scripts use the grammars of their `lang`)."""
    symbols: str = "sofia.syntax.queried"
    """The module whose `extract(source, lang)` builds the SymbolTree."""
    summary: str = "queried"
    """`sofia.providers.code.summary_<summary>` summarises a file."""
    uses: str = "queried"
    """`sofia.syntax.uses.<uses>` classifies a name's occurrences for refs."""
    spec: str = ""
    """For query-driven languages: the module holding its `SPEC` (queries and node tables)."""
    separator: str = "."
    """Between an owner and a member in a qname (`Class::method` for PHP, C++, Rust and Ruby)."""
    sniff: str = ""
    """`module:function(source) -> lang name` deciding the language from content for extensions
    two languages share (`.h`: C or C++)."""
    sniffed: tuple[str, ...] = ()
    """The extensions `sniff` decides (`.h`); the record's other extensions are always this
    language (a `.c` file is C)."""
    links: str = ""
    """The languages whose code calls one another's by name, one word for each group (`jvm` for
    Java, Kotlin and Scala; `c` for C and C++; `js` for JavaScript, TypeScript and Vue); empty:
    the language alone. refs never takes a use for a definition in a language it cannot call."""
    constructs_by_call: bool = False
    """A call of a class's name makes an instance (`Foo()` in Python, Kotlin, Swift)."""
    comment: str = "//"
    """What starts a line comment: the marker of `code`'s slice headers (`# --- Foo#bar ...`)."""
    gives: tuple[str, ...] = ()
    """What each tool gives in this language, for docs/languages.md."""
    limits: tuple[str, ...] = ()
    """Known limits, for docs/languages.md."""


GRAMMARS: tuple[Grammar, ...] = (
    Grammar("php", "tree-sitter-php", "tree_sitter_php", "language_php"),
    Grammar("go", "tree-sitter-go", "tree_sitter_go"),
    Grammar("python", "tree-sitter-python", "tree_sitter_python"),
    Grammar("javascript", "tree-sitter-javascript", "tree_sitter_javascript"),
    Grammar("typescript", "tree-sitter-typescript", "tree_sitter_typescript", "language_typescript"),
    Grammar("tsx", "tree-sitter-typescript", "tree_sitter_typescript", "language_tsx"),
    Grammar("html", "tree-sitter-html", "tree_sitter_html"),
    Grammar("java", "tree-sitter-java", "tree_sitter_java"),
    Grammar("kotlin", "tree-sitter-kotlin", "tree_sitter_kotlin"),
    Grammar("csharp", "tree-sitter-c-sharp", "tree_sitter_c_sharp"),
    Grammar("c", "tree-sitter-c", "tree_sitter_c"),
    Grammar("cpp", "tree-sitter-cpp", "tree_sitter_cpp"),
    Grammar("rust", "tree-sitter-rust", "tree_sitter_rust"),
    Grammar("ruby", "tree-sitter-ruby", "tree_sitter_ruby"),
    Grammar("swift", "tree-sitter-swift", "tree_sitter_swift"),
    Grammar("scala", "tree-sitter-scala", "tree_sitter_scala"),
)
"""Every grammar sofia loads, in the order `sf doctor` lists them."""

_SUMMARY = "summary, slices of symbols (doc comments and annotations included), find by name"

LANGUAGES: tuple[Language, ...] = (
    Language(
        "php",
        "PHP",
        (".php",),
        "php",
        symbols="sofia.syntax.php",
        summary="php",
        uses="php",
        separator="::",
        gives=(_SUMMARY + "; `--api` surface", "definitions, uses by kind, `use` imports and aliases"),
    ),
    Language(
        "go",
        "Go",
        (".go",),
        "go",
        symbols="sofia.syntax.go",
        summary="go",
        uses="go",
        gives=(_SUMMARY, "definitions, uses by kind, package-qualified names, typed receivers"),
    ),
    Language(
        "python",
        "Python",
        (".py", ".pyi"),
        "python",
        symbols="sofia.syntax.python",
        summary="python",
        uses="python",
        constructs_by_call=True,
        comment="#",
        gives=(_SUMMARY, "definitions, uses by kind, imports and aliases"),
    ),
    Language(
        "js",
        "JavaScript",
        (".js", ".mjs", ".cjs", ".jsx"),
        "javascript",
        links="js",
        symbols="sofia.syntax.js",
        summary="ts",
        uses="js",
        gives=(_SUMMARY, "definitions, uses by kind, imports and aliases"),
    ),
    Language(
        "ts",
        "TypeScript",
        (".ts", ".mts", ".cts"),
        "typescript",
        links="js",
        symbols="sofia.syntax.js",
        summary="ts",
        uses="js",
        gives=(_SUMMARY, "definitions, uses by kind, imports and aliases"),
    ),
    Language(
        "tsx",
        "TSX",
        (".tsx",),
        "tsx",
        links="js",
        symbols="sofia.syntax.js",
        summary="ts",
        uses="js",
        gives=(_SUMMARY, "definitions, uses by kind, imports and aliases"),
    ),
    Language(
        "vue",
        "Vue",
        (".vue",),
        "html",
        links="js",
        symbols="sofia.syntax.vue",
        summary="vue",
        uses="vue",
        gives=(
            _SUMMARY + "; props, emits, `<template>`/`<script>`/`<style>`",
            "uses in scripts and component tags",
        ),
    ),
    Language(
        "java",
        "Java",
        (".java",),
        "java",
        links="jvm",
        spec="sofia.syntax.languages.java",
        gives=(
            _SUMMARY,
            "definitions, uses by kind, imports, typed receivers; a type named without an import is "
            "its package's where the package declares one",
        ),
        limits=("overloads share one qname; a call is matched to them by name, not by argument types",),
    ),
    Language(
        "kotlin",
        "Kotlin",
        (".kt", ".kts"),
        "kotlin",
        links="jvm",
        spec="sofia.syntax.languages.kotlin",
        constructs_by_call=True,
        gives=(
            _SUMMARY + "; objects are classes, a companion object too (`Foo.Companion.bar`, found as "
            "`Foo.bar` too), an extension its receiver's (`String.slug`), properties from bodies and "
            "primary constructors",
            "definitions, uses by kind (`Foo()` is new, `: Base()` extends, `: Iface` implements), "
            "imports and `as` aliases, receivers typed by `this`, properties, parameters and "
            "`val x = Foo()`; a companion's members called bare in its class and nested classes, as "
            "`Foo.bar()` and as `Foo.Companion.bar()`, asked for either way; a name used without an "
            "import is its package's where the package declares one",
        ),
        limits=(
            "overloads share one qname, as do secondary constructors (`Foo.constructor`); a call "
            "is matched to them by name, not by argument types",
            "tree-sitter-kotlin wants a separator before a one-line body's `}` (`class Store { fun "
            "save() = 1 }`): the blank there is read as a `;`, except after a comment, whose "
            "one-line body still reads as an error (counted in `parse_errors`)",
        ),
    ),
    Language(
        "csharp",
        "C#",
        (".cs",),
        "csharp",
        spec="sofia.syntax.languages.csharp",
        gives=(
            _SUMMARY + "; properties, events and indexers (`Foo.this`), operators (`Foo.operator +`), "
            "destructors (`Foo.~Foo`), records and delegates; the namespace is the file's, not part "
            "of qnames",
            "definitions, uses by kind (`new`, base lists as extends/implements), `using` aliases, "
            "receivers typed by `this`, fields, properties, parameters, locals and `var x = new T()`; a "
            "type named without a `using` is its namespace's, or an enclosing namespace's, where "
            "one declares it",
        ),
        limits=(
            "overloads share one qname, as do constructors (`Foo.Foo`); a call is matched to "
            "them by name, not by argument types",
            "a base list does not say which entry is the class: the first is `extends` unless "
            "named like an interface (`IFoo`), the others `implements`",
            "a type brought in by `using Namespace;` is matched by name: its uses are `name` "
            "matches unless an alias, the file's own declarations or a typed receiver tell",
            "only the first namespace of a file is its `namespace`",
            "preprocessor directives inside a declaration (`#if` in a parameter list) can break the "
            "grammar's reading of it: the declaration may have no row (counted in `parse_errors`)",
        ),
    ),
    Language(
        "c",
        "C",
        (".c", ".h"),
        "c",
        links="c",
        spec="sofia.syntax.languages.c",
        sniff="sofia.syntax.languages.c:header_language",
        sniffed=(".h",),
        gives=(
            _SUMMARY + "; prototypes, functions a macro defines (`SYSCALL_DEFINE3(open, ...) {`), "
            "`#define`s as constants and macros, typedefs; a `.h` is C++ when its content is",
            "definitions (prototypes apart), uses by kind, members on receivers typed by their "
            "declarations (`struct foo *p; p->bar`)",
        ),
        limits=(
            "the preprocessor is not run: every `#if` branch is read, a macro's body is text (a name "
            "in it is a `reference`), a macro that expands to declarations (`DEFINE_MUTEX(m);`) reads "
            "as a call",
            "attribute macros the grammar cannot know are read as blanks of the same length: the "
            "kernel's and glibc's by name (`__init`, `__user`), a project's own (upper case with an "
            "underscore) by where they stand",
            "a region the grammar cannot parse (an `#if` inside an expression) may hide declarations "
            "in it (counted in `parse_errors`); the file-level functions after it are read again",
            "C has no imports: a call of a function defined in another file is a `name` match",
        ),
    ),
    Language(
        "cpp",
        "C++",
        (".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".tpp"),
        "cpp",
        links="c",
        spec="sofia.syntax.languages.cpp",
        separator="::",
        gives=(
            _SUMMARY + "; namespaces qualify members (`fmt::detail::foo`), out-of-line definitions "
            "belong to the class they name (`Foo::bar`, `Foo::~Foo`), templates slice from their "
            "`template` line, visibility from access sections",
            "definitions, uses by kind (`new`, bases as extends), `using ns::X` imports and namespace "
            "aliases, receivers typed by locals, parameters (`Foo&`, `Foo*`), fields and `this`, "
            "`Foo::bar()` qualified calls; a field the class's header declares, read in the headers "
            "the `.cpp` includes; smart pointers' `->`, containers' elements (`v[i]`, `v.back()`, an "
            "`auto` range-for variable) and named casts",
        ),
        limits=(
            "overloads share one qname; a call is matched to them by name, not by argument types",
            "a qualified out-of-line definition is a `method` (`void ns::f() {}`): the grammar does not "
            "tell a namespace from a class",
            "templates are not instantiated, and a return type is read only where the file declares "
            "the function: a call on a dependent type, or on the result of a function declared in "
            "another file (`make().area()`), is a `name` match",
            "what C's limits say of the preprocessor holds here too",
        ),
    ),
    Language(
        "rust",
        "Rust",
        (".rs",),
        "rust",
        spec="sofia.syntax.languages.rust",
        separator="::",
        constructs_by_call=True,
        gives=(
            _SUMMARY + "; `impl` blocks qualify members by their type (`Foo::new`), traits an `impl` "
            "beside a type implements",
            "definitions, uses by kind (`Foo { .. }` is new, `impl Trait for Foo` implements), `use` "
            "aliases, receivers typed by `self`/`Self`, typed `let`s and parameters",
        ),
        limits=(
            "a macro call's arguments are tokens: `x.m()` and `T::f()` there are calls on `x` and `T`, "
            "a longer chain's receiver is unknown",
            "an imported free name is a name match: `pub use` may make any path name it",
        ),
    ),
    Language(
        "ruby",
        "Ruby",
        (".rb", ".rake", ".gemspec"),
        "ruby",
        spec="sofia.syntax.languages.ruby",
        separator="::",
        comment="#",
        gives=(
            _SUMMARY + "; `Foo::Bar#baz` instance and `Foo::Bar.baz` singleton methods, `attr_*` "
            "properties, mixins, visibility sections",
            "definitions, uses by kind (`Foo.new` is new, `< Base` extends, `include M` implements), "
            "receivers typed by `self`, by locals made with `Foo.new` and by instance variables a method "
            "assigns one (`@repo = Repo.new`); a constant is looked up through the lexical modules "
            "out to the top level (`Invoice` in `module Billing` is `Billing::Invoice` where "
            "Billing defines one)",
        ),
        limits=(
            "methods made at run time (`define_method`, `class_eval` strings) are not seen",
            "a constant is resolved within its file only; `require` binds no names",
        ),
    ),
    Language(
        "swift",
        "Swift",
        (".swift",),
        "swift",
        spec="sofia.syntax.languages.swift",
        constructs_by_call=True,
        gives=(
            "summary, slices (attributes and `///` docs included), find by name; extensions qualify members",
            "definitions, uses by kind, imports, argument labels left out, typed receivers",
        ),
        limits=(
            "a call `Foo()` of a type is `new`; which initialiser it reaches is not resolved",
            "the grammar cannot read an `#if` among a `switch`'s cases: where that undoes the declarations"
            " around it, the function's body is read without what it holds (named among the regions not"
            " followed, counted in `parse_errors`), the rest of the file as usual",
        ),
    ),
    Language(
        "scala",
        "Scala",
        (".scala", ".sc"),
        "scala",
        links="jvm",
        spec="sofia.syntax.languages.scala",
        constructs_by_call=True,
        gives=(
            _SUMMARY + "; objects are classes (`object` among the mods) whose members are "
            "`Foo.bar` as a class's are, case classes' parameters and `val`/`var` ones as fields, "
            "vals and vars of bodies as symbols, Scala 3 enums, extensions owned by their type, "
            "chained package clauses as one package",
            "definitions, uses by kind (`new`, `Foo(...)` is new, `extends` extends and `with` "
            "implements), imports with renames (`{A => B}`) followed, receivers typed by `this`, "
            "vals, parameters, `val x = new Foo` and a companion object's name; a name used "
            "without an import is its package's where the package declares one",
        ),
        limits=(
            "a class and its companion object share their name: a member both declare shares one "
            "qname, as overloads do; a call is matched to them by name, not by argument types",
            "implicits, givens and `apply` are not resolved: `x.foo` through an implicit "
            "conversion, an infix call (`a foo b`) and a call without parentheses are read as "
            "written",
            "the grammar reads a def whose `{` body starts on the line after its `=`, at the "
            "def's own indentation, as a Scala 3 indented block: the def's range runs on to the "
            "end of the block around it",
        ),
    ),
)
"""Every language, in the order docs/languages.md lists them."""

_BY_NAME = {language.name: language for language in LANGUAGES}
_BY_EXTENSION = {extension: language.name for language in LANGUAGES for extension in language.extensions}
_GRAMMAR_BY_NAME = {grammar.name: grammar for grammar in GRAMMARS}

EXTENSIONS: dict[str, str] = dict(_BY_EXTENSION)
"""Every extension read (lower case, with the dot) and the language it is read as by default."""


def language(name: str) -> Language | None:
    """The record of `name`, or None for a language sofia does not read."""
    return _BY_NAME.get(name)


def grammar(name: str) -> Grammar | None:
    return _GRAMMAR_BY_NAME.get(name)


def language_for(path: str | os.PathLike[str]) -> str | None:
    """The language of `path` from its extension (case-insensitive), or None when unsupported."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    return _BY_EXTENSION.get(suffix)


def separator(lang: str) -> str:
    record = _BY_NAME.get(lang)
    return record.separator if record is not None else "."


def links(lang: str) -> str:
    """The group of languages `lang` calls by name (`Language.links`); the language itself alone."""
    record = _BY_NAME.get(lang)
    return (record.links or record.name) if record is not None else lang


def constructs_by_call(lang: str) -> bool:
    record = _BY_NAME.get(lang)
    return record is not None and record.constructs_by_call
