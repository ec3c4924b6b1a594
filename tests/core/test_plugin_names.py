"""A plugin keeps one name however it is loaded, and across processes.

The name is where the tools a plugin registers come from (``entrypoint:<name>``), and so where
"always allow" grants given to them belong: a name that changed between runs, or between an
entry point and the same module composed by hand, would lose those grants.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import tooldrop_markdown.plugin
from tooldrop import Tool, ToolHost, hookimpl


class Pack:
    """A plugin object registering one tool that asks before it runs."""

    @hookimpl
    def tooldrop_register_tools(self, register):
        register(
            Tool(
                name="packed",
                description="Packed tool.",
                execute=lambda a: "ran",
                approval="always",
            )
        )


def test_an_object_is_named_by_its_class_not_by_a_number(tmp_path):
    with ToolHost(project_dir=tmp_path, user_dir=tmp_path, plugins=[Pack(), Pack()]) as host:
        names = [info.name for info in host.plugins() if info.origin == "explicit"]
        assert names == [f"{__name__}.Pack", f"{__name__}.Pack#2"]
    with ToolHost(project_dir=tmp_path, user_dir=tmp_path, plugins=[Pack()]) as host:
        assert host.get("packed").origin.source == f"entrypoint:{__name__}.Pack"
        registered = host.register(Pack())
        assert registered == f"{__name__}.Pack#2"


def test_an_installed_module_composed_by_hand_keeps_its_entry_point_name(tmp_path):
    with ToolHost(
        project_dir=tmp_path, user_dir=tmp_path, plugins=[tooldrop_markdown.plugin]
    ) as host:
        (info,) = [p for p in host.plugins() if p.module == "tooldrop_markdown.plugin"]
        assert info.name == "markdown"
    with ToolHost(project_dir=tmp_path, user_dir=tmp_path) as host:
        assert "markdown" in {p.name for p in host.plugins()}


SCRIPT = textwrap.dedent(
    """
    import json, sys
    from tooldrop import Tool, ToolHost, hookimpl

    class Pack:
        @hookimpl
        def tooldrop_register_tools(self, register):
            register(Tool(name="packed", description="Packed tool.",
                          execute=lambda a: "ran", approval="always"))

    host = ToolHost(project_dir=sys.argv[1], user_dir=sys.argv[1], plugins=[Pack()])
    pending = host.prepare("packed", {})
    out = {"asks": pending.needs_approval}
    if sys.argv[2] == "grant":
        out["result"] = pending.run(approved=True, remember=True).text
    print(json.dumps(out))
    """
)


def test_always_allow_for_a_registered_tool_survives_a_restart(tmp_path):
    def run(action):
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(tmp_path), action],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        return json.loads(done.stdout)

    assert run("grant") == {"asks": True, "result": "ran"}
    # A new process: the object is a new object, its grant is found all the same.
    assert run("look") == {"asks": False}
    (grant,) = json.loads((tmp_path / "grants.json").read_text())["grants"]
    assert grant["place"] == "entrypoint:__main__.Pack"
