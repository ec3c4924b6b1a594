"""Plugin loading through real entry points, discovered by importlib.metadata.

Each test writes real distributions (a ``*.dist-info`` folder with ``entry_points.txt`` and the
plugin's module) into a folder put on ``PYTHONPATH`` of a real ``tooldrop`` process, exactly as
pip would have installed them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tooldrop import PluginError, ToolHost, hookimpl

GOOD = """
from tooldrop import hookimpl, Tool

@hookimpl
def tooldrop_register_tools(register):
    register(Tool(name="from_pack", description="A packed tool.", execute=lambda args: "packed"))
"""

BROKEN = """
raise ImportError("this plugin is broken on purpose")
"""

MISSPELLED = """
from tooldrop import hookimpl

@hookimpl
def tooldrop_register_tool(register):  # missing the final s
    pass
"""


def install(site: Path, dist: str, module: str, source: str, entry_name: str) -> None:
    """Write a distribution the way pip installs one: the module and its dist-info."""
    (site / f"{module}.py").write_text(textwrap.dedent(source))
    # pip names the folder with underscores; importlib.metadata reads the name up to the first "-".
    info = site / f"{dist.replace('-', '_')}-1.2.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.2.3\n")
    (info / "entry_points.txt").write_text(f"[tooldrop]\n{entry_name} = {module}\n")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    path = tmp_path / "site"
    path.mkdir()
    install(path, "tooldrop-goodpack", "goodpack", GOOD, "goodpack")
    install(path, "tooldrop-broken", "brokenplugin", BROKEN, "broken")
    return path


def tooldrop(site: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "PYTHONPATH": str(site), **env}
    return subprocess.run(
        [sys.executable, "-m", "tooldrop", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=60,
        check=False,
    )


def test_every_builtin_plugin_loads_from_its_entry_point_with_its_version(site):
    done = tooldrop(
        site, "plugins", "--json", TOOLDROP_PLUGINS="approval,markdown,python,shell,mcp"
    )
    assert done.returncode == 0, done.stderr
    plugins = {p["name"]: p for p in json.loads(done.stdout)}
    approval = plugins["approval"]  # essential: always registered, never an entry point
    assert (approval["origin"], approval["distribution"], approval["version"]) == (
        "builtin",
        "tooldrop-core",
        "0.1.0",
    )
    assert approval["hooks"] == ["tooldrop_approve", "tooldrop_available"]
    # The core runs Python tools itself; tooldrop-python only loads *.py files.
    backend = plugins["tooldrop.python"]
    assert (backend["origin"], backend["distribution"]) == ("builtin", "tooldrop-core")
    assert backend["hooks"] == ["tooldrop_execute"]
    assert plugins["python"]["hooks"] == ["tooldrop_load_file", "tooldrop_scaffold"]
    for name, dist in [
        ("markdown", "tooldrop-markdown"),
        ("python", "tooldrop-python"),
        ("shell", "tooldrop-shell"),
        ("mcp", "tooldrop-mcp"),
    ]:
        assert plugins[name]["origin"] == "entrypoint"
        assert plugins[name]["distribution"] == dist
        assert plugins[name]["version"] == "0.1.0"
        assert plugins[name]["loaded"] is True
        assert plugins[name]["hooks"]


def test_a_plugin_whose_import_raises_is_listed_as_failed_while_the_rest_work(site):
    done = tooldrop(site, "plugins", "--json")
    assert done.returncode == 0, done.stderr
    plugins = {p["name"]: p for p in json.loads(done.stdout)}
    assert plugins["broken"]["loaded"] is False
    assert plugins["broken"]["error"] == "ImportError: this plugin is broken on purpose"
    assert plugins["broken"]["distribution"] == "tooldrop-broken"
    assert plugins["goodpack"]["loaded"] is True
    assert plugins["goodpack"]["version"] == "1.2.3"

    listing = tooldrop(site, "--project", str(site), "list", "--json")
    assert listing.returncode == 0, listing.stderr
    data = json.loads(listing.stdout)
    assert "from_pack" in [t["name"] for t in data["tools"]]
    assert any("this plugin is broken on purpose" in p["message"] for p in data["problems"])


def test_strict_mode_makes_a_broken_plugin_fatal(site):
    done = tooldrop(site, "list", TOOLDROP_STRICT_PLUGINS="1")
    assert done.returncode == 1
    assert "plugin 'broken' failed to load" in done.stderr
    assert "this plugin is broken on purpose" in done.stderr


def test_tooldrop_plugins_selects_entry_points_by_name(site):
    done = tooldrop(site, "plugins", "--json", TOOLDROP_PLUGINS="goodpack, approval")
    names = [p["name"] for p in json.loads(done.stdout)]
    assert names == ["tooldrop.schema", "approval", "tooldrop.python", "goodpack"]


def test_an_empty_tooldrop_plugins_loads_only_the_essential_plugins(site):
    done = tooldrop(site, "plugins", "--json", TOOLDROP_PLUGINS="")
    assert [p["name"] for p in json.loads(done.stdout)] == [
        "tooldrop.schema",
        "approval",
        "tooldrop.python",
    ]


def test_selecting_loaders_keeps_the_default_policy(site, tmp_path):
    """TOOLDROP_PLUGINS=markdown,shell once dropped the policy: yolo denied approval: never."""
    user = tmp_path / "user"
    (user / "tools").mkdir(parents=True)
    marker = tmp_path / "ran"
    (user / "tools" / "touch.md").write_text(
        f"---\nname: touch_it\ndescription: d\napproval: never\n---\ntouch {marker}\n"
    )
    common = ["--project", str(tmp_path), "--user-dir", str(user), "--mode", "yolo"]
    done = tooldrop(site, *common, "call", "touch_it", TOOLDROP_PLUGINS="markdown,shell")
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert marker.exists()
    listed = tooldrop(site, *common, "plugins", "--json", TOOLDROP_PLUGINS="markdown,shell")
    names = [p["name"] for p in json.loads(listed.stdout)]
    assert names == ["tooldrop.schema", "approval", "tooldrop.python", "markdown", "shell"]


def test_naming_an_essential_plugin_in_tooldrop_plugins_is_no_problem(site):
    done = tooldrop(
        site, "--project", str(site), "list", "--json", TOOLDROP_PLUGINS="approval,goodpack"
    )
    assert json.loads(done.stdout)["problems"] == []


def test_explicit_plugins_get_the_essential_ones_and_may_name_them_again(tmp_path):
    import tooldrop.approval

    for plugins in ([], [tooldrop.approval]):
        host = ToolHost(project_dir=tmp_path, user_dir=tmp_path, plugins=plugins)
        infos = host.plugins()
        assert [(i.name, i.origin, i.loaded) for i in infos] == [
            ("tooldrop.schema", "builtin", True),
            ("approval", "builtin", True),
            ("tooldrop.python", "builtin", True),
        ]


def test_naming_a_plugin_that_is_not_installed_is_reported(site):
    done = tooldrop(site, "--project", str(site), "list", "--json", TOOLDROP_PLUGINS="nosuch")
    problems = json.loads(done.stdout)["problems"]
    assert any("'nosuch'" in p["message"] for p in problems)


def test_a_misspelled_hook_is_an_error_naming_it(site):
    install(site, "tooldrop-typo", "typoplugin", MISSPELLED, "typo")
    done = tooldrop(site, "plugins", "--json")
    plugins = {p["name"]: p for p in json.loads(done.stdout)}
    assert plugins["typo"]["loaded"] is False
    assert "unknown hook 'tooldrop_register_tool'" in plugins["typo"]["error"]
    assert plugins["goodpack"]["loaded"] is True


def test_tracing_prints_every_hook_call_to_stderr(site):
    done = tooldrop(
        site,
        "--project",
        str(site),
        "list",
        TOOLDROP_TRACE_PLUGINS="1",
        TOOLDROP_PLUGINS="goodpack",
    )
    assert done.returncode == 0
    assert (
        "[tooldrop] tooldrop_register_tools(" in done.stderr or "tooldrop_tool_dirs" in done.stderr
    )
    assert "[tooldrop] tooldrop_available" in done.stderr
    assert "[tooldrop]" not in done.stdout


def test_explicit_plugins_load_no_entry_points(tmp_path):
    class Marker:
        @hookimpl
        def tooldrop_tool_dirs(self):
            return []

    host = ToolHost(project_dir=tmp_path, user_dir=tmp_path, plugins=[Marker()])
    origins = {info.origin for info in host.plugins()}
    assert origins == {"builtin", "explicit"}


def test_register_refuses_an_invalid_plugin_and_keeps_working(tmp_path):
    class Typo:
        @hookimpl
        def tooldrop_aprove(self, call):
            return None

    class WrongArgs:
        @hookimpl
        def tooldrop_approve(self, call, nonsense):
            return None

    host = ToolHost(project_dir=tmp_path, user_dir=tmp_path, plugins=[])
    with pytest.raises(PluginError, match="unknown hook 'tooldrop_aprove'"):
        host.register(Typo())
    with pytest.raises(PluginError, match="nonsense"):
        host.register(WrongArgs())
    assert host.plugin_manager.get_plugins() == {
        p for p in host.plugin_manager.get_plugins() if not isinstance(p, Typo | WrongArgs)
    }
    assert host.tools() == []
