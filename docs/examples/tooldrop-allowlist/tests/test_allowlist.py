"""The plugin on its own: composed into a host with the default policy and a small runner."""

from __future__ import annotations

import pytest

import tooldrop.approval
import tooldrop_allowlist
from tooldrop import Origin, ToolCall, ToolHost, ToolResult, ToolSpec, hookimpl


class Scripted:
    """Registers tools whose script is fixed, renders it, and 'runs' it by echoing it."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    @hookimpl
    def tooldrop_register_tools(self, register):
        for name, script, read_only in [
            ("status", "git status --short", True),
            ("push", "git push", False),
        ]:
            register(
                ToolSpec(
                    name=name,
                    description=name,
                    input_schema={"type": "object", "properties": {}},
                    approval="always",
                    read_only=read_only,
                    origin=Origin(source="test", scope="plugin"),
                    runner="scripted",
                    payload=script,
                )
            )

    @hookimpl
    def tooldrop_render(self, call: ToolCall):
        return call.spec.payload if call.spec.runner == "scripted" else None

    @hookimpl
    def tooldrop_execute(self, call: ToolCall):
        self.ran.append(call.script)
        return ToolResult(text=call.script)


@pytest.fixture
def host(tmp_path):
    runner = Scripted()
    host = ToolHost(
        project_dir=tmp_path,
        user_dir=tmp_path / "config",
        plugins=[tooldrop.approval, tooldrop_allowlist, runner],
    )
    return host, runner, tmp_path / "config" / "allowlist.txt"


def test_without_an_allowlist_the_default_policy_decides(host):
    host, runner, _ = host
    assert host.call("status", {}).denied
    assert runner.ran == []


def test_a_matching_read_only_script_runs_without_a_prompt(host):
    host, runner, allowlist = host
    allowlist.parent.mkdir()
    allowlist.write_text("# comment\n\ngit status( -[a-z-]+)*\n")
    assert not host.call("status", {}).is_error
    assert runner.ran == ["git status --short"]


def test_entries_must_match_the_whole_script(host):
    host, _, allowlist = host
    allowlist.parent.mkdir()
    allowlist.write_text("git status\n")
    assert host.call("status", {}).denied


def test_tools_that_are_not_read_only_fall_through(host):
    host, runner, allowlist = host
    allowlist.parent.mkdir()
    allowlist.write_text("git push\n")
    assert host.call("push", {}).denied
    assert runner.ran == []
