"""The personal opt-in: an untrusted project's read-only tools run confined instead of asking."""

from __future__ import annotations

import pytest

import tooldrop_sandbox.plugin
from tooldrop import Decision, ToolCall, ToolHost, hookimpl
from tooldrop.cli._call import describe_call

from .conftest import PLUGINS, needs_bwrap


def _never_ask(call):
    raise AssertionError(f"{call.name} asked for approval")


def _tools(project):
    project.tool("look", "ls; touch {{ name }}\n", read_only=True,
                 parameters={"name": {"type": "string", "required": True}})  # fmt: skip
    project.tool("fetch", "echo fetched\n", read_only=True, network=True)
    project.tool("cached", "echo cached\n", read_only=True, writable=["cache"])
    project.tool("edit", "echo edited > edited\n", approval="never", read_only=False)
    project.tool("careful", "echo careful\n", approval="always", read_only=True)


@needs_bwrap
def test_with_the_opt_in_headless_offers_and_runs_only_confinable_read_only_tools(project):
    _tools(project)
    with project.host("auto", mode="headless", sandbox_untrusted_read_only=True) as host:
        assert not host.is_trusted()
        assert sorted(s.name for s in host.tools()) == ["look"]
        result = host.call("look", {"name": "planted"}, ask=_never_ask)
    assert not result.is_error or result.exit_code == 1, result.text
    assert not (project.root / "planted").exists()  # it ran, and ran read-only
    assert "Read-only file system" in result.text


@needs_bwrap
@pytest.mark.parametrize("mode", ["normal", "yolo"])
def test_other_untrusted_tools_still_ask(project, mode):
    _tools(project)
    asked = []

    def ask(call):
        asked.append(call.name)
        return False

    with project.host("auto", mode=mode, sandbox_untrusted_read_only=True) as host:
        for name in ("fetch", "cached", "edit", "careful"):
            assert host.call(name, {}, ask=ask).denied
        assert not host.call("look", {"name": "x"}, ask=_never_ask).denied
    assert asked == ["fetch", "cached", "edit", "careful"]


@needs_bwrap
def test_without_the_opt_in_an_untrusted_project_still_asks(project):
    _tools(project)
    with project.host("auto", mode="headless") as host:
        assert host.tools() == []
    with project.host("auto") as host:
        assert host.call("look", {"name": "x"}, ask=lambda call: False).denied


def test_the_opt_in_without_a_working_sandbox_changes_nothing(project, tmp_path, monkeypatch):
    _tools(project)
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap here
    monkeypatch.setattr(tooldrop_sandbox.plugin, "_said", type(tooldrop_sandbox.plugin._said)())
    with project.host("auto", mode="headless", sandbox_untrusted_read_only=True) as host:
        assert host.tools() == []
    with project.host("auto", sandbox_untrusted_read_only=True) as host:
        assert host.call("look", {"name": "x"}, ask=lambda call: False).denied


class _Unconfined:
    """A sandbox that vouches for every tool but never confines anything: a broken plugin."""

    @hookimpl(tryfirst=True)
    def tooldrop_confinement(self, spec):
        from tooldrop import Confinement

        return Confinement(by="liar")

    @hookimpl(tryfirst=True)
    def tooldrop_approve(self, call):
        return Decision.allow("a policy that allows everything")


def test_a_call_let_through_because_confined_never_runs_unconfined(project):
    """The core refuses the command when the sandbox that vouched did not confine it."""
    marker = project.root / "ran"
    project.tool("look", f"touch {marker}\n", read_only=True)
    plugins = [p for p in PLUGINS if p is not tooldrop_sandbox.plugin]
    host = ToolHost(project.root, sandbox="auto", sandbox_untrusted_read_only=True,
                    plugins=[*plugins, _Unconfined()], cache=False)  # fmt: skip
    with host:
        result = host.call("look", {}, ask=_never_ask)
    assert result.is_error
    assert "not trusted and its read-only tools run only confined" in result.text
    assert not marker.exists()


@needs_bwrap
def test_the_prompt_says_what_the_tool_is_allowed(project):
    project.tool("edit", "echo hi\n", approval="always")
    with project.host("auto") as host:
        call = ToolCall(spec=host.get("edit"), args={}, script="echo hi")
        text = describe_call(call, host)
    assert "Allowed: confined (bwrap): writes the project only, no network" in text


@needs_bwrap
def test_the_mcp_approval_prompt_says_what_the_tool_is_allowed(project):
    from tooldrop_mcp._elicit import prompt_message

    project.tool("fetch", "echo hi\n", approval="always", network=True)
    with project.host("auto") as host:
        call = ToolCall(spec=host.get("fetch"), args={}, script="echo hi")
        assert "Allowed: confined (bwrap): writes the project only, network allowed" in (
            prompt_message(call, host)
        )
    with project.host("off") as host:
        call = ToolCall(spec=host.get("fetch"), args={}, script="echo hi")
        assert "Allowed: not confined" in prompt_message(call, host)
