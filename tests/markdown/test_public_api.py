"""The names ``tooldrop_markdown`` offers other code, and the plugin's hooks."""

from __future__ import annotations

import tooldrop_markdown
import tooldrop_markdown.plugin
from tooldrop import ToolHost


def test_all_names_exist_and_nothing_private_leaks() -> None:
    assert sorted(tooldrop_markdown.__all__) == [
        "MAX_FILE_BYTES",
        "Section",
        "Template",
        "Var",
        "cmd_quote",
        "js_string",
        "load_markdown",
        "posix_quote",
        "render",
    ]
    for name in tooldrop_markdown.__all__:
        assert getattr(tooldrop_markdown, name) is not None
    public = {n for n in vars(tooldrop_markdown) if not n.startswith("_")} - {
        "annotations",
        "plugin",
    }
    assert public == set(tooldrop_markdown.__all__)


def test_the_plugin_implements_exactly_its_hooks(tmp_path) -> None:
    with ToolHost(project_dir=tmp_path, plugins=[tooldrop_markdown.plugin]) as host:
        (info,) = [p for p in host.plugins() if p.module == "tooldrop_markdown.plugin"]
        assert sorted(info.hooks) == ["tooldrop_load_file", "tooldrop_render", "tooldrop_scaffold"]


def test_the_entry_point_loads_the_plugin(tmp_path) -> None:
    with ToolHost(project_dir=tmp_path) as host:
        names = {p.name: p for p in host.plugins()}
        assert names["markdown"].loaded
        assert names["markdown"].distribution == "tooldrop-markdown"
