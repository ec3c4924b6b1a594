"""Which shell runs a tool, with which argv, and what it can and cannot read."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldrop import ToolCall
from tooldrop_shell import SHELLS, shell_argv
from tooldrop_shell._errors import SetupError
from tooldrop_shell._select import command_line
from tooldrop_shell.plugin import run_call


def test_named_shells_are_fixed_paths():
    assert shell_argv("bash", "echo hi") == ["/bin/bash", "-c", "echo hi"]
    assert shell_argv("sh", "echo hi") == ["/bin/sh", "-c", "echo hi"]
    # Even on Windows, as in the reference: a tool that asks for bash gets /bin/bash.
    assert shell_argv("sh", "x", windows=True) == ["/bin/sh", "-c", "x"]


def test_unset_shell_prefers_bash():
    expected = "/bin/bash" if Path("/bin/bash").exists() else "/bin/sh"
    assert shell_argv(None, "x", windows=False) == [expected, "-c", "x"]


def test_cmd_exe_uses_comspec_and_safe_switches():
    env = {"ComSpec": r"C:\Windows\system32\cmd.exe"}
    argv = shell_argv("cmd.exe", "echo hi", environ=env)
    assert argv == [r"C:\Windows\system32\cmd.exe", "/d", "/v:off", "/s", "/c", "echo hi"]
    assert shell_argv(None, "x", environ=env, windows=True)[0] == env["ComSpec"]
    # /s /c: one outer pair of quotes around the untouched script, not MSVC escaping.
    assert command_line(argv) == r'C:\Windows\system32\cmd.exe /d /v:off /s /c "echo hi"'
    assert command_line(["/bin/sh", "-c", "x"]) == ["/bin/sh", "-c", "x"]


def test_unknown_shell_is_refused():
    expected = r'unknown shell "zsh" \(expected one of: bash, sh, cmd.exe\)'
    with pytest.raises(SetupError, match=expected):
        shell_argv("zsh", "x")
    assert SHELLS == ("bash", "sh", "cmd.exe")


def test_never_the_users_shell(run, monkeypatch):
    monkeypatch.setenv("SHELL", "/bin/false")
    default = "/bin/bash" if Path("/bin/bash").exists() else "/bin/sh"
    assert run('echo "$0"').text == f"EXIT_CODE: 0\n{default}"


def test_sh_runs_sh_and_bash_runs_bash(run):
    assert run('echo "$0 ${BASH_VERSION:+is-bash}"', shell="bash").text == (
        "EXIT_CODE: 0\n/bin/bash is-bash"
    )
    assert run('echo "$0"', shell="sh").text == "EXIT_CODE: 0\n/bin/sh"


def test_stdin_is_closed(run):
    # A tool that reads stdin gets EOF at once instead of hanging on the host's terminal.
    result = run('cat; read -r line; echo "read=$?"', timeout_ms=10_000)
    assert result.text == "EXIT_CODE: 0\nread=1"


def test_missing_shell_binary_fails_to_start(run, monkeypatch):
    monkeypatch.setenv("ComSpec", "/nonexistent/cmd.exe")
    result = run("echo hi", shell="cmd.exe")
    assert result.is_error
    assert result.text.startswith("Custom tool failed to start: ")
    assert "/nonexistent/cmd.exe" in result.text


def test_unknown_shell_is_a_load_problem(pack, host):
    pack.add("fishy", "echo hi", shell="fish")
    problems = [p for p in host.problems() if p.field == "shell"]
    assert len(problems) == 1
    assert 'unknown shell "fish"' in problems[0].message
    assert host.get("fishy") is None


def test_unknown_shell_is_refused_at_run_time_too(pack, host):
    # A spec that never went through loading (a host calling the backend directly).
    spec = pack.add("fishy", "echo hi", shell="fish")
    result = run_call(ToolCall(spec=spec, args={}, script="touch ran"), host)
    assert result.is_error
    assert result.text.startswith('Custom tool failed to start: unknown shell "fish"')
    assert not (host.project_dir / "ran").exists()


def test_nul_byte_in_script_fails_to_start(run):
    result = run("echo a\0b")
    assert result.is_error
    assert result.text.startswith("Custom tool failed to start: ")
