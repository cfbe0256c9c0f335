"""What a semantic reference finder counts, on the shapes real code has: a receiver typed as an
ancestor or run inside an implementation is a possible use (returned as `name`, never dropped);
a module or namespace path is not a use; a qualifier that names another package or module
rules a match out (`elsewhere`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.refs.conftest import entry, refs, rows, uses


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_php_receiver_typed_as_an_ancestor_may_run_the_subclass_method(tmp_path: Path) -> None:
    write(tmp_path, "Node.php", "<?php\nnamespace T;\nclass Node { public function compile($c) {} }\n")
    write(
        tmp_path,
        "Binary.php",
        "<?php\nnamespace T;\nabstract class Binary extends Node { public function compile($c) {} }\n",
    )
    write(
        tmp_path,
        "LessBinary.php",
        "<?php\nnamespace T;\nclass LessBinary extends Binary { public function compile($c) {} }\n",
    )
    write(
        tmp_path,
        "Compiler.php",
        "<?php\nnamespace T;\nclass Compiler {\n"
        "    public function subcompile(Node $node) {\n        $node->compile($this);\n    }\n"
        "    public function direct(LessBinary $less) {\n        $less->compile($this);\n    }\n}\n",
    )
    item = entry(refs(tmp_path, "LessBinary::compile"), "LessBinary::compile")
    assert ("Compiler.php", 5, "call", "name") in uses(item)
    assert ("Compiler.php", 8, "call", "exact") in uses(item)


def test_php_this_inside_an_implementation_may_be_the_interface_method(tmp_path: Path) -> None:
    write(
        tmp_path,
        "InputInterface.php",
        "<?php\nnamespace C;\ninterface InputInterface { public function getOption(string $n); }\n",
    )
    write(
        tmp_path,
        "Input.php",
        "<?php\nnamespace C;\nclass Input implements InputInterface {\n"
        "    public function getOption(string $n) { return $this->getOption('x'); }\n"
        "    public function run(InputInterface $in) { return $in->getOption('y'); }\n}\n",
    )
    item = entry(refs(tmp_path, "InputInterface::getOption"), "InputInterface::getOption")
    assert ("Input.php", 4, "call", "name") in uses(item)
    assert ("Input.php", 5, "call", "exact") in uses(item)


def test_ts_receiver_typed_as_the_parent_class_may_run_the_override(tmp_path: Path) -> None:
    write(tmp_path, "src/Subject.ts", "export class Subject<T> { next(value: T) {} }\n")
    write(
        tmp_path,
        "src/ReplaySubject.ts",
        "import { Subject } from './Subject'\n"
        "export class ReplaySubject<T> extends Subject<T> { next(value: T) { super.next(value) } }\n",
    )
    write(
        tmp_path,
        "src/window.ts",
        "import { Subject } from './Subject'\n"
        "export function emit(window: Subject<number>, value: number) {\n  window.next(value)\n}\n",
    )
    item = entry(refs(tmp_path, "ReplaySubject.next"), "ReplaySubject.next")
    assert ("src/window.ts", 3, "call", "name") in uses(item)


def test_python_module_paths_in_imports_are_not_uses(tmp_path: Path) -> None:
    write(tmp_path, "rich/__init__.py", "")
    write(tmp_path, "rich/console.py", "class Console:\n    def measure(self):\n        return 1\n")
    write(tmp_path, "rich/measure.py", "class Measurement:\n    pass\n")
    write(
        tmp_path,
        "rich/align.py",
        "from .measure import Measurement\nfrom rich.measure import Measurement as M\nimport rich.measure\n"
        "import rich.measure as measure_module\n\n\ndef width(console):\n    return console.measure()\n",
    )
    item = entry(refs(tmp_path, "Console.measure"), "Console.measure")
    assert uses(item) == {("rich/align.py", 8, "call", "name")}
    assert item["totals"]["other"] == 4
    assert entry(refs(tmp_path, "Measurement"), "Measurement")["totals"]["uses"] == 2


def test_go_type_of_another_package_is_not_this_packages_name(tmp_path: Path) -> None:
    write(
        tmp_path,
        "pflag/ip.go",
        'package pflag\n\nimport "net"\n\nfunc IPMask(name string) net.IPMask { return nil }\n',
    )
    write(tmp_path, "pflag/use.go", 'package pflag\n\nfunc f() { _ = IPMask("m") }\n')
    item = entry(refs(tmp_path, "IPMask"), "IPMask")
    assert uses(item) == {("pflag/use.go", 3, "call", "exact")}
    assert item["totals"]["elsewhere"] == 1


def test_python_name_imported_from_another_module_is_not_the_projects(tmp_path: Path) -> None:
    write(tmp_path, "markup.py", "def escape(text):\n    return text\n")
    write(tmp_path, "console.py", "from html import escape\n\n\ndef render(t):\n    return escape(t)\n")
    write(tmp_path, "text.py", "from markup import escape\n\n\ndef render(t):\n    return escape(t)\n")
    item = entry(refs(tmp_path, "escape"), "escape")
    assert uses(item) == {("text.py", 1, "import", "exact"), ("text.py", 5, "call", "exact")}
    assert item["totals"]["elsewhere"] == 2


CASTS = [
    (
        "Use.java",
        "class Store { void save() {} }\nclass U {\n  void f(Object x) { ((Store) x).save(); }\n}\n",
        1,
    ),
    (
        "Use.cs",
        "class Store { public void save() {} }\nclass U {\n  void F(object x, Store? s) {\n"
        "    ((Store)x).save(); (x as Store).save();\n    s?.save(); s!.save();\n  }\n}\n",
        4,
    ),
    (
        "Use.kt",
        "class Store { fun save() {} }\nfun f(x: Any, s: Store?) {\n"
        "    (x as Store).save(); (x as? Store)?.save()\n    s!!.save(); (s).save()\n}\n",
        4,
    ),
    (
        "Use.swift",
        "class Store { func save() {} }\nfunc f(x: Any, s: Store?) {\n  (x as! Store).save(); s!.save()\n}\n",
        2,
    ),
    ("Use.cpp", "class Store { public: void save(); };\nvoid f(void* x) {\n  ((Store*)x)->save();\n}\n", 1),
]


@pytest.mark.parametrize(("file", "source", "calls"), CASTS, ids=[case[0] for case in CASTS])
def test_a_receiver_cast_asserted_or_in_parentheses_has_the_type_it_names(
    tmp_path: Path, file: str, source: str, calls: int
) -> None:
    (tmp_path / file).write_text(source)
    item = entry(refs(tmp_path, "Store.save"), "Store.save")
    assert rows(item, "name") == [], "every receiver's type is written"
    assert len(rows(item, "exact")) == calls


def test_a_binding_copied_from_a_typed_value_has_its_type(tmp_path: Path) -> None:
    """Swift's `if let v = s` and `guard let u = x as? Store`, and a local initialised from a
    typed parameter (`val t = s`), carry the type of what they are bound to."""
    (tmp_path / "Use.swift").write_text(
        "class Store { func save() {} }\n"
        "func g(s: Store?, x: Any) {\n  if let v = s { v.save() }\n"
        "  guard let u = x as? Store else { return }\n  u.save()\n}\n"
    )
    (tmp_path / "Use.kt").write_text(
        "class Store { fun save() {} }\nfun g(s: Store) {\n    val t = s\n    t.save()\n}\n"
    )
    item = entry(refs(tmp_path, "Store.save"), "Store.save")
    assert rows(item, "name") == []
    assert {(row["file"], row["line"]) for row in rows(item, "exact")} == {
        ("Use.swift", 3),
        ("Use.swift", 5),
        ("Use.kt", 4),
    }


FACTORIES = [
    (
        "a.rs",
        "struct Store;\nimpl Store {\n    fn new() -> Self { Store }\n    fn save(&self) {}\n}\n"
        "fn f() {\n    let t = Store::new();\n    t.save();\n}\n",
        "Store::save",
        8,
    ),
    (
        "A.java",
        "class Store {\n  static Store open() { return new Store(); }\n  void save() {}\n}\n"
        "class U {\n  void f() {\n    var t = Store.open();\n    t.save();\n  }\n}\n",
        "Store.save",
        8,
    ),
    (
        "A.cs",
        "class Store {\n  public static Store Open() => new Store();\n  public void Save() {}\n}\n"
        "class U {\n  void F() {\n    var t = Store.Open();\n    t.Save();\n  }\n}\n",
        "Store.Save",
        8,
    ),
    (
        "A.kt",
        "class Store {\n    companion object { fun open(): Store = Store() }\n    fun save() {}\n}\n"
        "fun f() {\n    val t = Store.open()\n    t.save()\n}\n",
        "Store.save",
        7,
    ),
    (
        "A.swift",
        "class Store {\n  static func open() -> Store { Store() }\n  func save() {}\n}\n"
        "func f() {\n  let t = Store.open()\n  t.save()\n}\n",
        "Store.save",
        7,
    ),
    (
        "A.scala",
        "class Store { def save(): Unit = () }\nobject Store { def open(): Store = new Store() }\n"
        "object U {\n  def f(): Unit = {\n    val t = Store.open()\n    t.save()\n  }\n}\n",
        "Store.save",
        6,
    ),
]


@pytest.mark.parametrize(("file", "source", "symbol", "line"), FACTORIES, ids=[case[0] for case in FACTORIES])
def test_a_binding_made_by_a_factory_the_file_declares_has_its_return_type(
    tmp_path: Path, file: str, source: str, symbol: str, line: int
) -> None:
    """`let t = Store::new()` of `fn new() -> Self`, `var t = Store.open()` of `static Store
    open()`: the declared return type types the receiver."""
    (tmp_path / file).write_text(source)
    item = entry(refs(tmp_path, symbol), symbol)
    assert {(row["file"], row["line"]) for row in rows(item, "exact")} == {(file, line)}
    assert rows(item, "name") == []


@pytest.mark.parametrize(
    ("file", "source", "symbol"),
    [
        (
            "A.kt",
            "class Store { fun save() {} }\nfun f(s: Store?) {\n    val t = s ?: Store()\n    t.save()\n}\n",
            "Store.save",
        ),
        (
            "A.swift",
            "class Store { func save() {} }\nfunc f(s: Store?) {\n  let t = s ?? Store()\n  t.save()\n}\n",
            "Store.save",
        ),
        (
            "A.cs",
            "class Store { public void Save() {} }\nclass U {\n  void F(Store? s) {\n    var t = s ?? new Store();\n    t.Save();\n  }\n}\n",
            "Store.Save",
        ),
    ],
    ids=["kotlin", "swift", "csharp"],
)
def test_a_binding_from_a_null_coalescing_value_has_its_left_operands_type(
    tmp_path: Path, file: str, source: str, symbol: str
) -> None:
    (tmp_path / file).write_text(source)
    item = entry(refs(tmp_path, symbol), symbol)
    assert rows(item, "name") == []
    assert len(rows(item, "exact")) == 1


@pytest.mark.parametrize(
    ("file", "source", "symbol"),
    [
        (
            "A.java",
            "class Item { void ship() {} }\nclass Repo {\n  Item find(int id) { return new Item(); }\n}\n"
            "class U {\n  void f(Repo repo) {\n    var b = repo.find(2);\n    b.ship();\n    repo.find(3).ship();\n  }\n}\n",
            "Item.ship",
        ),
        (
            "a.rs",
            "struct Item;\nimpl Item { fn ship(&self) {} }\nstruct Repo;\n"
            "impl Repo {\n    fn find(&self, id: u32) -> Item { Item }\n}\n"
            "fn f(repo: Repo) {\n    let b = repo.find(2);\n    b.ship();\n    repo.find(3).ship();\n}\n",
            "Item::ship",
        ),
    ],
    ids=["java", "rust"],
)
def test_a_method_called_on_a_typed_value_returns_its_declared_type(
    tmp_path: Path, file: str, source: str, symbol: str
) -> None:
    """`repo.find(2)` on a parameter `repo: Repo`, where the file declares `Item find(...)` in
    Repo, is an Item: both the binding made of it and the call's result used directly."""
    (tmp_path / file).write_text(source)
    item = entry(refs(tmp_path, symbol), symbol)
    assert rows(item, "name") == []
    assert len(rows(item, "exact")) == 2


SUPERS = [
    ("A.java", "class A { void foo() {} }\nclass B extends A {\n  void foo() { super.foo(); }\n}\n", "A.foo"),
    (
        "A.kt",
        "open class A { open fun foo() {} }\nclass B : A() {\n    override fun foo() { super.foo() }\n}\n",
        "A.foo",
    ),
    (
        "A.swift",
        "class A { func foo() {} }\nclass B: A {\n  override func foo() { super.foo() }\n}\n",
        "A.foo",
    ),
    (
        "A.cs",
        "class A { public virtual void Foo() {} }\nclass B : A {\n  public override void Foo() { base.Foo(); }\n}\n",
        "A.Foo",
    ),
    (
        "A.scala",
        "class A { def foo(): Unit = () }\nclass B extends A {\n  override def foo(): Unit = super.foo()\n}\n",
        "A.foo",
    ),
]


@pytest.mark.parametrize(("file", "source", "symbol"), SUPERS, ids=[case[0] for case in SUPERS])
def test_super_is_the_enclosing_classs_parent(tmp_path: Path, file: str, source: str, symbol: str) -> None:
    """`super.foo()` (C#'s `base.Foo()`) in B, a subclass of A, calls A's foo: exact, where it
    was a `name` match; B's own foo is its override, another definition."""
    (tmp_path / file).write_text(source)
    item = entry(refs(tmp_path, symbol), symbol)
    assert {(row["file"], row["line"]) for row in rows(item, "exact")} == {(file, 3)}
    assert rows(item, "name") == []


THIS_FIELD = {
    "Java": (
        "Shop.java",
        "class Store { void save() {} }\nclass Cache { void save() {} }\n"
        "class Shop {\n  private Store store;\n  void run() { this.store.save(); }\n}\n",
        "Store.save",
    ),
    "Kotlin": (
        "Shop.kt",
        "class Store { fun save() = 1 }\nclass Cache { fun save() = 2 }\n"
        "class Shop {\n  private val store: Store = Store()\n  fun run() { this.store.save() }\n}\n",
        "Store.save",
    ),
    "C#": (
        "Shop.cs",
        "class Store { public void Save() {} }\nclass Cache { public void Save() {} }\n"
        "class Shop {\n  private Store store;\n  void Run() { this.store.Save(); }\n}\n",
        "Store.Save",
    ),
    "Swift": (
        "Shop.swift",
        "class Store { func save() {} }\nclass Cache { func save() {} }\n"
        "class Shop {\n  private let store: Store = Store()\n  func run() { self.store.save() }\n}\n",
        "Store.save",
    ),
    "C++": (
        "shop.cpp",
        "class Store { public: void save() {} };\nclass Cache { public: void save() {} };\n"
        "class Shop {\n  Store* store;\n  void run() { this->store->save(); }\n};\n",
        "Store::save",
    ),
}


@pytest.mark.parametrize("lang", sorted(THIS_FIELD))
def test_a_field_reached_through_this_has_its_declared_type(tmp_path: Path, lang: str) -> None:
    """`this.store.save()` (`self.`, `this->`) is the field's type's method, and not another's."""
    rel, text, symbol = THIS_FIELD[lang]
    write(tmp_path, rel, text)
    other = symbol.replace("Store", "Cache")
    found = refs(tmp_path, symbol, other)
    assert (rel, 5, "call", "exact") in uses(entry(found, symbol))
    assert not uses(entry(found, other))
    assert entry(found, other)["totals"]["elsewhere"] == 2  # the use and the other definition
