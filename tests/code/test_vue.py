"""Vue summaries: the reference's MyTasksView.vue facts, multi-line `defineProps<{…}>()`,
`withDefaults` with a same-file interface, `<script>` + `<script setup>`, Options API, kebab-case
component tags, a template-only SFC, `exported` and `brief`."""

from __future__ import annotations

from pathlib import Path

from tests.code.conftest import FIXTURES, code, document
from tests.code.summarised import summarised
from tests.helpers import run_sf

SRC = FIXTURES / "vue" / "src"
MY_TASKS = "views/MyTasksView.vue"


def test_my_tasks_view_interface() -> None:
    doc = summarised(SRC, MY_TASKS)
    assert doc["imports"] == ["vue", "../api/client", "../api/types", "../stores/auth"]
    assert doc["vue"] == {
        "component": "MyTasksView",
        "script": "setup ts",
        "props": ["taskId: string", "visible?: boolean"],
        "emits": ["update:visible", "logged"],
        "models": ["open: boolean"],
        "components": ["TaskDialog", "Button"],
        "stores": ["useAuthStore"],
        "composables": [],
    }
    assert [(f["name"], f["line"], f["end_line"]) for f in doc["functions"]] == [
        ("load", 24, 31),
        ("close", 33, 36),
        ("onLogged", 38, 41),
    ]
    assert [(c["name"], c["value"]) for c in doc["constants"]][:5] == [
        ("props", "defineProps()"),
        ("emit", "defineEmits()"),
        ("open", "defineModel('open', …)"),
        ("auth", "useAuthStore()"),
        ("loading", "ref(false)"),
    ]
    assert list(doc)[-2:] == ["vue", "notes"]


def test_script_and_script_setup_with_defaults_and_tuple_emits() -> None:
    doc = summarised(SRC, "components/TaskDialog.vue")
    assert doc["vue"] == {
        "component": "TaskDialog",
        "script": "setup ts + ts",
        "props": ["taskId: string", "title?: string", "minutes?: number"],
        "emits": ["logged", "close"],
        "models": ["visible: boolean", "modelValue: string"],
        "components": ["Dialog", "InputNumber", "BaseButton"],
        "stores": [],
        "composables": ["useToast", "useTaskLogs"],
    }
    assert [(t["kind"], t["name"]) for t in doc["types"]] == [("interface", "Props")]


def test_options_api_component() -> None:
    doc = summarised(SRC, "components/UserCard.vue")
    vue = doc["vue"]
    assert vue["script"] == "js"
    assert vue["props"] == ["user: Object", "size?: Number", "selected?: Boolean", "variant?: String | Array"]
    assert vue["emits"] == ["select", "remove"]
    assert vue["components"] == ["UserAvatar"]
    assert vue["stores"] == ["useSettingsStore"]
    assert [(f["owner"], f["name"], f["sig"], f.get("mods", "")) for f in doc["functions"]] == [
        ("UserCard", "fullName", "()", "computed"),
        ("UserCard", "initials", "()", "computed"),
        ("UserCard", "user.id", "(id, previous)", "watch"),
        ("UserCard", "selected", "(value)", "watch"),
        ("UserCard", "select", "()", ""),
        ("UserCard", "remove", "(confirm = true)", "async"),
    ]
    assert "constants" not in doc


def test_template_only_component() -> None:
    doc = summarised(SRC, "components/EmptyState.vue")
    assert doc["vue"]["script"] == ""
    assert doc["vue"]["components"] == ["RouterLink"]
    assert (doc["types"], doc["functions"], doc["imports"]) == ([], [], [])


def test_runtime_props_emits_and_models(tmp_path: Path) -> None:
    (tmp_path / "Picker.vue").write_text(
        "<script setup>\n"
        "import { useRoute } from 'vue-router'\n"
        "import { useCartStore as useCart } from '@/stores/cart'\n"
        "const props = defineProps({\n"
        "  items: { type: Array, required: true },\n"
        "  label: String,\n"
        "  size: { type: [String, Number], default: 'md' },\n"
        "})\n"
        "const emit = defineEmits(['pick', 'update:modelValue'])\n"
        "const model = defineModel()\n"
        "const route = useRoute()\n"
        "const cart = useCart()\n"
        "</script>\n\n"
        '<template>\n  <ui-select :items="props.items"><template #item><slot /></template></ui-select>\n'
        '  <teleport to="body"><transition-group><Toast /></transition-group></teleport>\n</template>\n'
    )
    vue = summarised(tmp_path, "Picker.vue")["vue"]
    assert vue["script"] == "setup js"
    assert vue["props"] == ["items: Array", "label?: String", "size?: String | Number"]
    assert vue["emits"] == ["pick", "update:modelValue"]
    assert vue["models"] == ["modelValue"]
    assert vue["components"] == ["UiSelect", "Toast"]
    assert vue["stores"] == ["useCart"]
    assert vue["composables"] == ["useRoute"]


def test_exported_keeps_the_interface_and_drops_setup_locals() -> None:
    doc = summarised(SRC, MY_TASKS, exported=True)
    assert doc["functions"] == [] and "constants" not in doc
    assert doc["vue"]["props"] == ["taskId: string", "visible?: boolean"]


def test_brief_keeps_the_vue_object() -> None:
    doc = summarised(SRC, MY_TASKS, brief=True)
    assert "imports" not in doc
    assert doc["vue"]["emits"] == ["update:visible", "logged"]


def test_code_summarises_a_large_sfc_and_passes_small_ones_through() -> None:
    result = code(SRC, "views", "components")
    modes = {d["path"]: d["mode"] for d in result["files"]}
    assert modes == {
        "views/MyTasksView.vue": "raw",
        "components/EmptyState.vue": "raw",
        "components/TaskDialog.vue": "raw",
        "components/UserCard.vue": "raw",
    }


def test_vue_on_the_command_line() -> None:
    done = run_sf("code", MY_TASKS, cwd=SRC, env={"SOFIA_CODE_RAW_BELOW": "0"})
    assert done.returncode == 0, done.stderr
    assert "  components[2]: TaskDialog,Button\n" in done.stdout
    assert '  emits[2]: "update:visible",logged\n' in done.stdout
    doc = document(code(SRC, MY_TASKS, budget=None), MY_TASKS)
    assert doc["mode"] == "raw"


def test_template_and_function_slices(no_passthrough: None) -> None:
    result = code(SRC, MY_TASKS, symbols=["<template>", "load"])
    pieces = result["files"][0]["slices"]
    assert [(p["symbol"], p["kind"], p["line"], p["end_line"]) for p in pieces] == [
        ("<template>", "template", 47, 67),
        ("load", "function", 24, 31),
    ]
    lines = (SRC / MY_TASKS).read_text().splitlines(keepends=True)
    assert pieces[0]["text"] == "".join(lines[46:67])
    assert pieces[0]["text"].startswith("<template>\n") and pieces[0]["text"].endswith("</template>\n")
    assert pieces[1]["text"].startswith("async function load(): Promise<void> {\n")
