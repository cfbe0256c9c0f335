"""The Scala definitions oracle: the Scala compiler's own parser (Debian `scala`, run on the
installed JDK), since this Universal Ctags has no Scala parser. `ScalaDefs.scala` beside this file
parses each file with `scala.tools.nsc` stopped after the parser and lists its classes, traits,
objects, defs, vals and types with the line of the name and the last line of the range; it is
compiled once into bench/.cache/languages/scala/oracle.

Counted (`ctags.KINDS["scala"]`): class (case classes too), trait, object, method (every `def`,
secondary constructors as `this`); not vals, vars, types, nor anything inside a def's body or a
val's initialiser (local defs, anonymous classes).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from harness import CACHE

from languages.ctags import Tag

SCALA_DEB = "scala"
"""Debian's Scala 2.11 compiler and library (`/usr/share/scala-2.11/lib`)."""
JDK_DEB = "openjdk-17-jdk-headless"
LIB = Path("/usr/share/scala-2.11/lib")
JARS = ("scala-library.jar", "scala-compiler.jar", "scala-reflect.jar")
SOURCE = Path(__file__).with_name("ScalaDefs.scala")
BUILT = CACHE / "languages" / "scala" / "oracle"


def say(message: str) -> None:
    from languages.corpora import say as printed

    printed(message)


def install() -> str:
    """The compiler (`apt-get install scala`, and a JDK where none is), the oracle compiled when
    its source changed; the compiler's version line."""
    if shutil.which("java") is None:
        say(f"apt-get install {JDK_DEB}")
        subprocess.run(["apt-get", "install", "-y", "-q", JDK_DEB], check=True, capture_output=True)
    if shutil.which("scalac") is None or not (LIB / JARS[1]).exists():
        say(f"apt-get install {SCALA_DEB}")
        subprocess.run(["apt-get", "install", "-y", "-q", SCALA_DEB], check=True, capture_output=True)
    stamp = BUILT / ".source"
    if not stamp.exists() or stamp.read_text() != SOURCE.read_text():
        say(f"scalac {SOURCE.name} into {BUILT}")
        shutil.rmtree(BUILT, ignore_errors=True)
        BUILT.mkdir(parents=True)
        subprocess.run(
            ["scalac", "-d", str(BUILT), "-classpath", _classpath(with_oracle=False), str(SOURCE)],
            check=True,
            capture_output=True,
        )
        stamp.write_text(SOURCE.read_text())
    done = subprocess.run(["scalac", "-version"], capture_output=True, text=True, check=False)
    return (done.stdout or done.stderr).strip().splitlines()[0]


def _classpath(with_oracle: bool = True) -> str:
    jars = [str(LIB / jar) for jar in JARS]
    return ":".join([str(BUILT), *jars] if with_oracle else jars)


def scalac_tags(root: Path, files: list[str]) -> dict[str, list[Tag]]:
    """Every definition the compiler's parser gives for `files` (relative to `root`), by file."""
    install()
    out: dict[str, list[Tag]] = {f: [] for f in files}
    texts: dict[str, list[str]] = {}
    done = subprocess.run(
        ["java", "-cp", _classpath(), "ScalaDefs"],
        cwd=root,
        input="\n".join(files) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    for line in done.stdout.splitlines():
        record = json.loads(line)
        rel = record["path"]
        if rel not in out:
            continue
        number = int(record["line"])
        lines = texts.get(rel) or texts.setdefault(rel, (root / rel).read_text(errors="replace").splitlines())
        out[rel].append(
            Tag(
                path=rel,
                name=record["name"],
                kind=record["kind"],
                line=number,
                end=int(record["end"]),
                scope=record["scope"],
                scope_kind=record["scopeKind"],
                text=lines[number - 1] if 0 < number <= len(lines) else "",
            )
        )
    return out
