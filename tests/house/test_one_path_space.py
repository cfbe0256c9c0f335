"""One path space, in process (where no server confines a path): every path a tool prints is
relative to the workspace — for a `root` in a subdirectory, a file as `root`, and a `root` outside
the workspace (`../other`, as the CLI allows) — and goes back into `code` as it is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sofia.providers.contract import Context
from sofia.providers.registry import by_name

APP = """<?php
namespace Shop;

class Cart
{
    public function total(): int
    {
        return $this->marker;
    }
}
"""
USES = """<?php
namespace Shop;

function checkout(Cart $cart): int
{
    return $cart->total(); // marker
}
"""
ROUTER = """import Home from '../views/Home.vue'
export default [{ path: '/', component: Home }, { path: '/about', component: () => import('@/views/About.vue') }]
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """`ws` is the workspace; `ws/shop` a package with PHP and a Vue app; `other` lies outside."""
    ws = tmp_path / "ws"
    files = {
        ws / "shop" / "composer.json": json.dumps(
            {"name": "acme/shop", "autoload": {"psr-4": {"Shop\\": "src/"}}}
        ),
        ws / "shop" / "src" / "Cart.php": APP,
        ws / "shop" / "src" / "checkout.php": USES,
        ws / "shop" / "web" / "src" / "router" / "index.ts": ROUTER,
        ws / "shop" / "web" / "src" / "views" / "Home.vue": "<template><p>marker</p></template>\n",
        ws / "shop" / "web" / "src" / "views" / "About.vue": "<template><p>about</p></template>\n",
        tmp_path / "other" / "Lib.php": "<?php\nfunction lib(): int { return 1; } // marker\n",
        tmp_path / "other" / "composer.json": json.dumps({"name": "acme/other"}),
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return ws


def call(tool: str, workspace: Path, **arguments: Any) -> dict[str, Any]:
    provider = by_name(tool)
    assert provider is not None, tool
    result = provider.run(provider.params.model_validate(arguments), Context(root=workspace, budget=None))
    assert isinstance(result, dict)
    return result


def readable(workspace: Path, path: str) -> None:
    """`path` as printed goes back into `code`, and names the file `code` then prints."""
    result = call("code", workspace, files=[path])
    assert [document["path"] for document in result["files"]] == [path]


def grep_paths(result: dict[str, Any]) -> list[str]:
    return [file for pattern in result["patterns"] for file in pattern["hits"]]


@pytest.mark.parametrize(
    ("root", "expected"),
    [
        ("shop", ["shop/src/Cart.php", "shop/src/checkout.php", "shop/web/src/views/Home.vue"]),
        ("shop/src/", ["shop/src/Cart.php", "shop/src/checkout.php"]),
        ("./shop/src/Cart.php", ["shop/src/Cart.php"]),
        ("../other", ["../other/Lib.php"]),
    ],
)
def test_grep_prints_workspace_paths_for_any_root(workspace: Path, root: str, expected: list[str]) -> None:
    result = call("grep", workspace, patterns=["marker"], root=root)
    assert result["root"] == root, "root is echoed as the caller gave it"
    assert grep_paths(result) == expected
    for path in expected:
        readable(workspace, path)


def test_refs_prints_workspace_paths(workspace: Path) -> None:
    result = call("refs", workspace, symbols=["Cart::total"], root="shop/src")
    (entry,) = result["symbols"]
    assert [d["file"] for d in entry["definitions"]] == ["shop/src/Cart.php"]
    assert list(entry["exact"]) == ["shop/src/checkout.php"]
    readable(workspace, "shop/src/checkout.php")
    outside = call("refs", workspace, symbols=["lib"], root="../other")
    assert [d["file"] for d in outside["symbols"][0]["definitions"]] == ["../other/Lib.php"]


def test_code_prints_workspace_paths_for_paths_outside_it(workspace: Path) -> None:
    assert [d["path"] for d in call("code", workspace, files=["../other/Lib.php"])["files"]] == [
        "../other/Lib.php"
    ]
    assert [d["path"] for d in call("code", workspace, files=["../other"])["files"]] == ["../other/Lib.php"]
    inside = call("code", workspace, files=[str(workspace / "shop" / "src" / "Cart.php")])
    assert [d["path"] for d in inside["files"]] == ["shop/src/Cart.php"]


def test_vue_routes_prints_workspace_paths_not_root_paths(workspace: Path) -> None:
    result = call("vue_routes", workspace, root="shop/web")
    assert result["files"] == ["shop/web/src/router/index.ts"]
    components = [route["component"] for route in result["routes"]]
    assert components == ["shop/web/src/views/Home.vue", "shop/web/src/views/About.vue"]
    for path in [*result["files"], *components]:
        readable(workspace, path)


def test_composer_dirs_are_workspace_paths_and_go_back_as_roots(workspace: Path) -> None:
    listed = call("composer_ls", workspace, root="shop")
    assert listed["root"] == "shop"
    assert [row["dir"] for row in listed["packages"]] == ["shop"]
    shown = call("composer_show", workspace, package="acme/shop", root="shop")
    assert shown["dir"] == "shop"
    again = call("composer_ls", workspace, root=shown["dir"])
    assert [row["name"] for row in again["packages"]] == ["acme/shop"]
    outside = call("composer_ls", workspace, root="../other")
    assert [row["dir"] for row in outside["packages"]] == ["../other"]
    readable(workspace, "../other/Lib.php")
