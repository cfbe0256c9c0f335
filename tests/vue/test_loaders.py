"""Route modules loaded by glob or context: every loader form of the admin templates, the ways the
modules are folded into the table, the bundlers' matching rules, and what cannot be followed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sofia.providers.vue.globs import GlobError, expand_braces, js_regex, vite_glob, webpack_context
from tests.helpers import write_files as make
from tests.vue import admin
from tests.vue.helpers import routes_of


def rows(result: dict[str, Any]) -> list[tuple[Any, ...]]:
    """(path, name, component, depth, redirect, alias, module file) per row."""
    return [
        (
            r["path"],
            r.get("name", ""),
            r.get("component", ""),
            r.get("depth", 0),
            r.get("redirect", ""),
            r.get("alias", ""),
            result["files"][r.get("file", 0)],
        )
        for r in result["routes"]
    ]


@pytest.mark.parametrize("layout", admin.LAYOUTS)
def test_every_loader_form_finds_every_route_with_its_module(tmp_path: Path, layout: str) -> None:
    admin.build(tmp_path, layout)
    result = routes_of(tmp_path)
    assert rows(result) == admin.expected(layout)
    assert result["notes"] == []
    assert result["files"][0] == "src/router/index.ts"
    assert {
        "src/router/modules/dashboard.ts",
        "src/router/modules/system.ts",
        "src/router/modules/demo.ts",
    } <= set(result["files"])


def test_the_loaded_modules_are_not_offered_as_other_routers(tmp_path: Path) -> None:
    admin.build(tmp_path, "vite-eager")
    make(tmp_path, {"src/router/routes/index.ts": "export default []\n"})
    make(tmp_path, {"apps/other/router.ts": "export default [{ path: '/x' }]\n"})
    result = routes_of(tmp_path)
    assert result["notes"] == [
        "also found: src/router/routes/index.ts, apps/other/router.ts; pass file=… to choose"
    ]


RUNTIME = """import { createRouter, createWebHistory } from 'vue-router'
import { getMenus } from '@/api/menu'

const base = import.meta.env.VITE_BASE
const remote = await getMenus()
const modules = import.meta.glob('./modules/*.ts', { eager: true })
const fromModules = Object.values(modules).map((m: any) => m.default)

const routes = [
  { path: '/', name: 'home', component: () => import('@/views/Home.vue') },
  ...fromModules,
  ...remote.map(toRoute),
  { path: `/${base}/help`, name: 'help' },
]

const router = createRouter({ history: createWebHistory(), routes })

export function install(app) {
  for (const item of remote) {
    router.addRoute('home', { path: item.path, component: () => import('@/views/Generic.vue') })
  }
  app.use(router)
}

export default router
"""


def test_what_cannot_be_followed_is_named_with_file_and_line(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.ts": RUNTIME,
            "src/router/modules/shop.ts": "export default { path: '/shop', name: 'shop' }\n",
            "src/views/Home.vue": "",
        },
    )
    result = routes_of(tmp_path)
    assert [(r["path"], r.get("name", "")) for r in result["routes"]] == [
        ("/", "home"),
        ("/shop", "shop"),
        ("<`/${base}/help`>", "help"),
    ]
    assert result["notes"] == [
        "1 route entry not followed (no file for @/api/menu): src/router/index.ts:5 getMenus",
        "1 route path not followed (computed at run time): src/router/index.ts:13 <`/${base}/help`>",
        "1 addRoute call not followed (routes added at run time): src/router/index.ts:20 "
        "router.addRoute('home', { path: item.path, component: () => … (92 characters)",
    ]


def test_an_api_table_spread_names_the_call(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/api/menu.ts": "export async function getMenus() { return (await fetch('/api/menus')).json() }\n",
            "src/router/index.ts": RUNTIME,
            "src/views/Home.vue": "",
        },
    )
    notes = routes_of(tmp_path)["notes"]
    # the innermost place the table depends on: the global the API call reads
    assert (
        notes[0]
        == "1 route entry not followed (fetch is not declared in src/api/menu.ts): src/api/menu.ts:1 fetch"
    )


ARCO = """import { isArray } from '@/utils/is'

const modules = import.meta.glob('./modules/*.ts', { eager: true })
const externalModules = import.meta.glob('./externalModules/*.ts', { eager: true })

function formatModules(_modules: any, result: RouteRecordNormalized[]) {
  Object.keys(_modules).forEach((key) => {
    const defaultModule = _modules[key].default
    if (!defaultModule) return
    const moduleList = isArray(defaultModule) ? [...defaultModule] : [defaultModule]
    result.push(...moduleList)
  })
  return result
}

export const appRoutes: RouteRecordNormalized[] = formatModules(modules, [])
export const appExternalRoutes: RouteRecordNormalized[] = formatModules(externalModules, [])

export default createRouter({
  history: createWebHistory(import.meta.env.BASE_URL),
  routes: [
    { path: '/', redirect: 'login' },
    ...appRoutes,
    ...appExternalRoutes,
  ],
})
"""


def test_a_local_fold_function_and_an_imported_helper_are_applied(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.ts": ARCO,
            "src/utils/is.ts": (
                "const opt = Object.prototype.toString\n"
                "export function isArray(obj: any): obj is any[] {\n"
                "  return opt.call(obj) === '[object Array]' || Array.isArray(obj)\n}\n"
            ),
            "src/router/modules/list.ts": "export default { path: '/list', name: 'list', children: [{ path: 'card' }] }\n",
            "src/router/modules/empty.ts": "export const nothing = 1\n",
            "src/router/externalModules/docs.ts": "export default [{ path: 'https://arco.design', name: 'docs' }]\n",
        },
    )
    result = routes_of(tmp_path)
    assert rows(result) == [
        ("/", "", "", 0, "login", "", "src/router/index.ts"),
        ("/list", "list", "", 0, "", "", "src/router/modules/list.ts"),
        ("/list/card", "", "", 1, "", "", "src/router/modules/list.ts"),
        ("https://arco.design", "docs", "", 0, "", "", "src/router/externalModules/docs.ts"),
    ]
    assert result["notes"] == []


def test_a_transform_from_a_package_passes_its_routes_through_and_says_so(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.ts": """import { ascending, formatFlatteningRoutes } from './utils'
import { buildHierarchyTree } from '@pureadmin/utils'
const modules: Record<string, any> = import.meta.glob(
  ['./modules/**/*.ts', '!./modules/**/remaining.ts'],
  { eager: true },
)
const routes = []
Object.keys(modules).forEach(key => {
  routes.push(modules[key].default)
})
export const constantRoutes = buildHierarchyTree(ascending(routes.flat(Infinity)))
export const router = createRouter({ routes: constantRoutes.concat(...remainingRouter) })
""",
            "src/router/utils.ts": "export function ascending(arr: any[]) { return arr.sort((a, b) => a.meta.rank - b.meta.rank) }\n",
            "src/router/modules/home.ts": "export default { path: '/', name: 'Home', children: [{ path: '/welcome', name: 'Welcome' }] }\n",
            "src/router/modules/able.ts": "export default [{ path: '/able', name: 'Able' }]\n",
            "src/router/modules/remaining.ts": "export default [{ path: '/login', name: 'Login' }]\n",
        },
    )
    result = routes_of(tmp_path)
    assert [(r["path"], r.get("depth", 0)) for r in result["routes"]] == [
        ("/able", 0),
        ("/", 0),
        ("/welcome", 1),
    ]
    assert result["notes"] == [
        "1 call not followed (routes listed as passed in): src/router/index.ts:11 "
        "buildHierarchyTree(ascending(routes.flat(Infinity)))",
        "1 route entry not followed (remainingRouter is not declared in src/router/index.ts): "
        "src/router/index.ts:12 remainingRouter",
    ]


def test_run_time_conditions_list_every_branch_and_say_so(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "router.ts": """const devRoutes = [{ path: '/debug', name: 'debug' }]
const routes = [{ path: '/', name: 'home' }]
if (import.meta.env.DEV) {
  routes.push(...devRoutes)
} else {
  routes.push({ path: '/status', name: 'status' })
}
export default createRouter({ routes: [...routes, ...(import.meta.env.PROD ? [{ path: '/p' }] : [])] })
"""
        },
    )
    result = routes_of(tmp_path)
    assert [r["path"] for r in result["routes"]] == ["/", "/debug", "/status", "/p"]
    assert result["notes"] == [
        "2 conditions not followed (decided at run time; routes of every branch listed): "
        "router.ts:3 (import.meta.env.DEV); router.ts:8 import.meta.env.PROD"
    ]


def test_a_statement_not_followed_that_changes_the_table_is_named(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "router.ts": """const modules = import.meta.glob('./modules/*.ts', { eager: true })
const keys = Object.keys(modules)
const routes = [{ path: '/' }]
for (let i = 0; i < keys.length; i++) {
  routes.push(modules[keys[i]].default)
}
export default createRouter({ routes })
""",
            "modules/a.ts": "export default { path: '/a' }\n",
        },
    )
    result = routes_of(tmp_path)
    assert [r["path"] for r in result["routes"]] == ["/"]
    assert len(result["notes"]) == 1
    assert result["notes"][0].startswith(
        "1 statement not followed (they change a route table at run time): router.ts:4 for (let i = 0;"
    )


def test_raw_imports_and_commonjs_context_modules(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.js": """const raw = import.meta.glob('./modules/*.js', { as: 'raw', eager: true })
const files = require.context('./modules', true, /\\.js$/)
const routes = files.keys().map(files).flat()
export default new VueRouter({ routes: [...routes, ...Object.values(raw)] })
""",
            "src/router/modules/a.js": "module.exports = [{ path: '/a', name: 'a' }]\n",
            "src/router/modules/nested/b.js": "module.exports = [{ path: '/b', name: 'b' }]\n",
        },
    )
    result = routes_of(tmp_path)
    assert [(r["path"], result["files"][r["file"]]) for r in result["routes"]] == [
        ("/a", "src/router/modules/a.js"),
        ("/b", "src/router/modules/nested/b.js"),
    ]
    assert result["notes"] == [
        "1 route entry not followed (raw import of src/router/modules/a.js): src/router/index.js:1 "
        "import.meta.glob('./modules/*.js', { as: 'raw', eager: true … (62 characters)"
    ]


def test_components_from_a_glob_of_views(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.ts": """const views = import.meta.glob('../views/**/*.vue')
const Layout = () => import('@/layouts/Base.vue')
export default createRouter({ routes: [
  { path: '/', component: Layout, children: [{ path: 'a', component: views['../views/A.vue'] }] },
] })
""",
            "src/views/A.vue": "",
            "src/layouts/Base.vue": "",
        },
    )
    assert [r.get("component") for r in routes_of(tmp_path)["routes"]] == [
        "src/layouts/Base.vue",
        "src/views/A.vue",
    ]


# --- the bundlers' matching rules ---------------------------------------------------------------


def tree(root: Path) -> Path:
    return make(
        root,
        {
            "src/router/index.ts": "",
            "src/router/modules/a.ts": "",
            "src/router/modules/b.js": "",
            "src/router/modules/.hidden.ts": "",
            "src/router/modules/deep/c.ts": "",
            "src/router/modules/deep/deeper/d.ts": "",
            "src/router/modules/node_modules/e.ts": "",
            "src/router/modules/.cache/f.ts": "",
            "src/other/g.ts": "",
        },
    )


def keys(patterns: list[str], root: Path, **options: Any) -> list[str]:
    importer = root / "src/router/index.ts"
    alias = lambda p: (root / "src").as_posix() + p[1:] if p.startswith("@/") else None  # noqa: E731
    return [key for key, _ in vite_glob(patterns, importer, root, alias, **options).entries]


def test_vite_star_stays_in_a_segment_and_globstar_spans_directories(tmp_path: Path) -> None:
    root = tree(tmp_path)
    assert keys(["./modules/*.ts"], root) == ["./modules/a.ts"]
    assert keys(["./modules/**/*.ts"], root) == [
        "./modules/a.ts",
        "./modules/deep/c.ts",
        "./modules/deep/deeper/d.ts",
    ]
    assert keys(["./modules/*/*.ts"], root) == ["./modules/deep/c.ts"]
    assert keys(["./modules/?.{ts,js}"], root) == ["./modules/a.ts", "./modules/b.js"]
    assert keys(["./modules/[ab].*"], root) == ["./modules/a.ts", "./modules/b.js"]
    assert keys(["./*.ts"], root) == []  # the importing file itself is left out


def test_vite_negative_patterns_arrays_and_keys(tmp_path: Path) -> None:
    root = tree(tmp_path)
    assert keys(["./modules/**/*.ts", "!**/deeper/**"], root) == ["./modules/a.ts", "./modules/deep/c.ts"]
    assert keys(["./modules/*.ts", "../other/*.ts"], root) == ["../other/g.ts", "./modules/a.ts"]
    assert keys(["/src/other/*.ts"], root) == ["/src/other/g.ts"]
    assert keys(["@/other/*.ts"], root) == ["/src/other/g.ts"]
    # patterns and keys are relative to `base`
    assert keys(["./deep/**/*.ts"], root, base="./modules") == ["./deep/c.ts", "./deep/deeper/d.ts"]


def test_vite_skips_hidden_and_node_modules_unless_exhaustive(tmp_path: Path) -> None:
    root = tree(tmp_path)
    assert keys(["./modules/**/*.ts"], root, exhaustive=True) == [
        "./modules/.cache/f.ts",
        "./modules/.hidden.ts",
        "./modules/a.ts",
        "./modules/deep/c.ts",
        "./modules/deep/deeper/d.ts",
        "./modules/node_modules/e.ts",
    ]
    assert keys(["./modules/.*.ts"], root) == ["./modules/.hidden.ts"]


def test_vite_patterns_it_does_not_interpret_are_errors(tmp_path: Path) -> None:
    root = tree(tmp_path)
    with pytest.raises(GlobError, match="extglob"):
        keys(["./modules/@(a|b).ts"], root)
    with pytest.raises(GlobError, match="outside the root"):
        keys(["../../../*.ts"], root)
    with pytest.raises(GlobError, match="must start with"):
        keys(["modules/*.ts"], root)
    assert expand_braces("a/{b,{c,d}}/*.ts") == ["a/b/*.ts", "a/c/*.ts", "a/d/*.ts"]


def test_webpack_context_recursion_and_regex(tmp_path: Path) -> None:
    root = tree(tmp_path)
    directory = root / "src/router/modules"

    def names(recursive: bool, regex: str) -> list[str]:
        return [key for key, _ in webpack_context(directory, root, recursive, js_regex(regex, "")).entries]

    assert names(False, r"\.ts$") == ["./.hidden.ts", "./a.ts"]
    assert names(True, r"^\.\/(?!node_modules)[\w/]+\.ts$") == ["./a.ts", "./deep/c.ts", "./deep/deeper/d.ts"]
    assert js_regex(r"(?<name>\w+)\.TS$", "i").search("./a.ts") is not None
    with pytest.raises(GlobError, match="outside the root"):
        webpack_context(root.parent, root, False, js_regex(".", ""))


VITE_CONFIG = """import { defineConfig } from 'vite'
import { fileURLToPath, URL } from 'node:url'
import { resolve } from 'path'

function pathResolve(dir: string) {
  return resolve(process.cwd(), '.', dir)
}

export default defineConfig(({ mode }) => ({
  resolve: {
    alias: [
      { find: /\\/@\\//, replacement: pathResolve('app') + '/' },
      { find: '#views', replacement: fileURLToPath(new URL('./app/pages', import.meta.url)) },
      { find: 'vue-i18n', replacement: 'vue-i18n/dist/vue-i18n.cjs.js' },
    ],
  },
}))
"""


def test_vite_config_aliases_resolve_imports_and_globs(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "vite.config.ts": VITE_CONFIG,
            "app/router/index.ts": """import { home } from '/@/router/home'
import Shell from '#views/Shell.vue'
const modules = import.meta.glob('#views/modules/*.ts', { eager: true, import: 'default' })
export default createRouter({ routes: [home, { path: '/s', component: Shell }, ...Object.values(modules)] })
""",
            "app/router/home.ts": "export const home = { path: '/', component: () => import('#views/Home.vue') }\n",
            "app/pages/Home.vue": "",
            "app/pages/Shell.vue": "",
            "app/pages/modules/m.ts": "export default { path: '/m', name: 'm' }\n",
        },
    )
    result = routes_of(tmp_path)
    assert [
        (r["path"], r.get("component", ""), result["files"][r.get("file", 0)]) for r in result["routes"]
    ] == [
        ("/", "app/pages/Home.vue", "app/router/home.ts"),
        ("/s", "app/pages/Shell.vue", "app/router/index.ts"),
        ("/m", "", "app/pages/modules/m.ts"),
    ]
    assert result["notes"] == []


def test_reassigned_concat_and_an_exported_route_function(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.ts": """import { RouteRecordRaw } from 'vue-router'
const modules = import.meta.glob('./modules/*.router.ts', { import: 'default', eager: true })
let modulesRoutes: Array<RouteRecordRaw> = []
Object.keys(modules).forEach((item) => {
  modulesRoutes = modulesRoutes.concat(modules[item] as RouteRecordRaw)
})
const features = import.meta.glob('/src/features/*/init.ts', { eager: true })
const featureRoutes = Object.values(features).flatMap((m: any) => m.routes())
export default createRouter({ routes: [...modulesRoutes, ...featureRoutes] })
""",
            "src/router/modules/a.router.ts": "export default { path: '/a' }\n",
            "src/router/modules/b.router.ts": "export default [{ path: '/b' }, { path: '/c' }]\n",
            "src/router/modules/helpers.ts": "export default [{ path: '/not-a-router-module' }]\n",
            "src/features/shop/init.ts": "export function routes() {\n  return [{ path: '/shop', name: 'shop' }]\n}\n",
        },
    )
    result = routes_of(tmp_path)
    assert [(r["path"], result["files"][r.get("file", 0)]) for r in result["routes"]] == [
        ("/a", "src/router/modules/a.router.ts"),
        ("/b", "src/router/modules/b.router.ts"),
        ("/c", "src/router/modules/b.router.ts"),
        ("/shop", "src/features/shop/init.ts"),
    ]
    assert result["notes"] == []


def test_code_that_cannot_change_the_table_is_not_evaluated(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "src/router/index.ts": """import { heavy } from '@/heavy'
import { collect } from './collect'
const unused = heavy()
NProgress.configure({ showSpinner: false })
const routes = [{ path: '/' }]
collect(routes)
export default createRouter({ routes })
""",
            "src/heavy.ts": "import { more } from './more'\nexport function heavy() { return more() }\n",
            "src/more.ts": "export function more() { return 1 }\n",
            "src/router/collect.ts": "export function collect(list) { list.push({ path: '/collected' }) }\n",
        },
    )
    result = routes_of(tmp_path)
    assert [r["path"] for r in result["routes"]] == ["/", "/collected"]
    # `unused` is never read, so neither heavy.ts nor more.ts is
    assert result["files"] == ["src/router/index.ts", "src/router/collect.ts"]


@pytest.mark.parametrize(
    ("config", "aliases"),
    [
        (
            "export default { resolve: { alias: { '@': path.resolve(__dirname, 'src') } } }",
            [("@/", ["src/"])],
        ),
        (
            "export default defineConfig({ resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)),"
            " '~': '/src', 'shared': resolve(__dirname, '..', 'shared') } } })",
            [("@/", ["src/"]), ("~/", ["src/"])],
        ),
        (
            "export default { resolve: { alias: [{ find: /^@\\//, replacement: '/src/' }] } }",
            [("@/", ["src/"])],
        ),
        ("export default { resolve: { alias: [{ find: /^(.*)\\.js$/, replacement: '$1' }] } }", []),
    ],
)
def test_vite_alias_forms(tmp_path: Path, config: str, aliases: list[tuple[str, list[str]]]) -> None:
    from sofia.syntax.aliases import project_aliases

    make(tmp_path, {"vite.config.ts": config})
    read = project_aliases(tmp_path)
    assert read.declared == bool(aliases)
    assert [(prefix, list(targets)) for prefix, targets in read.entries] == (
        aliases or [("@/", ["src/"]), ("~/", ["src/"])]
    )


def test_tsconfig_aliases_through_extends_exact_paths_and_base_url(tmp_path: Path) -> None:
    """The reader refs uses: a tsconfig's `extends`, an exact `paths` key and `baseUrl` resolve
    imports of the router as well as `@/*` does."""
    make(
        tmp_path,
        {
            "tsconfig.json": '{ "extends": "./tsconfig.base.json" }\n',
            "tsconfig.base.json": '{"compilerOptions": {"baseUrl": "app", "paths": {"@/*": ["*"],'
            ' "home-route": ["routes/home.ts"]}}}\n',
            "app/router/index.ts": """import { home } from 'home-route'
import { admin } from 'routes/admin'
import Shell from '@/pages/Shell.vue'
export default createRouter({ routes: [home, admin, { path: '/s', component: Shell }] })
""",
            "app/routes/home.ts": "export const home = { path: '/' }\n",
            "app/routes/admin.ts": "export const admin = { path: '/admin' }\n",
            "app/pages/Shell.vue": "",
        },
    )
    result = routes_of(tmp_path)
    assert [
        (r["path"], r.get("component", ""), result["files"][r.get("file", 0)]) for r in result["routes"]
    ] == [
        ("/", "", "app/routes/home.ts"),
        ("/admin", "", "app/routes/admin.ts"),
        ("/s", "app/pages/Shell.vue", "app/router/index.ts"),
    ]
    assert result["notes"] == []
