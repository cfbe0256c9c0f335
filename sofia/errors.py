"""sofia's one exception hierarchy, the one way an error message quotes what the caller sent, and
the one way a message names a parameter.

    Exception
    ├── SofiaError                    raised on purpose; each edge answers it
    │   ├── ProviderError             the caller can fix it: CLI exit 1, an MCP isError result
    │   │   ├── ArgumentError         ... about the arguments alone: CLI exit 2 (a usage error)
    │   │   ├── changed.gitdiff.GitFailed        git refused the diff; git's own words
    │   │   └── github.gh.GhUnavailable          gh is missing or not logged in
    │   ├── UsageError                a bad command line or setting: CLI exit 2, sf mcp will not start
    │   └── DeadlineExceeded          the call's deadline passed inside a provider
    │
    │   Internal: raised and caught inside sofia, never shown as they are. Each derives from the
    │   builtin its catchers already take (an OSError of any read, a ValueError of any parse), so
    │   a handler written for the builtin keeps working; where it is caught it becomes a
    │   ProviderError, a note naming the file, or a fallback. They stay outside SofiaError so that
    │   an `except SofiaError` at an edge never answers one as the caller's mistake by accident.
    ├── ValueError
    │   ├── runtime.globs.GlobError           a malformed pattern: code's note, vue's "not followed"
    │   ├── composer.manifest.ManifestError   an unusable composer.json: a row's error, with its line
    │   ├── syntax.lookup.BadName             a name that cannot be looked up: a ProviderError
    │   └── cli.configedit.ConfigError        a client's file that does not parse: left untouched
    ├── OSError
    │   ├── runtime.files.NotRegular          a FIFO, device or directory where a file was named
    │   ├── FileNotFoundError
    │   │   └── runtime.proc.ProgramNotFound  git, rg, gh, php not installed: a ProviderError
    │   └── TimeoutError
    │       └── runtime.proc.ProgramTimeout   a program ran past its timeout (group killed)
    └── syntax.grammars.ParseUnavailable      no tree for a source: raw text or no symbols instead
        ├── ParseTooLarge, ParseTimeout
        └── LanguageUnsupported

Private control flow never leaves the code that raises it: vue's evaluator's `Return`, `Break`
and `Continue` (`vue.statements`); a worker's `_Interrupt` (a BaseException, so no provider's
`except Exception` swallows it) and its `_SoftDeadline` and `_Cancelled`; Packagist's `_TooLarge`.
`tests/house/test_errors.py` keeps this drawing complete.

Every layer imports from here (it imports nothing of sofia), so a lower layer (`runtime`) never
reaches up into `providers` for an exception type.

A message that tells the caller what to pass never spells the parameter itself: the MCP caller
writes `regex=true`, the person at the terminal types `--regex`. The provider writes
`param("regex", True)` (a tool: `tool("cc_ls")`), which puts a marked reference in the text, and
each edge renders every reference in its caller's language before anyone sees the text (`render`,
`render_all`, `ProviderError.text`): the MCP server with `PARAMETERS` (`regex=true`, `cc_ls`), the
CLI with the flags its parser was built from (`sofia.cli.spelling`: `--regex`, `sf cc ls`). The
marks are Unicode noncharacters, which no text sofia reads carries, so content is never mistaken
for a reference.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

QUOTE_LIMIT = 200
"""Characters of one input value an error message may quote."""
MESSAGE_LIMIT = 2000
"""Characters of a whole message or hint, whatever it quotes: the last line of defence."""

OPEN, SEPARATOR, CLOSE, TOOL = "\ufdd0", "\ufdd1", "\ufdd2", "\ufdd3"
"""The marks of a reference: `OPEN name [SEPARATOR value] CLOSE` for a parameter, `OPEN TOOL name
CLOSE` for a tool. Noncharacters: reserved for a program's internal use, they occur in no file,
no transcript and no caller's input."""
SOME = "…"
"""The value of `param(name, ...)`: a value of the caller's choosing."""
SOME_LIST = "[…]"
"""The value of `param(name, [...])`: values of the caller's choosing (a list parameter)."""


@cache
def _reference() -> re.Pattern[str]:
    """A complete reference (compiled on first use: most runs of `sf` never render one)."""
    return re.compile(
        f"{OPEN}({TOOL})?([a-z][a-z0-9_]*)(?:{SEPARATOR}([^{OPEN}{SEPARATOR}{CLOSE}{TOOL}]*))?{CLOSE}"
    )


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`value` as an error message may show it: whole when short, else its head and its full length.

    `quote("x" * 50_000)` is `'xxx…' (50,000 characters)`: a 50 MB path never becomes a 50 MB error.
    """
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def bounded(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text` cut to `limit` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    if head.rfind(OPEN) > head.rfind(CLOSE):  # never half a parameter reference
        head = head[: head.rfind(OPEN)]
    return f"{head}… (message cut: {len(text):,} characters)"


def did_you_mean(value: str, choices: Iterable[str]) -> str:
    """`did you mean cursor?` naming the choices closest to a mistyped `value`, or ""."""
    import difflib

    known = list(dict.fromkeys(str(choice) for choice in choices))
    lowered = {choice.lower(): choice for choice in known}
    close = difflib.get_close_matches(value.lower(), list(lowered), n=3, cutoff=0.6)
    prefixed = [c for c in lowered if value and c.startswith(value.lower()) and c not in close]
    named = [lowered[c] for c in [*close, *prefixed][:3]]
    return f"did you mean {' or '.join(named)}?" if named else ""


def not_a_choice(value: str, choices: Iterable[str], shown: str = "") -> str:
    """The one wording for a value outside a fixed set: `unknown 'cursr'; did you mean cursor?
    (one of: claude-code, cursor, vscode)`; `shown` is the value as the caller's edge shows it
    (JSON over MCP), else it is quoted here."""
    known = list(dict.fromkeys(str(choice) for choice in choices))
    guess = did_you_mean(value, known)
    listed = "one of: " + ", ".join(choice or '""' for choice in known)
    return f"unknown {shown or repr(quote(value, 60))}; " + (f"{guess} ({listed})" if guess else listed)


def unknown_choice(what: str, value: str, choices: Iterable[str]) -> str:
    """`not_a_choice` about the option `what`: `--client: unknown 'cursr'; did you mean cursor? …`."""
    return f"{what}: {not_a_choice(value, choices)}"


# -- parameter references ---------------------------------------------------------------------------


class _Mention:
    """The value of `param(name)`: the parameter itself, no value."""

    def __repr__(self) -> str:
        return "MENTION"


MENTION: Any = _Mention()


def param(name: str, value: Any = MENTION) -> str:
    """A reference to the parameter `name` for a message; every edge spells it for its caller.

    * `param("exts")` names the parameter: `exts` over MCP, `--ext` in the CLI;
    * `param("root", ...)` asks for a value of the caller's choosing: `root=…`, `--root DIR`;
    * `param("paths", [...])` the same for a list: `paths=[…]`, `-- PATH...`;
    * `param("limit", 0)`, `param("regex", True)`, `param("scope", "repo")` a given value:
      `limit=0`, `regex=true`, `scope="repo"` over MCP; `--limit 0`, `--regex`, `--scope repo`.
    """
    _check_name(name)
    if value is MENTION:
        return f"{OPEN}{name}{CLOSE}"
    if value is Ellipsis:
        text = SOME
    elif isinstance(value, list) and len(value) == 1 and value[0] is Ellipsis:
        text = SOME_LIST
    else:
        import json

        text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return f"{OPEN}{name}{SEPARATOR}{text}{CLOSE}"


def tool(name: str) -> str:
    """A reference to the tool `name` (its MCP name, `cc_ls`) for a message: `cc_ls` over MCP,
    `sf cc ls` in the CLI."""
    _check_name(name)
    return f"{OPEN}{TOOL}{name}{CLOSE}"


def _check_name(name: str) -> None:
    """A name no edge could spell would reach the caller as raw marks: refuse it where it is written."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ValueError(f"not a parameter or tool name: {name!r}")


class Spelling:
    """How an edge spells references. This one is the MCP caller's: `regex=true`, `cc_ls`; it is
    also the plain spelling an edge falls back to for a name it does not know."""

    def parameter(self, name: str, value: Any) -> str:
        """`value` is `MENTION`, `...` (a value of the caller's choosing), `[...]` (values of the
        caller's choosing) or the value itself."""
        return as_parameter(name, value)

    def tool(self, name: str) -> str:
        return name


PARAMETERS = Spelling()
"""The MCP server's spelling."""


def _value(text: str | None) -> Any:
    if text is None:
        return MENTION
    if text == SOME:
        return Ellipsis
    if text == SOME_LIST:
        return [Ellipsis]
    import json

    return json.loads(text)


def _spelled(found: re.Match[str], spell: Spelling) -> str:
    is_tool, name, text = found[1], found[2], found[3]
    if is_tool:
        return found[0] if text is not None else spell.tool(name)
    try:
        value = _value(text)
    except ValueError:  # not written by `param`: leave it as it is
        return found[0]
    return spell.parameter(name, value)


def as_parameter(name: str, value: Any) -> str:
    """The parameter spelling: `exts`, `root=…`, `paths=[…]`, `limit=0`, `regex=true`, `scope="repo"`."""
    if value is MENTION:
        return name
    if value is Ellipsis:
        return f"{name}={SOME}"
    if isinstance(value, list) and len(value) == 1 and value[0] is Ellipsis:
        return f"{name}={SOME_LIST}"
    import json

    return f"{name}={json.dumps(value, ensure_ascii=False, separators=(',', ':'))}"


def render(text: str, spell: Spelling = PARAMETERS) -> str:
    """`text` with every reference spelled by `spell`."""
    if OPEN not in text:
        return text
    return _reference().sub(lambda found: _spelled(found, spell), text)


def render_all(obj: Any, spell: Spelling = PARAMETERS) -> Any:
    """`obj` (a result: dicts, lists, tuples, strings) with every reference in every string spelled
    by `spell`. Nothing is changed in place (a provider may hand out a constant or a cached value):
    a container holding a reference is copied, every other one is returned as it is."""
    if isinstance(obj, str):
        return render(obj, spell)
    if isinstance(obj, dict):
        items = {key: render_all(item, spell) for key, item in obj.items()}
        same = all(items[key] is item for key, item in obj.items())
        return obj if same else items
    if isinstance(obj, list | tuple):
        rendered = [render_all(item, spell) for item in obj]
        if all(new is old for new, old in zip(rendered, obj, strict=True)):
            return obj
        return rendered if isinstance(obj, list) else tuple(rendered)
    return obj


class SofiaError(Exception):
    """Base of every error sofia raises on purpose."""


class ProviderError(SofiaError):
    """A problem the user can fix: `message` names it and the offending value, `hint` says how;
    both may name parameters with `param` (kept as references until an edge spells them)."""

    def __init__(self, message: str, hint: str = "") -> None:
        message, hint = bounded(message), bounded(hint)
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.text(PARAMETERS)

    def text(self, spell: Spelling) -> str:
        """The message and its hint, each parameter reference spelled by `spell`; `str()` gives
        the parameter spelling (`regex=true`), the CLI passes its flag spelling (`--regex`)."""
        text = f"{self.message} ({self.hint})" if self.hint else self.message
        return render(text, spell)


class ArgumentError(ProviderError):
    """A ProviderError about the arguments alone, whatever the disk holds (too many patterns, an
    empty or malformed name): a provider's own check where the input model cannot say it. The CLI
    answers it as the usage error it is (exit 2, like a refusal of the input model); over MCP it is
    an `isError` result like every ProviderError."""


class UsageError(SofiaError):
    """Bad command-line input or setting: the command exits with status 2."""

    def __init__(self, message: str) -> None:
        super().__init__(bounded(message))


class DeadlineExceeded(SofiaError):
    """Raised inside a provider when its call deadline has passed."""
