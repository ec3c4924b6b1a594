"""One tool per name: what the user reads when two tools want the same name.

The notes and errors of the registry (DESIGN §3.4) as ``tooldrop check`` and the host show
them: which scope wins, which file or plugin the other tool came from, and whether the clash
fails the check (an error) or is only a note (``info``).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tooldrop.cli import build_cli, load_plugin_set

from .conftest import make_spec


@pytest.fixture
def check(project, user_dir, core_plugins, monkeypatch):
    """``check(*paths)``: run ``tooldrop check --json PATHS`` and return (exit code, problems)."""
    monkeypatch.chdir(project)

    def invoke(*paths: str):
        group = build_cli(load_plugin_set(core_plugins))
        result = CliRunner().invoke(
            group, ["--user-dir", str(user_dir), "check", "--json", *paths], catch_exceptions=False
        )
        return result.exit_code, json.loads(result.stdout)

    return invoke


def test_a_personal_file_checked_after_a_project_one_is_only_a_note(
    check, project, user_dir, tool_writer
):
    mine = tool_writer(project / ".tooldrop" / "tools", "same.json", name="same")
    theirs = tool_writer(user_dir / "tools", "same.json", name="same")
    code, problems = check(str(mine), str(theirs))
    assert problems == [
        {
            "path": str(theirs),
            "line": 1,
            "field": "name",
            "message": '"same" is also defined by a project tool, which takes precedence '
            "(.tooldrop/tools/same.json)",
            "severity": "info",
        }
    ]
    assert code == 0  # a note, not a failure


def test_a_duplicate_and_an_override_name_the_field(check, project, user_dir, tool_writer):
    theirs = tool_writer(user_dir / "tools", "same.json", name="same")
    mine = tool_writer(project / ".tooldrop" / "tools", "same.json", name="same")
    again = tool_writer(project / ".tooldrop" / "tools", "again.json", name="same")
    code, problems = check(str(theirs), str(mine), str(again))
    assert [(p["path"], p["field"], p["severity"]) for p in problems] == [
        (str(mine), "name", "info"),
        (str(again), "name", "error"),
    ]
    assert problems[0]["message"].startswith('overrides personal tool "same"')
    assert 'Duplicate tool name "same" in project tools' in problems[1]["message"]
    assert code == 1


def test_a_plugin_tool_is_named_by_its_plugin_when_it_clashes(
    make_host, tool_pack, tool_writer, project
):
    pack = tool_pack(make_spec("same"), make_spec("same", description="second"))
    tool_writer(project / ".tooldrop" / "tools", "same.json", name="same", description="file")
    host = make_host(pack)
    assert host.get("same").description == "file"
    messages = [p.message for p in host.problems()]
    assert len(messages) == 2, messages
    duplicate, override = messages
    # A tool made in code has no file: the plugin that registered it stands in for one.
    assert duplicate.startswith(
        'Duplicate tool name "same" in plugin tools — keeping the first (entrypoint:'
    )
    assert override.startswith('overrides plugin tool "same" (entrypoint:')
