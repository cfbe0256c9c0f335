"""Real code per language, installed at bench time into `bench/.cache/languages` from Debian, PyPI
and npm (pinned where the registry keeps old versions; Debian's archive keeps one version, which is
printed and recorded), each step printed as it runs. Nothing here is committed.

| language | where it comes from |
|---|---|
| c | Debian `linux-source-6.1`: the kernel tarball, unpacked once (also the big tree for timings) |
| cpp | the `lightgbm` sdist (`src/`, `include/LightGBM/`) and Debian `libfmt-dev` headers |
| java | Debian `openjdk-17-source`: `java.base/java/**` and javac (`jdk.compiler`) out of `src.zip` |
| kotlin, swift | npm `expo-*` packages that ship their Android (`.kt`) and iOS (`.swift`) modules |
| csharp | the `pythonnet` sdist (its .NET runtime bridge) |
| rust | Debian `librust-*-dev` crates (regex, serde, syn, tokio, clap, hyper, rand) |
| ruby | Debian `ruby-*` gems (rack, rspec, thor, sinatra, i18n, mustermann, activesupport) |
| scala | Debian's source package `scala` (`apt-get source`: the compiler and library, `src/`) |
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import harness
from harness import CACHE

HOME = CACHE / "languages"
CORPUS_VERSION = "1"
"""Bumped when what is copied into a corpus changes."""
SEED = 20
"""The fixed seed of every sample: the same files on every run and machine."""

LINUX_DEB = "linux-source-6.1"
DEBIAN_IGNORE = "#\n# Debian packaging"
JAVA_DEB = "openjdk-17-source"
JAVA_PREFIXES = ("java.base/java/", "jdk.compiler/com/sun/tools/javac/")
CPP_SDIST = "lightgbm==4.5.0"
CPP_SDIST_DIRS = ("src", "include/LightGBM")
CPP_DEBS = ("libfmt-dev",)
CSHARP_SDIST = "pythonnet==3.2.1"
RUST_DEBS = (
    "librust-regex-dev",
    "librust-regex-syntax-dev",
    "librust-serde-dev",
    "librust-syn-dev",
    "librust-tokio-dev",
    "librust-clap-dev",
    "librust-hyper-dev",
    "librust-rand-dev",
)
RUBY_DEBS = (
    "ruby-rack",
    "ruby-rspec-core",
    "ruby-rspec-expectations",
    "ruby-rspec-mocks",
    "ruby-thor",
    "ruby-sinatra",
    "ruby-i18n",
    "ruby-mustermann",
    "ruby-activesupport",
)
EXPO = (
    "expo-modules-core@58.1.0",
    "expo-camera@57.0.6",
    "expo-image-picker@57.0.20",
    "expo-file-system@58.0.14",
    "expo-notifications@58.0.2",
    "expo-location@57.0.20",
    "expo-media-library@57.0.5",
    "expo-sensors@57.0.3",
    "expo-image@58.0.18",
    "expo-av@16.0.8",
)
CTAGS_DEB = "universal-ctags"
SCALA_SRC = "scala"
"""A Debian source package: no binary package ships `.scala` sources, only jars."""
SCALA_DIRS = ("src",)
DEB_SRC = Path("/etc/apt/sources.list.d/sofia-bench-deb-src.sources")
DEB_SRC_TEXT = """\
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""

SUFFIXES = {
    "c": (".c", ".h"),
    "cpp": (".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".h"),
    "java": (".java",),
    "kotlin": (".kt", ".kts"),
    "swift": (".swift",),
    "csharp": (".cs",),
    "rust": (".rs",),
    "ruby": (".rb",),
    "scala": (".scala",),
}
SKIP_PARTS = {"test", "tests", "testdata", "testing", "spec", "fixtures", "node_modules", "vendor", "target"}
"""Test trees and vendored code are left out of the samples, as in bench_code."""


@dataclass(frozen=True)
class Corpus:
    lang: str
    root: Path
    origin: str
    files: tuple[Path, ...]
    """Every candidate file under `root` (absolute, sorted)."""

    def sample(self, count: int, min_size: int = 0, skip: int = 0) -> list[Path]:
        """`count` files of at least `min_size` bytes, after the first `skip`, in one order shuffled
        with the fixed seed (so a larger draw extends a smaller one), sorted."""
        pool = [f for f in self.files if f.stat().st_size >= min_size]
        random.Random(SEED).shuffle(pool)
        return sorted(pool[skip : skip + count])


def say(message: str) -> None:
    print(f"[languages] {message}", file=sys.stderr, flush=True)


def install_ctags() -> str:
    """Debian's Universal Ctags (`apt-get install`, a no-op when it is there); its version line."""
    if shutil.which("ctags") is None:
        say(f"apt-get install {CTAGS_DEB}")
        subprocess.run(["apt-get", "install", "-y", "-q", CTAGS_DEB], check=True, capture_output=True)
    else:
        say(f"{CTAGS_DEB}: {shutil.which('ctags')} is installed")
    done = subprocess.run(["ctags", "--version"], check=True, capture_output=True, text=True)
    return done.stdout.splitlines()[0]


def candidates(root: Path, suffixes: tuple[str, ...]) -> tuple[Path, ...]:
    found = []
    for path in root.rglob("*"):
        if path.suffix not in suffixes or path.is_symlink() or not path.is_file():
            continue
        if SKIP_PARTS.intersection(path.relative_to(root).parts[:-1]):
            continue
        found.append(path)
    return tuple(sorted(found))


def copy_tree(source: Path, target: Path, suffixes: tuple[str, ...]) -> int:
    """Copy the regular files with these suffixes (symlinks left out: Debian links packages into
    each other, and a linked copy would count twice)."""
    copied = 0
    for path in sorted(source.rglob("*")):
        if path.is_symlink() or not path.is_file() or path.suffix not in suffixes:
            continue
        dest = target / path.relative_to(source)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
        copied += 1
    return copied


def fresh(lang: str, packages: tuple[str, ...]) -> tuple[Path, bool]:
    """The corpus directory for `lang`, and whether it is complete for these packages."""
    root = HOME / lang / "corpus"
    stamp = HOME / lang / ".corpus"
    wanted = "\n".join((CORPUS_VERSION, *packages))
    if stamp.exists() and stamp.read_text() == wanted and root.is_dir():
        return root, True
    shutil.rmtree(root, ignore_errors=True)
    stamp.unlink(missing_ok=True)
    root.mkdir(parents=True)
    return root, False


def done(lang: str, packages: tuple[str, ...]) -> None:
    (HOME / lang / ".corpus").write_text("\n".join((CORPUS_VERSION, *packages)))


def deb_version(name: str) -> str:
    path = harness.debian_package(name) / ".version"
    return path.read_text().strip() if path.exists() else name


def linux_tree() -> Path:
    """The kernel sources, unpacked once from Debian's `linux-source-6.1` tarball."""
    target = HOME / "linux"
    stamp = target / ".unpacked"
    if not stamp.exists():
        say(f"Debian package {LINUX_DEB} (apt-get download unless cached, ~140 MB)")
        package = harness.debian_package(LINUX_DEB)
        tarball = next((package / "usr/src").glob("linux-source-*.tar.*"))
        say(f"unpacking {tarball.name} into {target} (once; about 1.3 GB)")
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        subprocess.run(["nice", "-n", "10", "tar", "-xf", str(tarball), "-C", str(target)], check=True)
        stamp.write_text(deb_version(LINUX_DEB) + "\n")
    tree = next(p for p in target.iterdir() if p.is_dir())
    ignore = tree / ".gitignore"
    text = ignore.read_text()
    if DEBIAN_IGNORE in text:
        # Debian's packaging appends `/*` (ignore the whole top level) to the kernel's .gitignore:
        # an upstream checkout has no such line, and with it ripgrep searches nothing.
        say(f"dropping Debian's packaging lines from {ignore}")
        ignore.write_text(text.split(DEBIAN_IGNORE, 1)[0])
    if not (tree / ".git").exists():
        # A checkout of its own, as a user's kernel tree is: otherwise ripgrep (and so sf) would
        # apply this repository's .gitignore, which ignores bench/.cache, and search nothing.
        say(f"git init {tree}")
        subprocess.run(["git", "init", "-q", str(tree)], check=True)
    return tree


def c_corpus() -> Corpus:
    root = linux_tree()
    return Corpus("c", root, f"Debian {deb_version(LINUX_DEB)}", candidates(root, SUFFIXES["c"]))


def cpp_corpus() -> Corpus:
    packages = (CPP_SDIST, *CPP_DEBS)
    root, ready = fresh("cpp", packages)
    if not ready:
        say(f"downloading the sdist {CPP_SDIST} from PyPI")
        sdist = harness.pypi_sdist(CPP_SDIST)
        for name in CPP_SDIST_DIRS:
            copy_tree(sdist / name, root / "lightgbm" / name, SUFFIXES["cpp"])
        for name in CPP_DEBS:
            say(f"Debian package {name} (apt-get download unless cached)")
            copy_tree(harness.debian_package(name) / "usr/include", root / name, SUFFIXES["cpp"])
        done("cpp", packages)
    origin = f"PyPI {CPP_SDIST} ({', '.join(CPP_SDIST_DIRS)}), Debian {', '.join(map(deb_version, CPP_DEBS))}"
    return Corpus("cpp", root, origin, candidates(root, SUFFIXES["cpp"]))


def java_corpus() -> Corpus:
    root, ready = fresh("java", (JAVA_DEB, *JAVA_PREFIXES))
    if not ready:
        say(f"Debian package {JAVA_DEB} (apt-get download unless cached)")
        package = harness.debian_package(JAVA_DEB)
        src_zip = next(package.glob("usr/lib/jvm/*/lib/src.zip"))
        say(f"extracting {', '.join(JAVA_PREFIXES)} out of {src_zip.name}")
        with zipfile.ZipFile(src_zip) as archive:
            for member in archive.namelist():
                if member.endswith(".java") and member.startswith(JAVA_PREFIXES):
                    archive.extract(member, root)
        done("java", (JAVA_DEB, *JAVA_PREFIXES))
    return Corpus(
        "java",
        root,
        f"Debian {deb_version(JAVA_DEB)} (src.zip: {', '.join(JAVA_PREFIXES)})",
        candidates(root, SUFFIXES["java"]),
    )


def expo_corpus(lang: str) -> Corpus:
    root, ready = fresh(lang, EXPO)
    if not ready:
        for spec in EXPO:
            say(f"npm pack {spec} (unless cached)")
            package = harness.npm_package(spec)
            copy_tree(package, root / spec.rsplit("@", 1)[0], SUFFIXES[lang])
        done(lang, EXPO)
    return Corpus(lang, root, "npm " + ", ".join(EXPO), candidates(root, SUFFIXES[lang]))


def csharp_corpus() -> Corpus:
    root, ready = fresh("csharp", (CSHARP_SDIST,))
    if not ready:
        say(f"downloading the sdist {CSHARP_SDIST} from PyPI")
        copy_tree(harness.pypi_sdist(CSHARP_SDIST), root, SUFFIXES["csharp"])
        done("csharp", (CSHARP_SDIST,))
    return Corpus("csharp", root, f"PyPI {CSHARP_SDIST}", candidates(root, SUFFIXES["csharp"]))


def debian_corpus(lang: str, packages: tuple[str, ...]) -> Corpus:
    root, ready = fresh(lang, packages)
    if not ready:
        for name in packages:
            say(f"Debian package {name} (apt-get download unless cached)")
            copy_tree(harness.debian_package(name) / "usr", root / name, SUFFIXES[lang])
        done(lang, packages)
    origin = "Debian " + ", ".join(map(deb_version, packages))
    return Corpus(lang, root, origin, candidates(root, SUFFIXES[lang]))


def debian_source(name: str) -> Path:
    """The unpacked upstream tarball of a Debian source package (`apt-get source
    --download-only`); deb-src is not configured by default, so its sources entry is written and
    the lists updated first where apt has none."""
    target = harness.CACHE / "debsrc" / name
    if (target / ".done").exists():
        return target
    listed = any("deb-src" in p.read_text(errors="replace") for p in Path("/etc/apt").rglob("*.sources"))
    listed = listed or any(
        line.startswith("deb-src")
        for p in Path("/etc/apt").rglob("*.list")
        for line in p.read_text().splitlines()
    )
    if not listed:
        say(f"writing {DEB_SRC} and apt-get update (deb-src for apt-get source)")
        DEB_SRC.write_text(DEB_SRC_TEXT)
        subprocess.run(["apt-get", "update", "-q"], check=True, capture_output=True)
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    say(f"apt-get source --download-only {name}")
    subprocess.run(
        ["apt-get", "source", "--download-only", name], cwd=target, check=True, capture_output=True
    )
    tarball = next(target.glob("*.orig.tar.*"))
    say(f"unpacking {tarball.name}")
    subprocess.run(["tar", "-xf", tarball.name], cwd=target, check=True)
    (target / ".version").write_text(tarball.name + "\n")
    (target / ".done").write_text("")
    return target


def scala_corpus() -> Corpus:
    root, ready = fresh("scala", (SCALA_SRC, *SCALA_DIRS))
    source = debian_source(SCALA_SRC)
    tree = next(p for p in source.iterdir() if p.is_dir())
    if not ready:
        for name in SCALA_DIRS:
            copy_tree(tree / name, root / name, SUFFIXES["scala"])
        done("scala", (SCALA_SRC, *SCALA_DIRS))
    version = (source / ".version").read_text().strip()
    origin = f"Debian source package {SCALA_SRC} ({version}: {', '.join(SCALA_DIRS)})"
    return Corpus("scala", root, origin, candidates(root, SUFFIXES["scala"]))


INSTALLERS = {
    "java": java_corpus,
    "kotlin": lambda: expo_corpus("kotlin"),
    "csharp": csharp_corpus,
    "c": c_corpus,
    "cpp": cpp_corpus,
    "rust": lambda: debian_corpus("rust", RUST_DEBS),
    "ruby": lambda: debian_corpus("ruby", RUBY_DEBS),
    "swift": lambda: expo_corpus("swift"),
    "scala": scala_corpus,
}
