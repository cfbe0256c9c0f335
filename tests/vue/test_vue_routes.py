"""`vue_routes` on router fixtures of every style docs/vue.md names, real-world shapes, errors and
limits."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sofia.errors import render
from sofia.providers.contract import ProviderError
from sofia.providers.vue.routes import join_path
from tests.helpers import run_sf
from tests.helpers import write_files as make
from tests.vue.helpers import routes_of


def table(result: dict[str, Any]) -> list[tuple[Any, ...]]:
    """(path, name, component, meta, depth, redirect, alias) per row, elided columns as defaults."""
    return [
        (
            r["path"],
            r.get("name", ""),
            r.get("component", ""),
            r.get("meta", ""),
            r.get("depth", 0),
            r.get("redirect", ""),
            r.get("alias", ""),
        )
        for r in result["routes"]
    ]


VIEWS = [
    "src/views/LoginView.vue",
    "src/views/DashboardView.vue",
    "src/views/MyTasksView.vue",
    "src/layouts/AppLayout.vue",
]


def with_views(files: dict[str, str], views: list[str] = VIEWS) -> dict[str, str]:
    return {**{v: "<template><div/></template>\n" for v in views}, **files}


REFERENCE_SAMPLE = """import { createRouter, createWebHistory } from 'vue-router'
import AppLayout from '@/layouts/AppLayout.vue'

const router = createRouter({
  history: createWebHistory(),
  routes: [
    {
      path: '/login',
      name: 'login',
      component: () => import('@/views/LoginView.vue'),
      meta: { public: true },
    },
    {
      path: '/',
      component: AppLayout,
      children: [
        { path: '', name: 'dashboard', component: () => import('@/views/DashboardView.vue') },
        {
          path: 'tasks',
          name: 'my-tasks',
          component: () => import('@/views/MyTasksView.vue'),
          meta: { requiresRole: 'agent' },
        },
      ],
    },
  ],
})

export default router
"""


def test_reference_four_route_sample(tmp_path: Path) -> None:
    make(tmp_path, with_views({"src/router/index.ts": REFERENCE_SAMPLE}))
    result = routes_of(tmp_path)
    assert table(result) == [
        ("/login", "login", "src/views/LoginView.vue", "public=true", 0, "", ""),
        ("/", "", "src/layouts/AppLayout.vue", "", 0, "", ""),
        ("/", "dashboard", "src/views/DashboardView.vue", "", 1, "", ""),
        ("/tasks", "my-tasks", "src/views/MyTasksView.vue", "requiresRole=agent", 1, "", ""),
    ]
    assert result["files"] == ["src/router/index.ts"]
    assert "omitted" not in result  # every row is shown: routes[4] says how many
    assert result["notes"] == []
    assert result["stats"]["raw_tok"] > 0


@pytest.mark.parametrize(
    ("parent", "child", "full"),
    [
        ("", "/login", "/login"),
        ("/", "", "/"),
        ("/", "tasks", "/tasks"),
        ("/admin", "users", "/admin/users"),
        ("/admin", "/abs", "/abs"),
        ("", "", "/"),
        ("/admin/", "users", "/admin/users"),
    ],
)
def test_join_table(parent: str, child: str, full: str) -> None:
    assert join_path(parent, child) == full


def test_typed_routes_constant(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.ts": """import { createRouter, createWebHistory, type RouteRecordRaw } from 'vue-router'
import Home from '../views/Home.vue'

const routes: RouteRecordRaw[] = [
  { path: '/', name: 'home', component: Home },
  { path: '/about', name: 'about', component: () => import('../views/About.vue') },
]

export default createRouter({ history: createWebHistory(), routes })
""",
            "src/views/Home.vue": "",
            "src/views/About.vue": "",
        },
    )
    assert table(routes_of(tmp_path)) == [
        ("/", "home", "src/views/Home.vue", "", 0, "", ""),
        ("/about", "about", "src/views/About.vue", "", 0, "", ""),
    ]


def test_satisfies_and_as_are_unwrapped(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "router.ts": """const routes = [
  { path: '/a', name: 'a', component: () => import('./A.vue') },
] satisfies RouteRecordRaw[]
export const router = createRouter({ routes: routes as RouteRecordRaw[] })
""",
            "A.vue": "",
        },
    )
    assert table(routes_of(tmp_path)) == [("/a", "a", "A.vue", "", 0, "", "")]


def test_the_angle_bracket_assertion_is_unwrapped_as_as_is(tmp_path: Path) -> None:
    """`<RouteRecordRaw>{ ... }` (TypeScript's older assertion) is the object inside it, in the table
    itself, in a module's export and around a spread, exactly as `{ ... } as RouteRecordRaw`."""
    make(
        tmp_path,
        {
            "router.ts": """import about from './about'
const routes = [
  <RouteRecordRaw>{ path: '/', name: 'home', component: () => import('./Home.vue') },
  about,
  ...(<RouteRecordRaw[]>[{ path: '/c', name: 'c', component: () => import('./C.vue') }]),
]
export const router = createRouter({ routes: <RouteRecordRaw[]>routes })
""",
            "about.ts": "export default <RouteRecordRaw>{ path: '/about', name: 'about', component: () => import('./About.vue') }\n",
            "Home.vue": "",
            "About.vue": "",
            "C.vue": "",
        },
    )
    result = routes_of(tmp_path)
    assert table(result) == [
        ("/", "home", "Home.vue", "", 0, "", ""),
        ("/about", "about", "About.vue", "", 0, "", ""),
        ("/c", "c", "C.vue", "", 0, "", ""),
    ]
    assert result["notes"] == []


def test_spread_modules_with_a_reexport_chain(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.ts": """import { createRouter } from 'vue-router'
import adminRoutes from './modules/admin'
import { shopRoutes } from './modules'

export default createRouter({
  routes: [
    { path: '/', name: 'home', component: () => import('@/views/Home.vue') },
    ...adminRoutes,
    { path: '/shop', component: () => import('@/views/Shop.vue'), children: [...shopRoutes] },
  ],
})
""",
            "src/router/modules/admin.ts": """const adminRoutes = [
  { path: '/admin', name: 'admin', component: () => import('@/views/admin/Dashboard.vue') },
  { path: '/admin/users/:id', name: 'admin-user', component: () => import('@/views/admin/UserView.vue') },
]
export default adminRoutes
""",
            "src/router/modules/index.ts": "export { routes as shopRoutes } from './shop'\n",
            "src/router/modules/shop.ts": """export const routes = [
  { path: 'cart', name: 'cart', component: () => import('@/views/shop/Cart.vue') },
]
""",
            "src/views/Home.vue": "",
            "src/views/Shop.vue": "",
            "src/views/admin/Dashboard.vue": "",
            "src/views/admin/UserView.vue": "",
            "src/views/shop/Cart.vue": "",
        },
    )
    result = routes_of(tmp_path)
    assert table(result) == [
        ("/", "home", "src/views/Home.vue", "", 0, "", ""),
        ("/admin", "admin", "src/views/admin/Dashboard.vue", "", 0, "", ""),
        ("/admin/users/:id", "admin-user", "src/views/admin/UserView.vue", "", 0, "", ""),
        ("/shop", "", "src/views/Shop.vue", "", 0, "", ""),
        ("/shop/cart", "cart", "src/views/shop/Cart.vue", "", 1, "", ""),
    ]
    # modules holding routes first, in the order of their first route, then the others read
    assert result["files"] == [
        "src/router/index.ts",
        "src/router/modules/admin.ts",
        "src/router/modules/shop.ts",
        "src/router/modules/index.ts",
    ]
    assert [r.get("file", 0) for r in result["routes"]] == [0, 1, 1, 0, 2]


def test_one_line_route_objects_keep_their_paths(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.js": "export default createRouter({ routes: [{ path: '/a', name: 'a' }, "
            "{ path: '/b', name: 'b', children: [{ path: 'c', name: 'c' }] }] })\n"
        },
    )
    assert [(r["path"], r["name"]) for r in routes_of(tmp_path)["routes"]] == [
        ("/a", "a"),
        ("/b", "b"),
        ("/b/c", "c"),
    ]


def test_deep_children(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "router.ts": """export default [
  { path: '/a', children: [
    { path: 'b', children: [
      { path: 'c', children: [
        { path: '/absolute', name: 'abs' },
        { path: 'd', name: 'deep' },
      ] },
    ] },
  ] },
]
"""
        },
    )
    assert [(r["path"], r.get("depth", 0)) for r in routes_of(tmp_path)["routes"]] == [
        ("/a", 0),
        ("/a/b", 1),
        ("/a/b/c", 2),
        ("/absolute", 3),
        ("/a/b/c/d", 3),
    ]


def test_redirect_alias_and_meta_forms(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "router.ts": """const HOME = '/home'
export const routes = [
  { path: '/', redirect: HOME },
  { path: '/old', redirect: { name: 'home', query: { from: 'old' } } },
  { path: '/fn', redirect: (to) => ({ path: '/search', query: { q: to.params.q } }) },
  { path: '/home', name: 'home', alias: '/start' },
  { path: '/users', alias: ['/people', '/members'],
    meta: { title: 'Users', order: 3, hidden: false, roles: ['admin', "editor"], nav: { icon: 'user', pinned: true },
            guard: canSee(), nothing: null } },
]
"""
        },
    )
    rows = {r["path"]: r for r in routes_of(tmp_path)["routes"]}
    assert rows["/"]["redirect"] == "/home"
    assert rows["/old"]["redirect"] == "name=home;query={from=old}"
    assert rows["/fn"]["redirect"] == "(function)"
    assert rows["/home"]["alias"] == "/start"
    assert rows["/users"]["alias"] == "/people;/members"
    assert rows["/users"]["meta"] == (
        "title=Users;order=3;hidden=false;roles=[admin,editor];nav={icon=user;pinned=true};guard=canSee();nothing=null"
    )


def test_lazy_component_forms_and_tsconfig_paths(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "tsconfig.json": """{
  // comments are allowed in tsconfig
  "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["app/*"], "#views/*": ["app/views/*"], }, },
}
""",
            "app/router/index.ts": """import { defineAsyncComponent } from 'vue'
import Shell from '@/Shell.vue'
import { Sidebar as Side } from '@/parts'
const Local = { render: () => null }
export default createRouter({ routes: [
  { path: '/a', component: () => import(/* webpackChunkName: "a" */ '@/views/A.vue') },
  { path: '/b', component: async () => import('#views/B.vue') },
  { path: '/c', component: defineAsyncComponent(() => import('@/views/C.vue')) },
  { path: '/d', component: () => { return import('@/views/D.vue') } },
  { path: '/e', component: Shell },
  { path: '/f', component: Local },
  { path: '/g', components: { default: () => import('@/views/G.vue'), sidebar: Side } },
  { path: '/h', component: () => import('some-package/View.vue') },
  { path: '/i', component: defineAsyncComponent({ loader: () => import('@/views/I.vue') }) },
] })
""",
            "app/Shell.vue": "",
            "app/parts/index.ts": "export { default as Sidebar } from './Sidebar.vue'\n",
            "app/parts/Sidebar.vue": "",
            **{f"app/views/{name}.vue": "" for name in "ABCDGI"},
        },
    )
    components = {r["path"]: r.get("component", "") for r in routes_of(tmp_path)["routes"]}
    assert components == {
        "/a": "app/views/A.vue",
        "/b": "app/views/B.vue",
        "/c": "app/views/C.vue",
        "/d": "app/views/D.vue",
        "/e": "app/Shell.vue",
        "/f": "Local",
        "/g": "default=app/views/G.vue; sidebar=app/parts/Sidebar.vue",
        "/h": "some-package/View.vue",
        "/i": "app/views/I.vue",
    }


def test_js_router_is_found_and_parsed(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router.js": """import VueRouter from 'vue-router'
const routes = [{ path: '/', name: 'home', component: () => import('./views/Home.vue') }]
export default new VueRouter({ mode: 'history', routes })
""",
            "src/views/Home.vue": "",
        },
    )
    assert table(routes_of(tmp_path)) == [("/", "home", "src/views/Home.vue", "", 0, "", "")]


def test_vue_element_admin_style(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.js": """import Vue from 'vue'
import Router from 'vue-router'
import Layout from '@/layout'

export const constantRoutes = [
  { path: '/login', component: () => import('@/views/login/index'), hidden: true },
  {
    path: '/',
    component: Layout,
    redirect: '/dashboard',
    children: [{
      path: 'dashboard',
      component: () => import('@/views/dashboard/index'),
      name: 'Dashboard',
      meta: { title: 'Dashboard', icon: 'dashboard', affix: true }
    }]
  }
]

export const asyncRoutes = [
  { path: '/permission', component: Layout, meta: { title: 'Permission', roles: ['admin', 'editor'] } },
  { path: '*', redirect: '/404', hidden: true }
]

const createRouter = () => new Router({
  scrollBehavior: () => ({ y: 0 }),
  routes: constantRoutes
})

const router = createRouter()
export default router
""",
            "src/layout/index.vue": "",
            "src/views/login/index.vue": "",
            "src/views/dashboard/index.vue": "",
        },
    )
    result = routes_of(tmp_path)
    # asyncRoutes is added at run time by the permission guard: named, not taken as absent
    assert result["notes"] == [
        "1 route array not followed (exported, not in the table): "
        "src/router/index.js:20 asyncRoutes (2 routes)"
    ]
    rows = table(result)
    assert rows == [
        ("/login", "", "src/views/login/index.vue", "", 0, "", ""),
        ("/", "", "src/layout/index.vue", "", 0, "/dashboard", ""),
        (
            "/dashboard",
            "Dashboard",
            "src/views/dashboard/index.vue",
            "title=Dashboard;icon=dashboard;affix=true",
            1,
            "",
            "",
        ),
    ]


def test_a_glob_matching_nothing_is_named(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.ts": """const modules = import.meta.glob('./modules/**/*.ts', { eager: true })
const routeModuleList = Object.keys(modules).map((key) => modules[key].default)
export const basicRoutes = [
  { path: '/', name: 'Root', redirect: '/dashboard' },
  ...routeModuleList,
]
export const router = createRouter({ routes: basicRoutes })
"""
        },
    )
    result = routes_of(tmp_path)
    assert table(result) == [("/", "Root", "", "", 0, "/dashboard", "")]
    assert result["notes"] == [
        "1 loader not followed (they match no file): src/router/index.ts:1 "
        "import.meta.glob('./modules/**/*.ts', { eager: true })"
    ]


def test_monorepo_fewest_segments_wins_and_the_other_is_noted(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "apps/web/src/router/index.ts": "export default [{ path: '/web' }]\n",
            "apps/admin/src/router/index.ts": "export default [{ path: '/admin' }]\n",
            "shop/router.ts": "export default [{ path: '/shop' }]\n",
            "node_modules/lib/router.ts": "export default [{ path: '/nope' }]\n",
            "dist/router.js": "export default [{ path: '/nope' }]\n",
        },
    )
    result = routes_of(tmp_path)
    assert [r["path"] for r in result["routes"]] == ["/shop"]
    assert (
        "also found: apps/admin/src/router/index.ts, apps/web/src/router/index.ts; pass file=… to choose"
        in (result["notes"])
    )
    chosen = routes_of(tmp_path, file="apps/admin/src/router/index.ts", root="apps/admin")
    assert [r["path"] for r in chosen["routes"]] == ["/admin"]
    assert chosen["files"] == ["apps/admin/src/router/index.ts"], "relative to the workspace, not to root"


def test_tie_prefers_index_ts(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.js": "export default [{ path: '/js' }]\n",
            "src/router/index.ts": "export default [{ path: '/ts' }]\n",
        },
    )
    assert [r["path"] for r in routes_of(tmp_path)["routes"]] == ["/ts"]


def test_syntax_error_inside_a_route_names_file_and_line(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.ts": """export default [
  { path: '/ok', name: 'ok' },
  { path: '/broken', name: 'broken' component: X },
]
"""
        },
    )
    with pytest.raises(ProviderError) as caught:
        routes_of(tmp_path)
    assert caught.value.message == "src/router/index.ts:3: cannot parse the route definition"


def test_syntax_error_in_a_guard_is_only_a_note(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.ts": """const routes = [{ path: '/', name: 'home' }]
const router = createRouter({ routes })
router.beforeEach((to) => { if (to.meta. ) return false })
export default router
"""
        },
    )
    result = routes_of(tmp_path)
    assert [r["path"] for r in result["routes"]] == ["/"]
    assert result["notes"] == [
        "1 syntax error not followed (outside the routes, ignored): src/router/index.ts:3"
    ]


def test_import_cycle_terminates(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "router.ts": "import { a } from './a'\nexport default createRouter({ routes: a })\n",
            "a.ts": "import { b } from './b'\nexport const a = b\n",
            "b.ts": "import { a } from './a'\nexport const b = a\n",
        },
    )
    result = routes_of(tmp_path)
    assert result["routes"] == []
    assert result["notes"] == [
        "1 route table not followed (a is defined through itself (an import cycle?)): b.ts:2 a"
    ]


def test_no_route_array_and_empty_routes(tmp_path: Path) -> None:
    make(tmp_path / "none", {"router.ts": "export const x = 1\n"})
    with pytest.raises(ProviderError) as caught:
        routes_of(tmp_path / "none")
    assert caught.value.message == "no route array in router.ts"
    assert "createRouter({ routes })" in caught.value.hint
    make(tmp_path / "empty", {"router.ts": "export default createRouter({ routes: [] })\n"})
    result = routes_of(tmp_path / "empty")
    assert result["routes"] == []
    assert result["notes"] == []


def test_no_router_in_a_large_tree_is_a_named_error(tmp_path: Path) -> None:
    tree = tmp_path / "big"
    for i in range(200):
        directory = tree / f"pkg{i:03}" / "src"
        directory.mkdir(parents=True)
        for j in range(50):
            (directory / f"mod{j}.ts").write_text("export const x = 1\n")
    (tree / "node_modules" / "vue-router").mkdir(parents=True)
    (tree / "node_modules" / "vue-router" / "router.ts").write_text("export default []\n")
    with pytest.raises(ProviderError) as caught:
        routes_of(tree)
    assert caught.value.message == "no router file under ."
    assert "pass file=… (src/router.ts, say)" in str(caught.value)


def test_missing_file_and_root(tmp_path: Path) -> None:
    with pytest.raises(ProviderError, match="router file not found: nope.ts"):
        routes_of(tmp_path, file="nope.ts")
    with pytest.raises(ProviderError, match="root not found: nowhere"):
        routes_of(tmp_path, root="nowhere")


def test_imports_outside_root_are_not_followed(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "shared/routes.ts": "export default [{ path: '/shared' }]\n",
            "app/router.ts": "import shared from '../shared/routes'\nexport default createRouter({ routes: [...shared] })\n",
        },
    )
    result = routes_of(tmp_path, root="app")
    assert result["routes"] == []
    assert result["notes"] == [
        "1 module not followed (outside the root): shared/routes.ts",
        "1 route entry not followed (shared/routes.ts not read): app/router.ts:2 shared",
    ]


def test_budget_cuts_rows_from_the_end(tmp_path: Path) -> None:
    entries = ",\n".join(f"  {{ path: '/page{i}', name: 'page-{i}' }}" for i in range(400))
    make(tmp_path, {"router.ts": f"export default [\n{entries}\n]\n"})
    result = routes_of(tmp_path, budget=1000)
    from sofia.output.budget import cost

    assert cost(result) <= 1000
    shown = len(result["routes"])
    assert 0 < shown < 400
    assert result["omitted"] == {"routes": 400 - shown} and "total" not in result
    assert result["routes"][-1]["path"] == f"/page{shown - 1}"
    assert result["notes"][-1] == (
        f"routes: showing {shown} of 400 routes (budget 1000 tok); pass file=… for a single route module"
    )


def test_cli_toon_json_md_and_determinism(tmp_path: Path) -> None:
    make(tmp_path, with_views({"src/router/index.ts": REFERENCE_SAMPLE}))
    toon = run_sf("vue", "routes", cwd=tmp_path)
    assert toon.returncode == 0, toon.stderr
    assert toon.stdout.splitlines()[:2] == [
        "files[1]: src/router/index.ts",
        "routes[4]{path,name,component,meta,depth}:",
    ]
    assert "stats" not in toon.stdout
    as_json = run_sf("vue", "routes", "--json", cwd=tmp_path)
    assert len(json.loads(as_json.stdout)["routes"]) == 4
    assert as_json.stdout == run_sf("vue", "routes", "--json", cwd=tmp_path).stdout
    markdown = run_sf("vue", "routes", "--md", cwd=tmp_path)
    assert "| path | name | component | meta | depth |" in markdown.stdout
    missing = run_sf("vue", "routes", cwd=tmp_path / "src" / "views")
    assert missing.returncode == 1
    assert missing.stderr.startswith("sf vue routes: error: no router file under .")


@pytest.mark.parametrize(
    "rel",
    [
        "src/routers/index.ts",
        "src/routes/index.js",
        "routers/index.mjs",
        "src/routes.ts",
        "routers.js",
        "src/router/index.mts",
    ],
)
def test_usual_router_locations_are_found(tmp_path: Path, rel: str) -> None:
    make(
        tmp_path, {rel: "export default [{ path: '/found' }]\n", "src/views/index.ts": "export const x = 1\n"}
    )
    result = routes_of(tmp_path)
    assert result["files"] == [rel]
    assert [r["path"] for r in result["routes"]] == ["/found"]


def test_a_router_directory_wins_over_a_routes_module_at_the_same_depth(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/routes.ts": "export default [{ path: '/routes-module' }]\n",
            "src/router/index.ts": "export default [{ path: '/router-dir' }]\n",
        },
    )
    result = routes_of(tmp_path)
    assert [r["path"] for r in result["routes"]] == ["/router-dir"]
    assert result["notes"] == ["also found: src/routes.ts; pass file=… to choose"]


def test_no_router_names_every_location_tried(tmp_path: Path) -> None:
    make(tmp_path, {"src/main.ts": "export const x = 1\n", "src/index.ts": "export {}\n"})
    with pytest.raises(ProviderError) as caught:
        routes_of(tmp_path)
    assert caught.value.message == "no router file under ."
    assert render(caught.value.hint) == (
        "looked for router|routers|routes/index.{ts,js,mts,mjs} and router|routers|routes.{ts,js,mts,mjs} "
        "at any depth (src/ or not) outside node_modules, dist and ignored directories; "
        "pass file=… (src/router.ts, say)"
    )


def test_children_nested_past_the_limit_are_named_not_lost(tmp_path: Path) -> None:
    nested = "{ path: 'a', children: [" * 100 + "{ path: 'x' }" + "] }" * 100
    make(tmp_path, {"router.ts": f"export default [{nested}]\n"})
    result = routes_of(tmp_path)
    assert len(result["routes"]) == 64
    assert result["routes"][-1]["depth"] == 63
    assert len(result["notes"]) == 1
    assert result["notes"][0].startswith(
        "1 children list not followed (nested deeper than 64 levels): router.ts:1 "
    )


def test_expressions_nested_too_deep_are_named_not_a_crash(tmp_path: Path) -> None:
    nested = "[" * 400 + "{ path: '/deep' }" + "]" * 400
    make(tmp_path, {"router.ts": f"export default [{{ path: '/x' }}, ...{nested}]\n"})
    result = routes_of(tmp_path)
    assert [r["path"] for r in result["routes"]] == ["/x"]
    assert result["notes"][0].startswith(
        "1 route entry not followed (an expression nested too deep): router.ts:1 [[["
    )


def test_enum_paths_and_names_are_resolved(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/names.ts": "export enum RouteName { Home = 'home', Login = 'login' }\n"
            "export const enum RoutePath { Home = '/', Login = `/login` }\n",
            "src/router/index.ts": """import { RouteName, RoutePath } from './names'
export default createRouter({ routes: [
  { path: RoutePath.Home, name: RouteName.Home },
  { path: RoutePath.Login, name: RouteName.Login, redirect: RoutePath.Home },
] })
""",
        },
    )
    result = routes_of(tmp_path)
    assert table(result) == [("/", "home", "", "", 0, "", ""), ("/login", "login", "", "", 0, "/", "")]
    assert result["notes"] == []


def test_a_server_routes_module_is_passed_over_for_the_vue_router(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "server/routes/index.js": "const express = require('express')\nconst router = express.Router()\n"
            "router.get('/api/users', list)\nmodule.exports = router\n",
            "client/src/router/index.ts": "export default createRouter({ routes: [{ path: '/app' }] })\n",
        },
    )
    result = routes_of(tmp_path)
    assert [r["path"] for r in result["routes"]] == ["/app"]
    assert result["files"] == ["client/src/router/index.ts"]
    assert result["notes"] == ["not a router (no route table): server/routes/index.js"]


def test_no_candidate_with_a_table_names_each(tmp_path: Path) -> None:
    make(tmp_path, {"routes/index.js": "module.exports = 1\n", "src/router.ts": "export const x = 1\n"})
    with pytest.raises(ProviderError) as caught:
        routes_of(tmp_path)
    assert caught.value.message == "no route array in routes/index.js (nor in src/router.ts)"


def test_routes_made_by_a_helper_function(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.ts": """import Home from '@/views/Home.vue'
const page = (path: string, name: string, component = Home) => ({ path, name, component })
const prefix = '/docs'
export default createRouter({ routes: [page('/', 'home'), page(`${prefix}/intro`, 'intro')] })
""",
            "src/views/Home.vue": "",
        },
    )
    result = routes_of(tmp_path)
    assert table(result) == [
        ("/", "home", "src/views/Home.vue", "", 0, "", ""),
        ("/docs/intro", "intro", "src/views/Home.vue", "", 0, "", ""),
    ]
    assert result["notes"] == []
