"""``tooldrop list``, ``show``, ``check`` and ``plugins`` on a composed set of plugins."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tooldrop.cli import build_cli, load_plugin_set


@pytest.fixture
def cli(project, user_dir, core_plugins, monkeypatch):
    monkeypatch.chdir(project)

    def invoke(*args: str, plugins=()):
        group = build_cli(load_plugin_set([*core_plugins, *plugins]))
        return CliRunner().invoke(
            group, ["--user-dir", str(user_dir), *args], catch_exceptions=False
        )

    return invoke


@pytest.fixture
def tools(project, user_dir, tool_writer):
    folder = project / ".tooldrop" / "tools"
    tool_writer(folder, "a.json", name="alpha", description="First tool.\nMore text.")
    tool_writer(folder, "b.json", name="beta", approval="always", read_only=False)
    tool_writer(user_dir / "tools", "p.json", name="mine", approval="destructive", read_only=False)
    (folder / "broken.json").write_text("{oops")
    return folder


def test_list_groups_tools_by_source_and_scope_with_problems_under_them(cli, tools):
    out = cli("list").output
    lines = out.splitlines()
    assert lines[0] == "Tools (3) · normal mode"
    personal = lines.index(next(line for line in lines if line.startswith("json · personal")))
    project = lines.index(
        next(line for line in lines if line.startswith("json · project  .tooldrop/tools"))
    )
    assert personal < project
    assert lines[personal + 1].split()[0] == "mine"
    assert [line.split()[0] for line in lines[project + 1 : project + 3]] == ["alpha", "beta"]
    assert "First tool." in out and "More text." not in out
    assert "Problems (1)" in out
    assert ".tooldrop/tools/broken.json:1: " in out


def test_list_json(cli, tools):
    data = json.loads(cli("list", "--json").output)
    assert [t["name"] for t in data["tools"]] == ["mine", "alpha", "beta"]
    alpha = data["tools"][1]
    assert alpha["scope"] == "project" and alpha["source"] == "json"
    assert alpha["available"] is True
    assert alpha["input_schema"]["type"] == "object"
    assert data["problems"][0]["path"].endswith("broken.json")


def test_list_shows_what_the_mode_hides(cli, tools):
    out = cli("--mode", "plan", "list").output
    assert out.splitlines()[0] == "Tools (0) · plan mode"
    assert "Hidden in plan mode (3): alpha, beta, mine" in out
    assert cli("trust").exit_code == 0
    out = cli("--mode", "plan", "list").output
    assert out.splitlines()[0] == "Tools (1) · plan mode"
    assert "Hidden in plan mode (2): beta, mine" in out


def test_list_says_when_project_tools_are_not_trusted(cli, tools):
    assert "(not trusted: every call asks first" in cli("list").output
    cli("trust")
    assert "not trusted" not in cli("list").output


def test_trust_status_and_revoke(cli, tools, tool_writer):
    assert cli("trust", "--status").output.endswith("not trusted (2 project tools)\n")
    assert "Trusted the 2 tools in .tooldrop/tools: alpha, beta." in cli("trust").output
    assert cli("trust", "--status").output.endswith(": trusted (2 project tools)\n")
    tool_writer(tools, "a.json", name="alpha", description="edited")
    assert "not trusted" in cli("trust", "--status").output
    cli("trust")
    assert "No longer trusting" in cli("trust", "--revoke").output
    assert "were not trusted" in cli("trust", "--revoke").output


def test_show_a_tool(cli, tools):
    out = cli("show", "alpha").output
    assert out.startswith("alpha\n  First tool.\n  More text.\n")
    assert "source     json (project)  .tooldrop/tools/a.json:1" in out
    assert '"type": "object"' in out


def test_show_json_and_unknown(cli, tools):
    assert json.loads(cli("show", "beta", "--json").output)["approval"] == "always"
    result = cli("show", "nope")
    assert result.exit_code == 1
    assert 'no tool named "nope"' in result.output
    assert "did you mean" not in result.output


@pytest.mark.parametrize("command", ["show", "render"])
def test_an_unknown_tool_on_the_command_line_gets_a_suggestion(cli, tools, command):
    result = cli(command, "alpah")
    assert result.exit_code == 1
    assert result.output == (
        'tooldrop: no tool named "alpah" (see `tooldrop list`); 1 tool file(s) failed to load, '
        'see `tooldrop check`; did you mean "alpha"?\n'
    )


def test_check_exits_1_on_problems_and_prints_one_line_each(cli, tools):
    result = cli("check")
    assert result.exit_code == 1
    assert result.output.splitlines()[0].startswith(".tooldrop/tools/broken.json:1: ")


def test_check_clean_exits_0(cli, project, tool_writer):
    tool_writer(project / ".tooldrop" / "tools", "ok.json", name="ok")
    result = cli("check")
    assert result.exit_code == 0
    assert "1 tool loaded, no problems" in result.output


def test_check_given_paths_checks_only_those(cli, tools, tmp_path, tool_writer):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    tool_writer(elsewhere, "x.json", name="x")
    assert cli("check", str(elsewhere / "x.json")).exit_code == 0
    assert cli("check", str(elsewhere)).exit_code == 0
    failing = cli("check", str(tools / "broken.json"))
    assert failing.exit_code == 1
    missing = cli("check", str(elsewhere / "nothing.json"))
    assert "no such file or directory" in missing.output
    unclaimed = elsewhere / "notes.txt"
    unclaimed.write_text("hi")
    assert "no loader handles this kind of file" in cli("check", str(unclaimed)).output


def test_check_reports_duplicates_among_given_paths(cli, tmp_path, tool_writer):
    folder = tmp_path / "dups"
    folder.mkdir()
    tool_writer(folder, "1.json", name="same")
    tool_writer(folder, "2.json", name="same")
    result = cli("check", str(folder))
    assert result.exit_code == 1
    assert 'Duplicate tool name "same"' in result.output


def test_plugins_lists_hooks_and_origins(cli):
    data = json.loads(cli("plugins", "--json").output)
    by_name = {p["name"]: p for p in data}
    assert by_name["tooldrop.schema"]["origin"] == "builtin"
    assert by_name["approval"]["origin"] == "builtin"
    assert by_name["tooldrop.python"]["origin"] == "builtin"
    assert "tooldrop_approve" in by_name["approval"]["hooks"]
    text = cli("plugins").output
    assert "hooks: tooldrop_approve, tooldrop_available" in text


def test_config_files_disable_tools(cli, tools, project):
    (project / ".tooldrop" / "config.yaml").write_text("disabledTools: [alpha]\n")
    data = json.loads(cli("list", "--json").output)
    assert "alpha" not in [t["name"] for t in data["tools"]]


def test_a_bad_config_file_is_a_problem_not_a_crash(cli, tools, project):
    (project / ".tooldrop" / "config.yaml").write_text("alwaysAllow: nope\n")
    out = cli("list").output
    assert "alwaysAllow: must be a list of tool names" in out
