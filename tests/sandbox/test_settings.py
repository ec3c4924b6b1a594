"""The settings: ``off`` / ``auto`` / ``required``, where they are read, and failing closed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import tooldrop.approval
import tooldrop_markdown.plugin
import tooldrop_sandbox.plugin
import tooldrop_shell.plugin
from tooldrop import ToolHost, hookimpl, tool
from tooldrop.cli._config import load_settings

from .conftest import needs_bwrap


@pytest.fixture
def no_bwrap(tmp_path, monkeypatch):
    """A PATH without bwrap on it (the shell backend runs /bin/bash by its full path)."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setattr(tooldrop_sandbox.plugin, "_said", type(tooldrop_sandbox.plugin._said)())
    return empty


def test_required_without_bwrap_refuses_and_runs_nothing(project, no_bwrap):
    marker = project.root / "ran"
    project.tool("harmless", f"touch {marker}\n", read_only=True)
    result = project.call("harmless", "required")
    assert result.is_error
    assert result.text.startswith("⚒ Refused to run harmless: the sandbox is required")
    assert "bwrap (bubblewrap) is not installed or not on PATH" in result.text
    assert "Nothing ran" in result.text
    assert not marker.exists()


def test_required_without_bwrap_refuses_on_the_command_line(project, tmp_path):
    marker = project.root / "ran"
    project.tool("harmless", f"touch {marker}\n", read_only=True)
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "tooldrop", "--project", str(project.root), "--sandbox",
         "required", "call", "harmless", "--yes"],
        capture_output=True, text=True, env={"PATH": str(empty), "HOME": str(tmp_path)},
        timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "the sandbox is required (sandbox: required) but cannot confine it here" in done.stdout
    assert not marker.exists()


def test_auto_without_bwrap_says_so_once_and_runs_unconfined(project, no_bwrap, capsys):
    project.tool("write", "echo x > written\n", approval="always")
    with project.host("auto") as host:
        first = host.call("write", {}, ask=lambda call: True)
        second = host.call("write", {}, ask=lambda call: True)
    assert not first.is_error and not second.is_error
    assert (project.root / "written").read_text() == "x\n"
    err = capsys.readouterr().err
    assert err.count("sandbox: auto, but shell tools cannot be confined here") == 1
    assert "Install bubblewrap" in err


def test_off_never_mentions_the_sandbox(project, no_bwrap, capsys):
    project.tool("echo", "echo hi\n")
    assert "hi" in project.call("echo", "off").text
    assert capsys.readouterr().err == ""


def test_required_with_no_sandbox_plugin_at_all_fails_closed(project):
    """The core's own rule: required, and nothing confined the command, means no run."""
    marker = project.root / "ran"
    project.tool("harmless", f"touch {marker}\n")
    plugins = [tooldrop_markdown.plugin, tooldrop_shell.plugin, tooldrop.approval]
    with ToolHost(project.root, sandbox="required", plugins=plugins, cache=False) as host:
        result = host.call("harmless", {}, ask=lambda call: True)
    assert result.is_error
    assert "no sandbox plugin confined the command" in result.text
    assert not marker.exists()


def test_required_denies_python_tools_which_cannot_be_confined(project):
    @tool
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    class Pack:
        @hookimpl
        def tooldrop_register_tools(self, register):
            register(add)

    import tooldrop_python.plugin

    plugins = [tooldrop_python.plugin, tooldrop.approval, tooldrop_sandbox.plugin, Pack()]
    for setting, denied in (("required", True), ("auto", False)):
        with ToolHost(project.root, sandbox=setting, plugins=plugins, cache=False) as host:
            result = host.call("add", {"a": 1, "b": 2}, ask=lambda call: True)
        assert result.denied is denied, result.text
        if denied:
            assert "only shell tools can be confined" in result.text


def test_an_unknown_setting_is_refused():
    with pytest.raises(ValueError, match="unknown sandbox setting 'on'"):
        ToolHost(".", sandbox="on", plugins=[])


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_the_settings_come_from_the_personal_config_only(tmp_path):
    project, personal = tmp_path / "project", tmp_path / "personal"
    _write(personal / "config.yaml", "sandbox: required\nsandboxUntrustedReadOnly: true\n")
    _write(project / ".tooldrop" / "config.yaml", "sandbox: off\nsandboxUntrustedReadOnly: true\n")
    settings = load_settings(project, personal, "tooldrop")
    assert settings.sandbox == "required"
    assert settings.sandbox_untrusted_read_only is True
    warned = {(p.field, p.severity) for p in settings.problems}
    assert warned == {("sandbox", "warning"), ("sandboxUntrustedReadOnly", "warning")}

    # A project alone can neither set the sandbox nor opt its own tools in.
    (personal / "config.yaml").unlink()
    settings = load_settings(project, personal, "tooldrop")
    assert settings.sandbox is None
    assert settings.sandbox_untrusted_read_only is False


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("sandbox: always\n", "sandbox"),
        ("sandbox: 1\n", "sandbox"),
        ("sandboxUntrustedReadOnly: yes please\n", "sandboxUntrustedReadOnly"),
    ],
)
def test_a_bad_setting_is_a_problem_naming_the_file_and_field(tmp_path, text, field):
    _write(tmp_path / "personal" / "config.yaml", text)
    settings = load_settings(tmp_path / "project", tmp_path / "personal", "tooldrop")
    assert [(p.field, p.severity) for p in settings.problems] == [(field, "error")]
    assert settings.problems[0].path == tmp_path / "personal" / "config.yaml"


def test_yaml_off_without_quotes_means_off(tmp_path):
    _write(tmp_path / "personal" / "config.yaml", "sandbox: off\n")  # YAML 1.1: false
    settings = load_settings(tmp_path / "project", tmp_path / "personal", "tooldrop")
    assert settings.sandbox == "off" and settings.problems == []


@needs_bwrap
def test_show_and_the_prompt_say_what_a_tool_is_allowed(project, tmp_path):
    (project.root / "cache").mkdir(parents=True)
    project.tool("lint", "echo hi\n", read_only=True, writable=["cache"])
    project.tool("fetch", "echo hi\n", read_only=True, network=True)
    personal = tmp_path / "personal"
    _write(personal / "config.yaml", "sandbox: auto\n")
    base = [sys.executable, "-m", "tooldrop", "--project", str(project.root), "--user-dir",
            str(personal)]  # fmt: skip

    def run(*args: str) -> str:
        done = subprocess.run(
            [*base, *args], capture_output=True, text=True, timeout=60, check=False
        )
        return done.stdout + done.stderr

    assert "allowed    confined (bwrap): writes cache only, no network" in run("show", "lint")
    assert "confined (bwrap): writes nothing, network allowed" in run("show", "fetch")
    assert "full rights (the tool asks for network: true)" in run(
        "--sandbox", "off", "show", "fetch"
    )
    trusted = run("trust")
    assert "lint:\n  Allowed: confined (bwrap): writes cache only, no network" in trusted
    assert "fetch:\n  Allowed: confined (bwrap): writes nothing, network allowed" in trusted


def test_a_bwrap_inside_the_project_is_never_used(project, monkeypatch):
    """A project could ship a fake bwrap that confines nothing; a PATH with ./bin finds it."""
    fake = project.root / "bin" / "bwrap"
    fake.parent.mkdir(parents=True)
    ran = project.root / "fake-ran"
    fake.write_text(
        f'#!/bin/sh\ntouch {ran}\nwhile [ "$1" != "--" ]; do shift; done; shift; exec "$@"\n'
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:{os.environ['PATH']}")
    marker = project.root / "ran"
    project.tool("harmless", f"touch {marker}\n", read_only=True)
    result = project.call("harmless", "required")
    assert result.is_error
    assert "bin/bwrap is inside the project, so it is not trusted" in result.text
    assert not marker.exists()
    assert not ran.exists()  # never run, not even to check that it works
