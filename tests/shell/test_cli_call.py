"""``tooldrop call``: stdout is exactly the model's text; the exit status says how it went."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner

import tooldrop.approval
import tooldrop_shell
from tooldrop.cli import build_cli, load_plugin_set
from tooldrop.cli._call import parse_call_args

PARAMS = {
    "msg": {"type": "string"},
    "n": {"type": "integer"},
    "tags": {"type": "array", "items": {"type": "string"}},
}


@pytest.fixture
def cli(pack, project, tmp_path):
    pack.add("echo_args", "printf 'msg=%s n=%s tags=%s' {{msg}} {{n}} {{tags}}", params=PARAMS)
    pack.add("fails", "echo bad >&2; exit 4")
    pack.add("guarded", 'touch "$TOOLDROP_TEST_MARKER"; echo ran', approval="always")
    marker = tmp_path / "ran"
    plugins = load_plugin_set([tooldrop_shell.plugin, tooldrop.approval, pack])
    group = build_cli(plugins)

    def invoke(*args, **kwargs):
        base = ["--project", str(project), "--user-dir", str(tmp_path / "user")]
        return CliRunner().invoke(
            group, [*base, "call", *args], env={"TOOLDROP_TEST_MARKER": str(marker)}, **kwargs
        )

    invoke.marker = marker
    return invoke


def test_prints_exactly_the_result(cli):
    result = cli("echo_args", "--args", '{"msg": "hi", "n": 2}')
    assert result.exit_code == 0
    assert result.stdout == "EXIT_CODE: 0\nmsg=hi n=2 tags="
    assert result.stderr == ""


def test_key_value_pairs_override_args_and_follow_the_schema(cli):
    result = cli("echo_args", "--args", '{"msg": "a", "n": 1}', "msg=007", "n=5", 'tags=["x"]')
    assert result.stdout == 'EXIT_CODE: 0\nmsg=007 n=5 tags=["x"]'
    assert result.exit_code == 0


def test_a_value_of_the_wrong_type_is_an_error_result(cli):
    result = cli("echo_args", "n=five")
    assert result.exit_code == 1
    assert result.stdout == '⚒ Parameter "n" has wrong type — expected integer, got string'


def test_a_non_zero_exit_is_still_success(cli):
    result = cli("fails")
    assert result.exit_code == 0
    assert result.stdout == "EXIT_CODE: 4\nSTDERR:\nbad\nSTDOUT:\n"


def test_unknown_tool_is_exit_1_with_the_models_text(cli):
    result = cli("nope")
    assert result.exit_code == 1
    assert result.stdout.startswith('Unknown tool "nope". Available tools: ')


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--args", "{nope"], "--args is not valid JSON"),
        (["--args", "[1]"], "--args must be a JSON object, not list"),
        (["novalue"], "expected KEY=VALUE, got 'novalue'"),
        (["=x"], "expected KEY=VALUE"),
    ],
)
def test_unreadable_arguments(cli, args, message):
    result = cli("echo_args", *args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert message in result.stderr


def test_without_a_terminal_a_prompt_is_denied(cli):
    result = cli("guarded")
    assert result.exit_code == 2
    assert result.stdout.startswith("Tool call denied: ")
    assert "pass --yes" in result.stderr
    assert not cli.marker.exists()


def test_yes_answers_the_prompt(cli):
    result = cli("guarded", "--yes")
    assert result.exit_code == 0
    assert result.stdout == "EXIT_CODE: 0\nran"
    assert cli.marker.exists()


def test_parse_call_args_without_a_schema():
    assert parse_call_args(None, None, ["a=1", "b=x", "c=", "d=a=b"]) == {
        "a": 1,
        "b": "x",
        "c": "",
        "d": "a=b",
    }


# -- a real terminal -------------------------------------------------------------------------

DRIVER = textwrap.dedent(
    """
    import sys
    import tooldrop.approval, tooldrop_shell
    from tooldrop import Origin, ToolSpec, hookimpl
    from tooldrop.cli import load_plugin_set
    from tooldrop.cli import build_cli

    class Pack:
        @hookimpl
        def tooldrop_register_tools(self, register):
            register(ToolSpec(
                name="guarded", description="touches a file", approval="always",
                input_schema={"type": "object", "properties": {"path": {"type": "string"}}},
                origin=Origin(source="test", scope="plugin"), runner="shell",
                payload='touch "$1"'))

        @hookimpl
        def tooldrop_render(self, call):
            import shlex
            return "touch " + shlex.quote(call.args["path"]) + " && echo touched"

    plugins = load_plugin_set([tooldrop_shell.plugin, tooldrop.approval, Pack()])
    build_cli(plugins).main(args=sys.argv[1:], prog_name="tooldrop")
    """
)


def _call_on_a_terminal(project, tmp_path, answer: bytes):
    target = tmp_path / "touched"
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                DRIVER,
                "--project",
                str(project),
                "--user-dir",
                str(tmp_path / "user"),
                "call",
                "guarded",
                f"path={target}",
            ],
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        os.close(slave)
        slave = -1
        # The terminal queues the answer until the prompt reads it.
        os.write(master, answer)
        out, err = proc.communicate(timeout=60)
    finally:
        if slave != -1:
            os.close(slave)
        os.close(master)
    return proc.returncode, out.decode(), err.decode(), target


@pytest.mark.parametrize("answer", [b"y\n", b"yes\n"])
def test_terminal_prompt_yes_runs_it(project, tmp_path, answer):
    code, out, err, target = _call_on_a_terminal(project, tmp_path, answer)
    assert code == 0, err
    assert out == "EXIT_CODE: 0\ntouched"
    assert target.exists()
    # the prompt shows the tool, its arguments and the exact script, on stderr only
    assert "Tool: guarded" in err
    assert f'"path": "{target}"' in err
    assert f"| touch {target} && echo touched" in err
    assert "Run it? [y] yes, [n] no, [a] always allow, [e] edit the arguments" in err


@pytest.mark.parametrize("answer", [b"n\n", b"\n", b"\x04"])
def test_terminal_prompt_no_denies_it(project, tmp_path, answer):
    code, out, err, target = _call_on_a_terminal(project, tmp_path, answer)
    assert code == 2, err
    assert out == "Tool call denied: the user declined"
    assert not target.exists()
