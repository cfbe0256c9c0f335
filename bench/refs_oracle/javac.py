"""The Java reference finder: the JDK's compiler attributes the whole corpus once
(`oracle_java/OracleJava.java`, compiled at bench time) and prints every definition with every use
javac resolved to it; `references` looks them up."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from . import corpora
from .locations import Corpus
from .model import Definition
from .oracles import Found, as_definition, snapped

HERE = Path(__file__).resolve().parent
HEAP = "-Xmx8g"


class JavaOracle:
    """javac over the corpus as a patch of the module `java.base` (the corpus is part of the JDK's
    own sources, so its internal imports resolve); files with a compile error are unresolved."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        classes = corpora.java_oracle_classes(HERE / "oracle_java" / "OracleJava.java")
        java = shutil.which("java") or "java"
        patches = [f"{d.name}={d}" for d in sorted(corpus.root.iterdir()) if d.is_dir()]
        command = [java, HEAP, "-cp", str(classes), "OracleJava", str(corpus.root)]
        for patch in patches:
            command += ["--patch-module", patch]
        corpora.say("attributing the Java corpus with javac (com.sun.source)")
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"the javac oracle failed: {done.stderr[-1000:]}")
        self.answer: dict[str, Any] = json.loads(done.stdout)
        self.name = str(self.answer["oracle"])
        self.files = int(self.answer["files"])
        self.unresolved = list(self.answer["unresolved"])
        if self.unresolved:
            corpora.say(f"javac: {len(self.unresolved)} files with errors: {done.stderr[-600:]}")

    def definitions(self) -> list[Definition]:
        return [as_definition(d) for d in self.answer["definitions"]]

    def references(self, definitions: list[Definition]) -> list[Found]:
        uses, declarations = self.answer["uses"], self.answer["declarations"]
        return [
            Found(
                snapped(self.corpus, uses.get(d.oracle_id, [])),
                snapped(self.corpus, declarations.get(d.oracle_id, [])),
            )
            for d in definitions
        ]

    def close(self) -> None:
        pass
