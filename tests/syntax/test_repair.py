"""A function body the grammar cannot read, whose error swallows the declarations around it, is
left out of the whole parse (`bodies.repaired`): slices, find-by-name, grep's chain, refs'
definitions and changed see the file's declarations again, the body is counted and named, and
refs still classifies what the body holds on the first parse."""

from __future__ import annotations

from pathlib import Path

import pytest

from sofia.providers.contract import ProviderError
from sofia.syntax import bodies, parse
from tests.code.conftest import code, slice_text
from tests.grep.conftest import every_hit, rows
from tests.refs.conftest import entry, refs

# tree-sitter-swift cannot read an `#if` among a switch's cases; its recovery then takes the rest
# of the file (both types) into one ERROR.
SWALLOWING = """\
import Foundation

/// One app's context.
public class AppContext: NSObject {
  func handle(_ notification: Notification) {
    switch notification.name {
    #if os(iOS)
    case .willEnterForeground:
      registry.post(.foreground)  // the Registry hears of it
    #endif
    default:
      return
    }
  }

  public func names(provider: Registry) -> [String] {
    return provider.bundles.flatMap { [$0, identifier($0)] }.compactMap { name in
      if Thread.isMainThread {
        return name
      }
      return nil
    }
  }
}

public struct Registry {
  let bundles: [String]
}
"""
HANDLE_BODY = (SWALLOWING.index("{", SWALLOWING.index("func handle")) + 1, SWALLOWING.index("\n  }\n") + 3)

# The same `#if`, but the recovery stays inside the body: nothing to repair.
CONTAINED = """\
public class Context {
  func handle(_ note: Notification) {
    switch note.name {
    #if os(iOS)
    case .a:
      post(.foreground)
    #endif
    default:
      return
    }
  }

  func register(_ registry: Registry) -> Bool { registry.add(self) }
}
"""


def qnames(source: str) -> list[str]:
    return [symbol.qname for symbol in parse(source.encode(), "swift").walk()]


def test_the_body_that_swallowed_the_file_is_left_out_and_its_declarations_are_back() -> None:
    tree = parse(SWALLOWING.encode(), "swift")
    assert [s.qname for s in tree.walk()] == [
        "AppContext",
        "AppContext.handle",
        "AppContext.names",
        "Registry",
    ]
    assert tree.unparsed == [HANDLE_BODY]
    assert tree.parse_errors == 1  # the body left out
    handle = next(s for s in tree.walk() if s.qname == "AppContext.handle")
    assert (handle.line, handle.end_line) == (5, 14)


def test_an_error_the_grammar_kept_inside_its_body_changes_nothing() -> None:
    tree = parse(CONTAINED.encode(), "swift")
    assert tree.unparsed == []
    assert tree.parse_errors > 0
    assert "Context.register" in [s.qname for s in tree.walk()]


def test_bisection_finds_the_body_when_the_errors_point_nowhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the innermost errors lie in no body (the recovery's errors elsewhere), every body is
    left out, then each put back that parses: only the one the grammar cannot read stays out."""
    monkeypatch.setattr(bodies, "error_leaves", lambda root, limit=256: [])
    tree = parse(SWALLOWING.encode(), "swift")
    assert tree.unparsed == [HANDLE_BODY]
    assert "Registry" in [s.qname for s in tree.walk()]


def test_a_slice_and_a_lookup_see_the_declarations(tmp_path: Path) -> None:
    (tmp_path / "AppContext.swift").write_text(SWALLOWING)
    text = slice_text(code(tmp_path, "AppContext.swift", symbols=["AppContext.names"]))
    assert "public func names(provider: Registry) -> [String] {" in text
    assert "return nil\n    }\n  }\n" in text
    with pytest.raises(ProviderError) as missing:
        code(tmp_path, "AppContext.swift", symbols=["AppContext.missing"])
    hint = str(missing.value.hint)
    assert "AppContext.swift:5 (body not parsed, to line 14) func handle" in hint


def test_refs_find_the_definitions_and_still_classify_inside_the_body(tmp_path: Path) -> None:
    (tmp_path / "AppContext.swift").write_text(SWALLOWING)
    registry = entry(refs(tmp_path, "Registry"), "Registry")
    assert registry["totals"]["definitions"] == 1
    assert registry["totals"]["in_comments"] == 1  # the comment inside the body left out
    assert registry["kinds"] == {"type": 1}  # provider: Registry
    context = entry(refs(tmp_path, "AppContext"), "AppContext")
    assert context["totals"]["definitions"] == 1


def test_grep_names_the_symbols_after_the_body(tmp_path: Path) -> None:
    (tmp_path / "AppContext.swift").write_text(SWALLOWING)
    found = {(hit["line"], hit["symbol"]) for hit in rows(every_hit(tmp_path, "bundles"))}
    assert found == {(17, "AppContext.names"), (27, "Registry")}


def test_a_lookup_under_a_directory_names_the_body_that_holds_the_name(tmp_path: Path) -> None:
    (tmp_path / "AppContext.swift").write_text(SWALLOWING)
    with pytest.raises(ProviderError) as missing:
        code(tmp_path, ".", symbols=["willEnterForeground"])
    assert "AppContext.swift:5 in a body not parsed (lines 5-14)" in str(missing.value)
    found = code(tmp_path, ".", symbols=["Registry"])
    assert "not followed" not in " ".join(found.get("notes", []))


# Each `#ifdef` branch is unbalanced on its own (`} else {` opens what the second one closes):
# tree-sitter-cpp ends the first body at the second function's brace and reads that function
# inside the first.
RUNNING_ON = """\
namespace jobs {

Runner* Runner::Create(const std::string& name, Job* job) {
  #ifdef WITH_TRACE
  if (job->mode == std::string("trace") &&
      job->level != std::string("off")) {
    if (name == std::string("step")) {
      return new TracedRunner(job);
    }
  } else {
  #endif  // WITH_TRACE
    if (name == std::string("step")) {
      return new Runner(job);
    }
  #ifdef WITH_TRACE
  }
  #endif  // WITH_TRACE
  Log::Fatal("Unknown runner: %s", name.c_str());
  return nullptr;
}

Runner* Runner::Create(const std::string& line) {
  auto words = text::Split(line.c_str(), ' ');
  auto name = words[0];
  if (name == std::string("step")) {
    return new Runner(words);
  } else if (name == std::string("batch")) {
    return new BatchRunner(words);
  } else if (name == std::string("idle")) {
    return nullptr;
  }
  Log::Fatal("Unknown runner: %s", line.c_str());
  return nullptr;
}

}  // namespace jobs
"""


def test_a_body_the_grammar_read_as_running_on_is_left_out_and_the_next_function_is_its_own() -> None:
    tree = parse(RUNNING_ON.encode(), "cpp")
    placed = [(s.qname, s.line, s.end_line) for s in tree.walk()]
    assert placed == [
        ("jobs", 1, 36),
        ("jobs::Runner::Create", 3, 20),
        ("jobs::Runner::Create", 22, 34),
    ]
    first_body = (RUNNING_ON.index("{", RUNNING_ON.index("Create(")) + 1, RUNNING_ON.index("\n}\n") + 1)
    assert tree.unparsed == [first_body]


def test_a_body_with_an_error_that_still_ends_where_it_should_is_not_left_out() -> None:
    """An error the grammar recovers from inside the body, the body closing at its own brace:
    nothing ran on, nothing is parsed again."""
    source = "int f(void) {\n  int x = ;\n  return x;\n}\n\nint g(void) { return 1; }\n"
    tree = parse(source.encode(), "c")
    assert tree.parse_errors > 0
    assert tree.unparsed == []
    assert [(s.qname, s.line, s.end_line) for s in tree.walk()] == [("f", 1, 4), ("g", 6, 6)]
