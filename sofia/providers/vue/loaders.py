"""Module loaders resolved to values: Vite's `import.meta.glob`/`globEager` and webpack's
`require.context`, each a map of the files it names (see `globs` for the matching rules)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sofia.providers.vue import globs
from sofia.providers.vue.host import Host
from sofia.providers.vue.modules import Module
from sofia.providers.vue.values import (
    UNDEFINED,
    Array,
    Context,
    FileRef,
    LazyModule,
    Obj,
    ObjectLit,
    Origin,
    Regex,
    Scope,
    Unknown,
)

GLOB_NAMES = {"glob": False, "globEager": True, "globEagerDefault": True}
"""`import.meta` loaders and whether each is eager."""


def vite_glob(ev: Host, method: str, nodes: list[Any], scope: Scope, origin: Origin) -> Any:
    """`import.meta.glob(patterns, options)` (and `globEager*`): an object of the files matched, each
    its module (eager), a loader (lazy), an export (`import:`), or an Unknown for text imports."""
    patterns_value = ev.eval(nodes[0], scope) if nodes else UNDEFINED
    if isinstance(patterns_value, str):
        patterns = [patterns_value]
    elif isinstance(patterns_value, Array) and all(isinstance(p, str) for p in patterns_value.items):
        patterns = list(patterns_value.items)
    else:
        return Unknown(origin, "glob patterns that are not string literals")
    options: dict[str, Any] = {}
    if len(nodes) > 1:
        raw = ev.eval(nodes[1], scope)
        if not isinstance(raw, ObjectLit):
            return Unknown(origin, "glob options that are not an object literal")
        for name in ("eager", "import", "as", "query", "exhaustive", "base"):
            found = ev.property(raw, name)
            if found is not None:
                options[name] = ev.eval(found[1], found[0])
    eager = GLOB_NAMES[method] or options.get("eager") is True
    imported = options.get("import", "default" if method == "globEagerDefault" else "")
    query = options.get("query", "")
    kind = options.get("as", "")
    if isinstance(query, ObjectLit):
        query = "?" + "&".join(ev.keys(query) or ["?"])
    if not all(isinstance(v, str) for v in (imported, kind, query)) or not isinstance(
        options.get("base", ""), str
    ):
        return Unknown(origin, "glob options computed at run time")
    module = scope.module
    try:
        listing = globs.vite_glob(
            patterns,
            module.path,
            ev.loader.root,
            lambda p: alias_pattern(ev, p),
            exhaustive=options.get("exhaustive") is True,
            base=str(options.get("base", "")),
        )
    except globs.GlobError as error:
        return Unknown(origin, f"glob not resolved: {error}")
    _note_listing(ev, listing, origin)
    as_text = kind in ("raw", "url") or any(q in str(query) for q in ("raw", "url"))
    result = Obj(modules=eager and not imported and not as_text)
    name = str(imported) if imported != "*" else ""
    for key, path in listing.entries:
        if as_text:
            value: Any = Unknown(origin, f"{kind or query} import of {ev.loader.rel(path)}")
        elif not eager:
            value = LazyModule(path, name)
        else:
            value = ev.file_value(path, origin)
            if name:
                value = ev.member(value, name, origin)
        result.props[key] = value
    return result


def alias_pattern(ev: Host, pattern: str) -> str | None:
    """The absolute posix form of a pattern or directory starting with an alias, or None."""
    found = ev.loader.aliases.match(pattern)
    if found is None:
        return None
    targets, rest = found
    return (ev.loader.root / targets[0]).resolve().as_posix() + "/" + rest


def require_context(ev: Host, nodes: list[Any], scope: Scope, origin: Origin) -> Any:
    """`require.context(directory, recursive, regex)`: a callable map of the modules it names."""
    args = ev.arguments_of(nodes, scope)
    directory = args[0] if args else UNDEFINED
    recursive = args[1] if len(args) > 1 else True
    regex = args[2] if len(args) > 2 else Regex(r"^\.\/.*$", "")
    if not isinstance(directory, str) or not isinstance(recursive, bool) or not isinstance(regex, Regex):
        return Unknown(origin, "require.context arguments that are not literals")
    module = scope.module
    if directory.startswith("."):
        base = module.path.parent / directory
    else:
        alias = alias_pattern(ev, directory.rstrip("/") + "/")
        if alias is None:
            return Unknown(origin, f"require.context directory not resolved: {directory}")
        base = Path(alias)
    try:
        compiled = globs.js_regex(regex.pattern, regex.flags)
        listing = globs.webpack_context(base, ev.loader.root, recursive, compiled)
    except globs.GlobError as error:
        return Unknown(origin, f"require.context not resolved: {error}")
    _note_listing(ev, listing, origin)
    entries = []
    for key, path in listing.entries:
        target = ev.file_value_module(path)
        if isinstance(target, Module):
            value: Any = ev.namespace(target)
        elif isinstance(target, Path):
            value = FileRef(target)
        else:
            value = Unknown(origin, f"not read: {ev.loader.rel(path)}")
        entries.append((key, value))
    return Context(tuple(entries), origin)


def _note_listing(ev: Host, listing: globs.Listing, origin: Origin) -> None:
    """A loader that listed too much, or matched nothing, is named in the result's notes."""
    if listing.truncated:
        ev.truncated.append(origin)
    if not listing.entries:
        ev.empty.append(origin)
