"""The one reader of a project's path aliases: tsconfig/jsconfig `paths` and `baseUrl` (through
`extends` and `references`), Vite's `resolve.alias` in both forms, the `@/` convention when
nothing is declared, and the nearest project above a file."""

from __future__ import annotations

import os
from pathlib import Path

from sofia.syntax.aliases import aliases_for, project_aliases


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def rel(root: Path, paths: list[Path]) -> list[str]:
    return [os.path.relpath(p, root).replace(os.sep, "/") for p in paths]


def test_tsconfig_paths_through_references_and_extends(tmp_path: Path) -> None:
    write(tmp_path, "tsconfig.json", '{ "files": [], "references": [{ "path": "./tsconfig.app.json" }] }\n')
    write(tmp_path, "tsconfig.app.json", '{ "extends": "./tsconfig.base", /* base */ }\n')
    write(
        tmp_path,
        "tsconfig.base.json",
        '{"compilerOptions": {"baseUrl": "./lib", "paths": {"@/*": ["../src/*"], "shared": ["../shared/index.ts"],'
        ' "*": ["types/*"]}}}\n',
    )
    aliases = project_aliases(tmp_path)
    assert aliases.declared
    assert rel(tmp_path, aliases.targets("@/utils/date")) == ["src/utils/date"]
    assert rel(tmp_path, aliases.targets("shared")) == ["shared/index.ts"]
    assert rel(tmp_path, aliases.targets("models/user")) == ["lib/models/user"]  # baseUrl
    assert aliases.targets("./local") == []


def test_vite_aliases_object_and_array_forms_win_over_tsconfig(tmp_path: Path) -> None:
    write(
        tmp_path,
        "vite.config.ts",
        "import { fileURLToPath, URL } from 'node:url'\nimport path from 'path'\nexport default defineConfig({\n"
        "  resolve: { alias: [\n    { find: '@', replacement: fileURLToPath(new URL('./app', import.meta.url)) },\n"
        "    { find: /^~\\//, replacement: path.resolve(__dirname, 'assets') + '/' },\n"
        "    { find: dynamic(), replacement: 'x' },\n  ] },\n})\n",
    )
    write(tmp_path, "tsconfig.json", '{"compilerOptions": {"paths": {"@/*": ["src/*"], "#x/*": ["x/*"]}}}\n')
    aliases = project_aliases(tmp_path)
    assert rel(tmp_path, aliases.targets("@/stores/cart")) == ["app/stores/cart"]
    assert rel(tmp_path, aliases.targets("~/logo.svg")) == ["assets/logo.svg"]
    assert rel(tmp_path, aliases.targets("#x/y")) == ["x/y"]
    assert aliases.targets("lodash") == []


def test_the_nearest_project_and_the_convention(tmp_path: Path) -> None:
    write(tmp_path, "web/package.json", "{}\n")
    write(tmp_path, "web/src/views/deep/Page.vue", "")
    aliases = aliases_for(tmp_path / "web/src/views/deep", stop=tmp_path)
    assert aliases.directory == (tmp_path / "web").absolute()
    assert not aliases.declared
    assert rel(tmp_path, aliases.targets("@/utils")) == ["web/src/utils"]
    assert rel(tmp_path, aliases.targets("~/utils")) == ["web/src/utils"]
    # Nothing marks a project up to the stop: the convention there.
    write(tmp_path, "bare/src/a.js", "")
    assert (
        aliases_for(tmp_path / "bare/src", stop=tmp_path / "bare").directory == (tmp_path / "bare").absolute()
    )


def test_a_changed_config_is_read_again(tmp_path: Path) -> None:
    write(tmp_path, "jsconfig.json", '{"compilerOptions": {"paths": {"@/*": ["src/*"]}}}\n')
    assert rel(tmp_path, project_aliases(tmp_path).targets("@/a")) == ["src/a"]
    write(tmp_path, "jsconfig.json", '{"compilerOptions": {"paths": {"@/*": ["source/*"]}}}  \n')
    assert rel(tmp_path, project_aliases(tmp_path).targets("@/a")) == ["source/a"]


def test_unreadable_configs_fall_back_to_the_convention(tmp_path: Path) -> None:
    write(tmp_path, "tsconfig.json", "{ not json\n")
    write(tmp_path, "vite.config.js", "export default {{{\n")
    aliases = project_aliases(tmp_path)
    assert not aliases.declared
    assert rel(tmp_path, aliases.targets("@/a")) == ["src/a"]


def test_a_tsconfig_that_declares_no_paths_leaves_them_to_the_jsconfig(tmp_path: Path) -> None:
    write(tmp_path, "tsconfig.json", '{"compilerOptions": {"strict": true}}\n')
    write(tmp_path, "jsconfig.json", '{"compilerOptions": {"paths": {"@/*": ["app/*"]}}}\n')
    assert rel(tmp_path, project_aliases(tmp_path).targets("@/a")) == ["app/a"]
    # One that declares them is the project's: the jsconfig beside it is not read.
    write(tmp_path, "tsconfig.json", '{"compilerOptions": {"paths": {"@/*": ["web/*"]}}}\n')
    assert rel(tmp_path, project_aliases(tmp_path).targets("@/a")) == ["web/a"]


def test_a_find_that_is_empty_or_computed_is_no_alias(tmp_path: Path) -> None:
    write(
        tmp_path,
        "vite.config.mjs",
        "export default { resolve: { alias: [{ find: '', replacement: './src' },"
        " { find: `${x}`, replacement: './src' }, { find: 'lib', replacement: './packages/lib' }] } }\n",
    )
    aliases = project_aliases(tmp_path)
    assert [prefix for prefix, _ in aliases.entries] == ["lib/"]
    assert aliases.match("lib/x/*.ts") == (("packages/lib/",), "x/*.ts")
    assert aliases.match("library") is None
