"""Every use refs reports is a use: the shapes real applications have that a word search
mistakes for one — a keyword argument's name, a same-named method called on an object, an
import inside a function, a name re-exported by a package, a comment in a Vue template, a class
that cannot reach the one asked for."""

from __future__ import annotations

from pathlib import Path

from tests.refs.conftest import entry, refs, uses


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


# --- keyword-argument names ------------------------------------------------------------------


def test_python_keyword_argument_names_are_not_uses(tmp_path: Path) -> None:
    write(tmp_path, "app/checks.py", "def validate(value):\n    return value\n")
    write(
        tmp_path,
        "app/run.py",
        "from app.checks import validate\n\n\ndef check(p, strict=True):\n    return p\n\n\n"
        "check(1, validate=False)\ndict(validate=1)\nvalidate(2)\n",
    )
    item = entry(refs(tmp_path, "validate"), "validate")
    assert uses(item) == {("app/run.py", 1, "import", "exact"), ("app/run.py", 10, "call", "exact")}
    assert item["totals"]["other"] == 2


def test_php_named_arguments_are_not_uses(tmp_path: Path) -> None:
    write(tmp_path, "src/checks.php", "<?php\nnamespace App;\nfunction validate($v) { return $v; }\n")
    write(
        tmp_path,
        "src/run.php",
        "<?php\nnamespace App;\n#[Rule(validate: true)]\nclass Run {\n"
        "    public function go() { check(1, validate: false); return validate(2); }\n}\n",
    )
    item = entry(refs(tmp_path, "validate"), "validate")
    assert uses(item) == {("src/run.php", 5, "call", "exact")}
    assert item["totals"]["other"] == 2


def test_jsx_prop_names_and_vue_attribute_names_are_not_uses(tmp_path: Path) -> None:
    write(tmp_path, "src/rules.ts", "export function validate(v: string) { return v }\n")
    write(
        tmp_path,
        "src/Form.tsx",
        "import { validate } from './rules'\nexport const F = () => <Input validate={validate} />\n",
    )
    write(
        tmp_path,
        "src/Page.vue",
        '<template>\n  <Input :validate="validate" @validate="done" v-validate />\n</template>\n'
        "<script setup>\nimport { validate } from './rules'\nconst done = () => 1\n</script>\n",
    )
    item = entry(refs(tmp_path, "validate"), "validate")
    assert uses(item) == {
        ("src/Form.tsx", 1, "import", "exact"),
        ("src/Form.tsx", 2, "reference", "exact"),
        ("src/Page.vue", 2, "reference", "exact"),
        ("src/Page.vue", 5, "import", "exact"),
    }
    assert item["totals"]["other"] == 4


# --- Vue comments ----------------------------------------------------------------------------


def test_vue_template_and_style_comments_are_comments(tmp_path: Path) -> None:
    write(tmp_path, "src/components/UserBadge.vue", "<template><b>badge</b></template>\n")
    write(
        tmp_path,
        "src/views/Post.vue",
        "<!-- UserBadge: the author -->\n<template>\n  <!-- UserBadge shows the author -->\n"
        "  <UserBadge />\n</template>\n<script setup>\nimport UserBadge from '../components/UserBadge.vue'\n"
        "</script>\n<style>\n/* UserBadge sits right */\n.badge { float: right }\n</style>\n",
    )
    item = entry(refs(tmp_path, "UserBadge"), "UserBadge")
    assert uses(item) == {
        ("src/views/Post.vue", 4, "tag", "exact"),
        ("src/views/Post.vue", 7, "import", "exact"),
    }
    assert item["totals"]["in_comments"] == 3
    assert item["totals"].get("in_strings", 0) == 1  # the import path


# --- imports at every scope --------------------------------------------------------------------


def test_python_imports_inside_functions_and_class_bodies_are_followed_with_scope(tmp_path: Path) -> None:
    write(tmp_path, "app/__init__.py", "")
    write(tmp_path, "app/demo/__init__.py", "")
    write(tmp_path, "app/demo/api.py", "def create_leads(n):\n    return n\n\n\nclass Lead:\n    pass\n")
    write(
        tmp_path,
        "app/jobs.py",
        "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\n"
        "from legacy import create_leads\n\n\n"
        "def run():\n    from app.demo.api import create_leads\n\n    return create_leads(3)\n\n\n"
        "def old():\n    return create_leads(1)\n\n\n"
        "class Report:\n    if TYPE_CHECKING:\n        from app.demo.api import Lead\n\n"
        "    def build(self, lead: Lead) -> Lead:\n        return lead\n",
    )
    result = refs(tmp_path, "create_leads", "Lead")
    function = entry(result, "create_leads")
    assert uses(function) == {("app/jobs.py", 9, "import", "exact"), ("app/jobs.py", 11, "call", "exact")}
    assert function["totals"]["elsewhere"] == 2  # the module's own import from legacy, and old()'s call
    cls = entry(result, "Lead")
    assert uses(cls) == {
        ("app/jobs.py", 20, "import", "exact"),
        ("app/jobs.py", 22, "type", "exact"),
    }
    assert cls["totals"]["exact"] == 3  # the import and both annotations


# --- a same-named method is not a free function ------------------------------------------------


def test_calls_on_objects_are_not_uses_of_a_free_function(tmp_path: Path) -> None:
    write(tmp_path, "app/__init__.py", "")
    write(tmp_path, "app/api/__init__.py", "")
    write(tmp_path, "app/api/doc.py", "def assigned_users(doc):\n    return []\n")
    write(
        tmp_path,
        "app/orders.py",
        "from framework import Document\n\nfrom app.api import doc\nfrom app.api.doc import assigned_users\n\n\n"
        "class Order(Document):\n    def notify(self, order):\n        self.assigned_users()\n"
        "        order.assigned_users()\n        doc.assigned_users(self)\n        return assigned_users(self)\n",
    )
    item = entry(refs(tmp_path, "assigned_users"), "assigned_users")
    orders = "app/orders.py"
    assert uses(item) == {
        (orders, 4, "import", "exact"),
        (orders, 11, "call", "exact"),  # through the module alias
        (orders, 12, "call", "exact"),
    }
    assert item["totals"]["elsewhere"] == 2  # self.… and order.…


def test_php_calls_on_objects_are_not_uses_of_a_function(tmp_path: Path) -> None:
    write(tmp_path, "src/helpers.php", "<?php\nnamespace App;\nfunction render() {}\n")
    write(
        tmp_path,
        "src/View.php",
        "<?php\nnamespace App;\nclass View extends \\Framework\\View {\n"
        "    public function show($x) { $this->render(); $x->render(); static::render(); return render(); }\n}\n",
    )
    item = entry(refs(tmp_path, "render"), "render")
    assert uses(item) == {("src/View.php", 4, "call", "exact")}
    assert item["totals"]["elsewhere"] == 3


def test_ts_calls_on_objects_are_not_uses_of_a_function(tmp_path: Path) -> None:
    write(tmp_path, "src/format.ts", "export function formatDate(d: Date) { return '' }\n")
    write(
        tmp_path,
        "src/use.ts",
        "import * as fmt from './format'\nimport { formatDate } from './format'\n"
        "export function show(moment: any) {\n  moment.formatDate()\n  fmt.formatDate(new Date())\n"
        "  return formatDate(new Date())\n}\n",
    )
    write(
        tmp_path,
        "src/legacy.js",
        "const format = require('./format')\nconst { formatDate: fd } = require('./format')\n"
        "format.formatDate(1)\nfd(2)\n",
    )
    item = entry(refs(tmp_path, "formatDate"), "formatDate")
    assert uses(item) == {
        ("src/use.ts", 2, "import", "exact"),
        ("src/use.ts", 5, "call", "exact"),
        ("src/use.ts", 6, "call", "exact"),
        ("src/legacy.js", 2, "import", "exact"),
        ("src/legacy.js", 3, "call", "exact"),
        ("src/legacy.js", 4, "call", "exact"),
    }
    assert item["totals"]["elsewhere"] == 1  # moment.formatDate()


# --- a class that cannot reach the one asked for -----------------------------------------------


def test_a_class_whose_whole_chain_is_known_and_unrelated_is_not_a_use(tmp_path: Path) -> None:
    write(
        tmp_path,
        "app/Http/UserController.php",
        "<?php\nnamespace App\\Http;\nuse Framework\\BaseController;\n"
        "class UserController extends BaseController {\n    public function destroy(int $id) {}\n}\n",
    )
    write(
        tmp_path,
        "app/Cache/CacheStore.php",
        "<?php\nnamespace App\\Cache;\nclass CacheStore {\n    public function destroy() {}\n"
        "    public function flush() { $this->destroy(); }\n}\n",
    )
    write(
        tmp_path,
        "app/Cache/Pool.php",
        "<?php\nnamespace App\\Cache;\nclass Pool {\n    public function drop() { $this->destroy(); }\n}\n",
    )
    write(
        tmp_path,
        "app/Http/Admin.php",
        "<?php\nnamespace App\\Http;\nclass Admin extends UserController {\n"
        "    public function purge() { $this->destroy(1); }\n}\n",
    )
    result = refs(tmp_path, "UserController::destroy", "destroy")
    method = uses(entry(result, "UserController::destroy"))
    assert method == {("app/Http/Admin.php", 4, "call", "exact")}
    # Bare, the name is CacheStore's too; Pool's chain is whole and defines no destroy.
    bare = uses(entry(result, "destroy"))
    assert bare == {
        ("app/Http/Admin.php", 4, "call", "exact"),
        ("app/Cache/CacheStore.php", 5, "call", "exact"),
    }


# --- re-exports and path aliases -----------------------------------------------------------------


def test_python_package_re_exports_give_the_definition_and_every_spelling(tmp_path: Path) -> None:
    write(tmp_path, "httpx/__init__.py", 'from ._client import Client\n\n__all__ = ["Client"]\n')
    write(tmp_path, "httpx/_client.py", "class Client:\n    pass\n")
    write(tmp_path, "httpx/api.py", "from ._client import Client\n\n\ndef get():\n    return Client()\n")
    write(
        tmp_path,
        "tests/test_client.py",
        "import httpx\nimport httpx._client\nfrom httpx import Client\n\n\n"
        "def test():\n    httpx.Client()\n    httpx._client.Client()\n    return Client()\n",
    )
    test = "tests/test_client.py"
    expected = {
        ("httpx/__init__.py", 1, "import", "exact"),
        ("httpx/api.py", 1, "import", "exact"),
        ("httpx/api.py", 5, "new", "exact"),
        (test, 3, "import", "exact"),
        (test, 7, "new", "exact"),
        (test, 8, "new", "exact"),
        (test, 9, "new", "exact"),
    }
    result = refs(tmp_path, "Client", "httpx.Client")
    for query in ("Client", "httpx.Client"):
        item = entry(result, query)
        assert [d["file"] for d in item["definitions"]] == ["httpx/_client.py"], query
        assert uses(item) == expected, query
        assert item["totals"].get("elsewhere", 0) == 0, query


def test_python_star_re_export_is_followed(tmp_path: Path) -> None:
    write(tmp_path, "src/pkg/__init__.py", "from .models import *\n")
    write(tmp_path, "src/pkg/models.py", "class Repo:\n    pass\n")
    write(tmp_path, "use.py", "import pkg\nfrom pkg import Repo\n\nRepo()\npkg.Repo()\n")
    item = entry(refs(tmp_path, "Repo"), "Repo")  # a src/ layout: `pkg` is src/pkg
    assert uses(item) == {
        ("use.py", 2, "import", "exact"),
        ("use.py", 4, "new", "exact"),
        ("use.py", 5, "new", "exact"),
    }


def test_ts_barrels_re_export_explicitly_and_whole(tmp_path: Path) -> None:
    write(tmp_path, "src/lib/format.ts", "export function formatDate(d: Date) { return '' }\n")
    write(tmp_path, "src/lib/index.ts", "export { formatDate } from './format'\n")
    write(tmp_path, "src/lib/all.ts", "export * from './format'\nexport * as dates from './format'\n")
    write(
        tmp_path,
        "src/app.ts",
        "import { formatDate } from './lib'\nimport { formatDate as fd } from './lib/all'\n"
        "formatDate(new Date())\nfd(new Date())\n",
    )
    item = entry(refs(tmp_path, "formatDate"), "formatDate")
    assert uses(item) == {
        ("src/lib/index.ts", 1, "import", "exact"),
        ("src/app.ts", 1, "import", "exact"),
        ("src/app.ts", 2, "import", "exact"),
        ("src/app.ts", 3, "call", "exact"),
        ("src/app.ts", 4, "call", "exact"),
    }


def test_imports_through_path_aliases_are_exact(tmp_path: Path) -> None:
    app = tmp_path / "web"
    write(app, "package.json", "{}\n")
    write(
        app,
        "jsconfig.json",
        '{\n  // comments are allowed\n  "compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"]},},\n}\n',
    )
    write(
        app,
        "vite.config.js",
        "import path from 'path'\nexport default { resolve: { alias: { '#lib': path.resolve(__dirname, 'src/lib') } } }\n",
    )
    write(app, "src/utils/index.js", "export function formatDate(d) { return d }\n")
    write(app, "src/lib/dates.js", "export { formatDate } from '@/utils'\n")
    write(
        app,
        "src/views/Post.vue",
        "<template>{{ formatDate(post.at) }}</template>\n<script setup>\nimport { formatDate } from '@/utils'\n</script>\n",
    )
    write(app, "src/api.js", "import { formatDate } from '#lib/dates'\nexport const at = formatDate(1)\n")
    for root in ("web", "web/src"):
        item = entry(refs(tmp_path, "formatDate", root=root), "formatDate")
        rows = {(f.removeprefix("web/"), line, kind, match) for f, line, kind, match in uses(item)}
        assert rows == {
            ("src/lib/dates.js", 1, "import", "exact"),
            ("src/views/Post.vue", 1, "reference", "exact"),
            ("src/views/Post.vue", 3, "import", "exact"),
            ("src/api.js", 1, "import", "exact"),
            ("src/api.js", 2, "call", "exact"),
        }, root
        assert item["totals"].get("elsewhere", 0) == 0


# --- the ambiguity note's suggestion narrows ----------------------------------------------------


def _suggested(note: str) -> str:
    return note.split("(e.g. ", 1)[1].split(")", 1)[0]


def _follow(root: Path, name: str) -> list[dict[str, object]]:
    """Ask the bare name, then every spelling its note lists; each must denote one place."""
    note = next(n for n in refs(root, name)["notes"] if " is defined " in n)
    listed = [part.split(" (", 1)[0] for part in note.split(": ", 1)[1].split("; ", 1)[0].split(", ")]
    assert _suggested(note) == listed[0] and listed[0] != name
    answers = []
    for spelled in listed:
        item = entry(refs(root, spelled), spelled)
        assert len({(d["file"], d["qname"]) for d in item["definitions"]}) == 1, spelled
        answers.append(item)
    return answers


def test_the_ambiguity_note_suggests_a_spelling_that_narrows(tmp_path: Path) -> None:
    write(tmp_path, "app/records.py", "def copy_from_parent(doc):\n    return doc\n")
    write(tmp_path, "app/utils.py", "def copy_from_parent(doc):\n    return doc\n")
    write(tmp_path, "lib/legacy/records.py", "def copy_from_parent(doc):\n    return doc\n")
    write(tmp_path, "app/models.py", "class Repo:\n    def copy_from_parent(self):\n        return 1\n")
    write(tmp_path, "use.py", "from app.records import copy_from_parent\n\ncopy_from_parent(1)\n")
    answers = _follow(tmp_path, "copy_from_parent")
    assert [a["symbol"] for a in answers] == [
        "Repo.copy_from_parent",
        "app.records.copy_from_parent",
        "utils.copy_from_parent",
        "legacy.records.copy_from_parent",
    ]
    assert answers[1]["totals"]["exact"] == 2


def test_the_php_ambiguity_note_suggests_namespaced_spellings(tmp_path: Path) -> None:
    write(tmp_path, "a.php", "<?php\nnamespace App\\Util;\nfunction render() {}\n")
    write(
        tmp_path,
        "b.php",
        "<?php\nnamespace App\\View;\nfunction render() {}\nclass Page { function render() {} }\n",
    )
    write(tmp_path, "c.php", "<?php\nnamespace Lib\\View;\nclass Page { function render() {} }\n")
    answers = _follow(tmp_path, "render")
    assert [a["symbol"] for a in answers] == [
        "Util\\render",
        "View\\render",
        "App\\View\\Page::render",
        "Lib\\View\\Page::render",
    ]


def test_python_a_function_defined_in_a_function_is_its_own(tmp_path: Path) -> None:
    write(tmp_path, "markup.py", "def escape(text):\n    return text\n")
    write(
        tmp_path,
        "jupyter.py",
        "def render(t):\n    def escape(x):\n        return x\n\n    return escape(t)\n\n\n"
        "def other(t):\n    from markup import escape\n\n    return escape(t)\n",
    )
    result = refs(tmp_path, "markup.escape", "render.escape")
    assert uses(entry(result, "markup.escape")) == {
        ("jupyter.py", 9, "import", "exact"),
        ("jupyter.py", 11, "call", "exact"),
    }
    assert uses(entry(result, "render.escape")) == {("jupyter.py", 5, "call", "exact")}


def test_framework_base_classes_end_a_chain_and_do_not_hide_the_tree_s_own(tmp_path: Path) -> None:
    write(tmp_path, "app/__init__.py", "")
    write(tmp_path, "app/base.py", "class Base:\n    pass\n")
    write(
        tmp_path,
        "app/mixins.py",
        "class CRUDMixin:\n    @classmethod\n    def get_all(cls):\n        return []\n",
    )
    write(
        tmp_path,
        "app/views.py",
        "from flask.views import MethodView\nfrom sqlalchemy.orm import DeclarativeBase\n\n"
        "from app.base import Base\nfrom app.mixins import CRUDMixin\n\n\n"
        "class Group(DeclarativeBase, CRUDMixin):\n    pass\n\n\n"
        "class EditPost(MethodView):\n    def form(self):\n        return Group.get_all()\n\n\n"
        "class Login(MethodView):\n    def form(self):\n        return 1\n\n    def post(self):\n        return self.form()\n\n\n"
        "class Register(Base):\n    def form(self):\n        return 2\n\n    def post(self):\n        return self.form()\n",
    )
    result = refs(tmp_path, "CRUDMixin.get_all", "EditPost.form")
    # Group's first base is a framework's: the mixin still gives it get_all.
    assert uses(entry(result, "CRUDMixin.get_all")) == {("app/views.py", 14, "call", "exact")}
    # Login's chain ends in flask (not in the tree): another hierarchy. Register's parent is in
    # a file of the tree that does not mention `form`: it might descend from EditPost.
    assert uses(entry(result, "EditPost.form")) == {("app/views.py", 30, "call", "name")}
