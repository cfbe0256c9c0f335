"""The corpora and the reference finders, installed at bench time into `bench/.cache/refs_oracle`
from PyPI, npm and Debian (pinned versions), each step printed as it runs. Nothing here is
committed: a corpus is rebuilt from the registries on a clean checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import harness
from harness import CACHE

from sofia.runtime.rg import DEFAULT_IGNORE_DIRS

HOME = CACHE / "refs_oracle"
TOOLS = HOME / "tools"

JEDI = "jedi==0.20.1"
TYPESCRIPT = "typescript@5.9.3"
INTELEPHENSE = "intelephense@1.18.5"
GO_DEBS = ("golang-1.19-go", "golang-1.19-src")
CORPUS_VERSION = "2"
"""Bumped when what is copied into a corpus changes."""

PYTHON_SDIST = "rich==13.9.4"
PYTHON_DIRS = ("rich",)
APP_SDIST = "flaskbb==2.2.0"
"""A framework application: FlaskBB, a forum on Flask and SQLAlchemy, neither of which is in the
corpus (models extend `db.Model`, views `MethodView`: base classes outside the tree), with many
same-named methods (`get`, `post`, `save`, `delete`), imports inside functions and
`TYPE_CHECKING` blocks, and packages that re-export (`flaskbb/auth/services/__init__.py`). Its
sdist states Python >= 3.12, which only the download checks: jedi reads it on any Python."""
APP_DIRS = ("flaskbb", "tests")
TS_PACKAGE = "rxjs@7.8.2"
TS_DIRS = ("src",)
GO_PACKAGES = (
    "golang-github-spf13-pflag-dev",
    "golang-github-spf13-cobra-dev",
    "golang-github-cpuguy83-go-md2man-v2-dev",
    "golang-github-russross-blackfriday-v2-dev",
    "golang-github-gorilla-mux-dev",
    "golang-github-stretchr-testify-dev",
    "golang-github-stretchr-objx-dev",
    "golang-github-davecgh-go-spew-dev",
    "golang-github-pmezard-go-difflib-dev",
    "golang-github-google-go-cmp-dev",
    "golang-github-burntsushi-toml-dev",
    "golang-gopkg-yaml.v3-dev",
)
JAVA_SOURCE = "openjdk-17-source"
JAVA_DIRS = ("java.base/java/util/concurrent", "java.base/java/util/function", "java.base/java/util/stream")
"""Parts of the JDK's own java.base sources, attributed as a patch of the module java.base."""
JDK = "openjdk-17-jdk-headless"
C_SDIST = "Brotli==1.1.0"
C_DIRS = ("c",)
"""Brotli's C library, encoder, decoder and command-line tool, as its PyPI sdist bundles them."""
CPP_SDIST = "lightgbm==4.5.0"
CPP_DIRS = ("include", "src")
"""LightGBM's own C++ (its CUDA sources, built only with USE_CUDA, are inactive code here); the
sdist's bundled fmt, Eigen and fast_double_parser stay outside the corpus, on the include path."""
CLANGD = "clangd"
PHP_PACKAGES = (
    "php-symfony-console",
    "php-symfony-string",
    "php-symfony-process",
    "php-symfony-finder",
    "php-symfony-event-dispatcher",
    "php-symfony-service-contracts",
    "php-symfony-event-dispatcher-contracts",
    "php-symfony-deprecation-contracts",
    "php-psr-log",
    "php-psr-container",
    "php-psr-event-dispatcher",
    "php-twig",
)


@dataclass(frozen=True)
class Corpus:
    lang: str
    """The bench's name for the corpus (its cache folder, its rows)."""
    root: Path
    packages: tuple[str, ...]
    language: str = ""
    """The language its oracle reads, when `lang` names a second corpus of one (`python-app`)."""

    @property
    def oracle_lang(self) -> str:
        return self.language or self.lang


def say(message: str) -> None:
    print(f"[refs-oracle] {message}", file=sys.stderr, flush=True)


def copy_files(source: Path, target: Path, suffixes: tuple[str, ...]) -> None:
    """Copy the regular files with these suffixes. Left out: symlinks (Debian links packages into
    each other, and a linked copy would count every use twice) and the directories `sf refs` skips
    by default (`vendor`...), which no user would expect it to search."""
    for path in sorted(source.rglob("*")):
        if path.is_symlink() or not path.is_file() or not path.name.endswith(suffixes):
            continue
        relative = path.relative_to(source)
        if any(part in DEFAULT_IGNORE_DIRS for part in relative.parts[:-1]):
            continue
        if any((source / p).is_symlink() for p in relative.parents if p != Path(".")):
            continue
        dest = target / path.relative_to(source)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)


def corpus_root(lang: str) -> Path:
    """Go's corpus is a GOPATH `src` directory, so the checker and `sf refs` see one path."""
    return HOME / lang / ("gopath/src" if lang == "go" else "corpus")


def fresh(lang: str, packages: tuple[str, ...]) -> tuple[Path, bool]:
    """The corpus directory for `lang`, and whether it is already complete for these packages."""
    root = corpus_root(lang)
    stamp = HOME / lang / ".corpus"
    if stamp.exists() and stamp.read_text() == "\n".join((CORPUS_VERSION, *packages)) and root.is_dir():
        return root, True
    shutil.rmtree(root, ignore_errors=True)
    stamp.unlink(missing_ok=True)
    root.mkdir(parents=True)
    return root, False


def done(lang: str, packages: tuple[str, ...]) -> None:
    (HOME / lang / ".corpus").write_text("\n".join((CORPUS_VERSION, *packages)))


def python_corpus() -> Corpus:
    root, ready = fresh("python", (PYTHON_SDIST,))
    if not ready:
        say(f"downloading the sdist {PYTHON_SDIST} from PyPI")
        sdist = harness.pypi_sdist(PYTHON_SDIST)
        for name in PYTHON_DIRS:
            copy_files(sdist / name, root / name, (".py",))
        done("python", (PYTHON_SDIST,))
    return Corpus("python", root, (PYTHON_SDIST,))


def python_app_corpus() -> Corpus:
    root, ready = fresh("python-app", (APP_SDIST,))
    if not ready:
        say(f"downloading the sdist {APP_SDIST} from PyPI")
        sdist = harness.pypi_sdist(APP_SDIST, "--ignore-requires-python")
        for name in APP_DIRS:
            copy_files(sdist / name, root / name, (".py",))
        done("python-app", (APP_SDIST,))
    return Corpus("python-app", root, (APP_SDIST,), language="python")


def ts_corpus() -> Corpus:
    root, ready = fresh("ts", (TS_PACKAGE,))
    if not ready:
        say(f"downloading {TS_PACKAGE} from npm")
        package = harness.npm_package(TS_PACKAGE)
        for name in TS_DIRS:
            copy_files(package / name, root / name, (".ts", ".tsx"))
        done("ts", (TS_PACKAGE,))
    return Corpus("ts", root, (TS_PACKAGE,))


def debian_corpus(lang: str, packages: tuple[str, ...], under: str, suffix: str) -> Corpus:
    root, ready = fresh(lang, packages)
    if not ready:
        for name in packages:
            say(f"Debian package {name} (apt-get download unless cached)")
            copy_files(harness.debian_package(name) / under, root, (suffix,))
        done(lang, packages)
    return Corpus(lang, root, packages)


def go_corpus() -> Corpus:
    return debian_corpus("go", GO_PACKAGES, "usr/share/gocode/src", ".go")


def php_corpus() -> Corpus:
    return debian_corpus("php", PHP_PACKAGES, "usr/share/php", ".php")


def jedi_path() -> Path:
    target = TOOLS / "py"
    stamp = target / ".installed"
    if not (stamp.exists() and stamp.read_text() == JEDI):
        say(f"installing {JEDI} from PyPI into {target}")
        shutil.rmtree(target, ignore_errors=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--target", str(target), JEDI],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        stamp.write_text(JEDI)
    return target


def node_modules() -> Path:
    target = TOOLS / "node"
    stamp = target / ".installed"
    wanted = f"{TYPESCRIPT} {INTELEPHENSE}"
    if not (stamp.exists() and stamp.read_text() == wanted):
        say(f"installing {TYPESCRIPT} and {INTELEPHENSE} from npm into {target}")
        target.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                "npm",
                "install",
                "--prefix",
                str(target),
                "--no-audit",
                "--no-fund",
                "--silent",
                TYPESCRIPT,
                INTELEPHENSE,
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        stamp.write_text(wanted)
    return target / "node_modules"


def go_root() -> Path:
    """A GOROOT assembled from Debian's Go 1.19 packages (`apt-get download`, no install needed)."""
    goroot = TOOLS / "goroot"
    if not (goroot / ".assembled").exists():
        compiler, sources = (harness.debian_package(name) for name in GO_DEBS)
        say(f"assembling a GOROOT from the Debian packages {', '.join(GO_DEBS)} in {goroot}")
        shutil.rmtree(goroot, ignore_errors=True)
        goroot.mkdir(parents=True)
        lib = compiler / "usr/lib/go-1.19"
        for entry in lib.iterdir():
            if entry.name != "src":
                os.symlink(entry, goroot / entry.name)
        # The sources are split over both packages (generated files such as zversion.go ship
        # with the compiler): merge them, hard-linked, into one tree.
        for package in (sources, compiler):
            tree = package / "usr/share/go-1.19/src"
            for path in tree.rglob("*"):
                if path.is_file() and not path.is_symlink():
                    dest = goroot / "src" / path.relative_to(tree)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    dest.unlink(missing_ok=True)
                    os.link(path, dest)
        (goroot / ".assembled").write_text("\n".join(GO_DEBS))
    return goroot


def go_env() -> dict[str, str]:
    goroot = go_root()
    return {
        **os.environ,
        "GOROOT": str(goroot),
        "PATH": f"{goroot / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        "GO111MODULE": "off",
        "GOFLAGS": "",
        "CGO_ENABLED": "0",
        "GOCACHE": str(TOOLS / "gocache"),
        "GOPATH": str(corpus_root("go").parent),
        "GOPROXY": "off",
        "GOTOOLCHAIN": "local",
    }


def apt_tool(binary: str, package: str) -> str:
    """The path of `binary`, installing the Debian `package` that ships it when it is missing."""
    found = shutil.which(binary)
    if found is None:
        say(f"installing the Debian package {package} (apt-get install) for {binary}")
        subprocess.run(
            ["apt-get", "install", "-y", "-q", "--no-install-recommends", package],
            check=True,
            stdout=subprocess.DEVNULL,
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        )
        found = shutil.which(binary)
    if found is None:
        raise RuntimeError(f"{package} is installed but {binary} is not on PATH")
    return found


def java_corpus() -> Corpus:
    """`JAVA_DIRS` out of the src.zip of Debian's `openjdk-17-source` (`apt-get download`)."""
    import zipfile

    root, ready = fresh("java", (JAVA_SOURCE,))
    if not ready:
        say(f"Debian package {JAVA_SOURCE} (apt-get download unless cached)")
        archive = harness.debian_package(JAVA_SOURCE) / "usr/lib/jvm/openjdk-17/lib/src.zip"
        with zipfile.ZipFile(archive) as sources:
            for name in sources.namelist():
                if name.endswith(".java") and name.startswith(tuple(d + "/" for d in JAVA_DIRS)):
                    dest = root / name
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    dest.write_bytes(sources.read(name))
        done("java", (JAVA_SOURCE,))
    return Corpus("java", root, (JAVA_SOURCE,))


def java_oracle_classes(source: Path) -> Path:
    """`source` (the oracle's one .java file) compiled with the JDK's javac, once per content."""
    javac = apt_tool("javac", JDK)
    target = TOOLS / "oracle_java"
    stamp = target / ".source"
    text = source.read_text()
    if not (stamp.exists() and stamp.read_text() == text):
        say(f"compiling {source.name} with {javac}")
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        subprocess.run([javac, "-d", str(target), str(source)], check=True)
        stamp.write_text(text)
    return target


def sdist_corpus(lang: str, spec: str, dirs: tuple[str, ...], suffixes: tuple[str, ...]) -> Corpus:
    root, ready = fresh(lang, (spec,))
    if not ready:
        say(f"downloading the sdist {spec} from PyPI")
        sdist = harness.pypi_sdist(spec)
        for name in dirs:
            copy_files(sdist / name, root / name, suffixes)
        done(lang, (spec,))
    return Corpus(lang, root, (spec,))


def c_corpus() -> Corpus:
    return sdist_corpus("c", C_SDIST, C_DIRS, (".c", ".h"))


def cpp_corpus() -> Corpus:
    return sdist_corpus("cpp", CPP_SDIST, CPP_DIRS, (".cpp", ".cc", ".h", ".hpp"))
