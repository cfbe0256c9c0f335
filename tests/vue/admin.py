"""Admin-template router layouts, one per way route modules are loaded: `router/index.*` builds its
table from every file in `router/modules/` (Vite's `import.meta.glob`, eager and lazy, Vite 2's
`globEager`, webpack's `require.context`), shaped as the public admin templates write them.

The route modules are shared: a module whose default export is one route with nested children and
aliases, one whose default export is an array, one that exports several arrays, and one the loaders
exclude. `EXPECTED` is the table every layout must yield, in vue-router's order.
"""

from __future__ import annotations

from pathlib import Path

CONSTANT = """import type { RouteRecordRaw } from 'vue-router'

export const LAYOUT = () => import('@/layouts/default/index.vue')
export const PARENT_LAYOUT = () => () => new Promise((resolve) => resolve({ name: 'ParentLayout' }))

export const PAGE_NOT_FOUND_ROUTE: RouteRecordRaw = {
  path: '/:path(.*)*',
  name: 'PageNotFound',
  component: () => import('@/views/sys/exception/NotFound.vue'),
  meta: { title: 'ErrorPage', hideBreadcrumb: true, hideMenu: true },
}
"""

DASHBOARD = """import type { AppRouteModule } from '@/router/types'
import { LAYOUT } from '@/router/constant'
import { t } from '@/hooks/web/useI18n'

// One route per module, with nested children and aliases.
const dashboard: AppRouteModule = {
  path: '/dashboard',
  name: 'Dashboard',
  component: LAYOUT,
  redirect: '/dashboard/analysis',
  meta: {
    orderNo: 10,
    icon: 'ion:grid-outline',
    title: t('routes.dashboard.dashboard'),
  },
  children: [
    {
      path: 'analysis',
      name: 'Analysis',
      component: () => import('@/views/dashboard/analysis/index.vue'),
      meta: {
        affix: true,
        title: t('routes.dashboard.analysis'),
      },
    },
    {
      path: 'workbench',
      name: 'Workbench',
      alias: ['/home', '/start'],
      component: () => import('@/views/dashboard/workbench/index.vue'),
      meta: {
        title: t('routes.dashboard.workbench'),
      },
    },
  ],
}

export default dashboard
"""

SYSTEM = """import type { AppRouteModule } from '@/router/types'
import { LAYOUT } from '@/router/constant'

// An array as the default export, children three levels deep.
const system: AppRouteModule[] = [
  {
    path: '/system',
    name: 'System',
    component: LAYOUT,
    redirect: '/system/account',
    meta: { orderNo: 2000, icon: 'ion:settings-outline', title: 'System' },
    children: [
      {
        path: 'account',
        name: 'AccountManagement',
        meta: { title: 'Accounts', ignoreKeepAlive: false },
        component: () => import('@/views/demo/system/account/index.vue'),
      },
      {
        path: 'account_detail/:id',
        name: 'AccountDetail',
        meta: { hideMenu: true, title: 'Account detail', currentActiveMenu: '/system/account' },
        component: () => import('@/views/demo/system/account/AccountDetail.vue'),
      },
      {
        path: 'dept',
        name: 'DeptManagement',
        meta: { title: 'Departments' },
        children: [
          {
            path: 'tree',
            name: 'DeptTree',
            meta: { title: 'Tree' },
            component: () => import('@/views/demo/system/dept/tree.vue'),
          },
        ],
      },
    ],
  },
]

export default system
"""

DEMO = """import type { RouteRecordRaw } from 'vue-router'
import { LAYOUT } from '@/router/constant'

// Several arrays from one module.
export const formRoutes: RouteRecordRaw[] = [
  {
    path: '/form',
    name: 'Form',
    component: LAYOUT,
    meta: { title: 'Forms', roles: ['admin', 'editor'] },
    children: [
      { path: 'basic', name: 'FormBasic', component: () => import('@/views/demo/form/index.vue') },
      { path: 'rule', name: 'FormRule', component: () => import('@/views/demo/form/RuleForm.vue') },
    ],
  },
]

export const tableRoutes: RouteRecordRaw[] = [
  { path: '/table', name: 'Table', component: () => import('@/views/demo/table/Basic.vue') },
]
"""

REMAINING = """// Excluded by the loaders: routes outside the layout, registered at the top level instead.
export default [{ path: '/remaining', name: 'Remaining', component: () => import('@/views/Remaining.vue') }]
"""

VIEWS = (
    "src/layouts/default/index.vue",
    "src/views/sys/exception/NotFound.vue",
    "src/views/sys/login/Login.vue",
    "src/views/dashboard/analysis/index.vue",
    "src/views/dashboard/workbench/index.vue",
    "src/views/demo/system/account/index.vue",
    "src/views/demo/system/account/AccountDetail.vue",
    "src/views/demo/system/dept/tree.vue",
    "src/views/demo/form/index.vue",
    "src/views/demo/form/RuleForm.vue",
    "src/views/demo/table/Basic.vue",
    "src/views/Remaining.vue",
)

TSCONFIG = """{
  "compilerOptions": {
    "baseUrl": ".",
    "paths": { "@/*": ["src/*"], "#/*": ["types/*"] }
  }
}
"""

HEAD = """import type { RouteRecordRaw } from 'vue-router'
import { createRouter, createWebHashHistory } from 'vue-router'
import { PAGE_NOT_FOUND_ROUTE } from '@/router/constant'
"""

TAIL = """
export const routes: RouteRecordRaw[] = [
  { path: '/', name: 'Root', redirect: '/dashboard' },
  { path: '/login', name: 'Login', component: () => import('@/views/sys/login/Login.vue') },
  ...routeModuleList,
  PAGE_NOT_FOUND_ROUTE,
]

export const router = createRouter({
  history: createWebHashHistory(import.meta.env.VITE_PUBLIC_PATH),
  routes,
  strict: true,
})
"""

ROUTERS = {
    "vite-eager": HEAD
    + """
// Vite >= 3: every module eagerly, those folded otherwise left out by negative patterns.
const modules = import.meta.glob<{ default: unknown }>(
  ['./modules/**/*.ts', '!./modules/**/remaining.ts', '!**/demo.ts'],
  { eager: true },
)
const routeModuleList: RouteRecordRaw[] = []

Object.keys(modules).forEach((key) => {
  const mod = (modules as Recordable)[key].default || {}
  const modList = Array.isArray(mod) ? [...mod] : [mod]
  routeModuleList.push(...modList)
})

// the module that exports several arrays is folded by export
const several = import.meta.glob('./modules/demo.ts', { eager: true })
for (const [, mod] of Object.entries(several)) {
  for (const name in mod) routeModuleList.push(...(mod as any)[name])
}
"""
    + TAIL,
    "vite2-glob-eager": HEAD
    + """
// Vite 2: import.meta.globEager, every export of every module.
const metaRouters = import.meta.globEager('./modules/{dashboard,system,demo}.ts')
const routeModuleList: any[] = []
Object.keys(metaRouters).forEach((item) => {
  Object.keys(metaRouters[item]).forEach((key) => {
    const exported = metaRouters[item][key]
    routeModuleList.push(...(Array.isArray(exported) ? exported : [exported]))
  })
})
"""
    + TAIL,
    "vite-lazy": HEAD
    + """
// Lazy modules, awaited at the top level; `import: 'default'` and an alias pattern.
const defaults = import.meta.glob('@/router/modules/*.ts', { import: 'default' })
const routeModuleList: RouteRecordRaw[] = []
for (const path in defaults) {
  if (path.endsWith('/remaining.ts') || path.endsWith('/demo.ts')) continue
  const routes = await defaults[path]()
  routeModuleList.push(...([] as RouteRecordRaw[]).concat(routes as RouteRecordRaw[]))
}
const named = import.meta.glob('./modules/demo.ts')
const demo = await Promise.all(Object.values(named).map((load) => load()))
routeModuleList.push(...demo.flatMap((mod: any) => Object.values(mod).flat()))
"""
    + TAIL,
}

WEBPACK_HEAD = """import Vue from 'vue'
import Router from 'vue-router'
import { PAGE_NOT_FOUND_ROUTE } from '@/router/constant'

Vue.use(Router)
"""

WEBPACK = (
    WEBPACK_HEAD
    + """
// webpack: require.context over the modules directory, not recursive, .ts files but not remaining.
const files = require.context('./modules', false, /^\\.\\/(?!remaining)[\\w-]+\\.ts$/)
const routeModuleList = files.keys().reduce((all, key) => {
  const mod = files(key)
  const exported = Object.keys(mod).map((name) => mod[name])
  return all.concat(...exported)
}, [])

export const routes = [
  { path: '/', name: 'Root', redirect: '/dashboard' },
  { path: '/login', name: 'Login', component: () => import('@/views/sys/login/Login.vue') },
  ...routeModuleList,
  PAGE_NOT_FOUND_ROUTE,
]

export default new Router({ mode: 'history', routes })
"""
)

MODULES = {
    "src/router/constant.ts": CONSTANT,
    "src/router/modules/dashboard.ts": DASHBOARD,
    "src/router/modules/system.ts": SYSTEM,
    "src/router/modules/demo.ts": DEMO,
    "src/router/modules/remaining.ts": REMAINING,
}

LAYOUTS = (*ROUTERS, "webpack-context")


def build(root: Path, layout: str) -> Path:
    """Write the admin template with the router of `layout` under `root`; returns `root`."""
    files = dict(MODULES)
    files["tsconfig.json"] = TSCONFIG
    files["src/router/index.ts"] = WEBPACK if layout == "webpack-context" else ROUTERS[layout]
    for view in VIEWS:
        files[view] = "<template><div /></template>\n"
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)
    return root


LAYOUT_VUE = "src/layouts/default/index.vue"

EXPECTED = [
    # (path, name, component, depth, redirect, alias, module)
    ("/", "Root", "", 0, "/dashboard", "", "src/router/index.ts"),
    ("/login", "Login", "src/views/sys/login/Login.vue", 0, "", "", "src/router/index.ts"),
    ("/dashboard", "Dashboard", LAYOUT_VUE, 0, "/dashboard/analysis", "", "src/router/modules/dashboard.ts"),
    (
        "/dashboard/analysis",
        "Analysis",
        "src/views/dashboard/analysis/index.vue",
        1,
        "",
        "",
        "src/router/modules/dashboard.ts",
    ),
    (
        "/dashboard/workbench",
        "Workbench",
        "src/views/dashboard/workbench/index.vue",
        1,
        "",
        "/home;/start",
        "src/router/modules/dashboard.ts",
    ),
    ("/system", "System", LAYOUT_VUE, 0, "/system/account", "", "src/router/modules/system.ts"),
    (
        "/system/account",
        "AccountManagement",
        "src/views/demo/system/account/index.vue",
        1,
        "",
        "",
        "src/router/modules/system.ts",
    ),
    (
        "/system/account_detail/:id",
        "AccountDetail",
        "src/views/demo/system/account/AccountDetail.vue",
        1,
        "",
        "",
        "src/router/modules/system.ts",
    ),
    ("/system/dept", "DeptManagement", "", 1, "", "", "src/router/modules/system.ts"),
    (
        "/system/dept/tree",
        "DeptTree",
        "src/views/demo/system/dept/tree.vue",
        2,
        "",
        "",
        "src/router/modules/system.ts",
    ),
    ("/form", "Form", LAYOUT_VUE, 0, "", "", "src/router/modules/demo.ts"),
    ("/form/basic", "FormBasic", "src/views/demo/form/index.vue", 1, "", "", "src/router/modules/demo.ts"),
    ("/form/rule", "FormRule", "src/views/demo/form/RuleForm.vue", 1, "", "", "src/router/modules/demo.ts"),
    ("/table", "Table", "src/views/demo/table/Basic.vue", 0, "", "", "src/router/modules/demo.ts"),
    (
        "/:path(.*)*",
        "PageNotFound",
        "src/views/sys/exception/NotFound.vue",
        0,
        "",
        "",
        "src/router/constant.ts",
    ),
]
"""Glob order is file order (dashboard, demo, system), so the layouts that fold modules in that
order list demo's routes before system's; `expected(layout)` gives each layout's order."""


def expected(layout: str) -> list[tuple[object, ...]]:
    """EXPECTED in the order `layout` folds its modules."""
    head = EXPECTED[:2]
    dashboard = EXPECTED[2:5]
    system = EXPECTED[5:10]
    demo = EXPECTED[10:14]
    tail = EXPECTED[14:]
    if layout == "vite-eager":
        # every module's default export in file order (demo has none), then demo's arrays by export name
        return head + dashboard + system + demo + tail
    if layout == "vite-lazy":
        return head + dashboard + system + demo + tail
    # every export of every module in file order: dashboard, demo (formRoutes, tableRoutes), system
    return head + dashboard + demo + system + tail
