"""Rendering and running: every value is one quoted word, and the program sees exactly it.

The calls run for real: the default policy, tooldrop-shell under /bin/sh and this plugin.
"""

from __future__ import annotations

import json
import shlex
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldrop_toml import load_toml, render_argv, render_script

ECHO_ARGV = "import json, sys; print(json.dumps(sys.argv[1:]))"


def argv_tool(command: list[str], params: str) -> str:
    """A tool that prints the argv it received as JSON."""
    full = [sys.executable, "-c", ECHO_ARGV, *command]
    return (
        'name = "show_argv"\ndescription = "Print argv."\n'
        f'command = {json.dumps(full)}\napproval = "never"\n{params}'
    )


PARAMS = """
[parameters.text]
type = "string"
[parameters.count]
type = "integer"
default = 3
[parameters.ratio]
type = "number"
[parameters.flag]
type = "boolean"
[parameters.paths]
type = "array"
items = { type = "string" }
"""


@pytest.fixture
def host(tools_dir, make_host):
    (tools_dir / "argv.toml").write_text(
        argv_tool(["--text={text}", "{count}", "r={ratio}", "{flag}", "{paths}", "{{x}}"], PARAMS)
    )
    host = make_host(mode="yolo")
    host.trust()
    return host


def ran(host, args) -> list[str]:
    result = host.call("show_argv", args)
    assert not result.is_error, result.text
    first, _, rest = result.text.partition("\n")
    assert first == "EXIT_CODE: 0"
    return json.loads(rest)


def test_values_fill_their_elements_and_defaults_apply(host):
    assert ran(host, {"text": "hi", "ratio": 0.5, "flag": False, "paths": ["a b", "c"]}) == [
        "--text=hi",
        "3",
        "r=0.5",
        "false",
        "a b",
        "c",
        "{x}",
    ]


def test_an_element_whose_argument_is_left_out_is_dropped(host):
    assert ran(host, {}) == ["3", "{x}"]
    assert ran(host, {"paths": []}) == ["3", "{x}"]


def test_numbers_render_as_json_writes_them(host):
    assert ran(host, {"count": 7.0, "ratio": 2.0})[:2] == ["7", "r=2"]


@pytest.mark.parametrize(
    "hostile",
    [
        "; rm -rf /tmp/x; #",
        "$(touch pwned)",
        "`touch pwned`",
        "'; touch pwned; '",
        '"; touch pwned; "',
        "a\nb\ttouch pwned",
        "--help",
        "*",
        "~",
        "",
    ],
)
def test_hostile_values_reach_the_program_as_one_argument(host, hostile, tools_dir):
    assert ran(host, {"text": hostile, "paths": [hostile]}) == [
        f"--text={hostile}",
        "3",
        hostile,
        "{x}",
    ]
    assert not (tools_dir.parents[1] / "pwned").exists()


def test_a_nul_byte_is_refused_before_anything_runs(host):
    result = host.call("show_argv", {"text": "a\0b"})
    assert result.is_error
    assert "NUL byte" in result.text


def test_invalid_arguments_never_render(host):
    result = host.call("show_argv", {"count": "3; ls", "extra": 1})
    assert result.is_error
    assert 'Parameter "count" has wrong type' in result.text


def test_the_rendered_script_is_what_tooldrop_render_shows(host):
    script = host.render("show_argv", {"text": "it's"})
    assert script.endswith("'--text=it'\"'\"'s' 3 '{x}'")


def test_a_cwd_outside_the_project_fails_the_call_and_nothing_runs(tools_dir, make_host):
    (tools_dir / "out.toml").write_text(
        'name = "out"\ndescription = "d"\ncommand = ["touch", "ran"]\napproval = "never"\n'
        'cwd = "../"\n'
    )
    host = make_host()
    host.trust()
    result = host.call("out", {})
    assert result.is_error
    assert result.text == "Custom tool cwd escapes the project directory"
    assert not (tools_dir.parents[2] / "ran").exists()


def test_a_timeout_kills_the_command(tools_dir, make_host):
    (tools_dir / "slow.toml").write_text(
        'name = "slow"\ndescription = "d"\ncommand = ["sleep", "30"]\napproval = "never"\n'
        "timeout_ms = 200\n"
    )
    host = make_host()
    host.trust()
    result = host.call("slow", {})
    assert result.timed_out
    assert result.text.startswith("Custom tool timed out after 200ms")


def test_untrusted_project_tools_ask_and_headless_hosts_deny(tools_dir, make_host):
    (tools_dir / "argv.toml").write_text(argv_tool([], ""))
    asked: list[str] = []
    result = make_host(mode="yolo").call("show_argv", {}, ask=lambda c: asked.append(c.script))
    assert result.denied  # approval = "never", yolo mode: still asks until trusted
    assert asked == [shlex.join([sys.executable, "-c", ECHO_ARGV])]
    assert make_host(mode="headless").tools() == []
    make_host().trust()
    assert [s.name for s in make_host(mode="headless").tools()] == ["show_argv"]
    assert not make_host().call("show_argv", {}, ask=lambda c: asked.append(c.script)).is_error
    assert len(asked) == 1


def toml_array(items: list[str]) -> str:
    """A TOML array of basic strings, escaping all that TOML does not take as it is."""

    def one(text: str) -> str:
        return (
            '"'
            + "".join(c if c.isprintable() and c not in '"\\' else f"\\U{ord(c):08x}" for c in text)
            + '"'
        )

    return "[" + ", ".join(one(item) for item in items) + "]"


TEXT = st.text(st.characters(exclude_characters="\0", exclude_categories=("Cs",)), max_size=40)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prefix=TEXT, value=TEXT, items=st.lists(TEXT, max_size=4))
def test_shlex_reads_back_exactly_the_argv(tmp_path, prefix, value, items):
    escaped = prefix.replace("{", "{{").replace("}", "}}")
    (tmp_path / "t.toml").write_text(
        'name = "t"\ndescription = "d"\n'
        f"command = {toml_array(['prog', escaped + '{v}', '{xs}'])}\n"
        '[parameters.v]\ntype = "string"\n[parameters.xs]\ntype = "array"\n',
        encoding="utf-8",
    )
    [spec] = load_toml(tmp_path / "t.toml", "personal").tools
    args = {"v": value, "xs": items}
    assert render_argv(spec.payload, args) == ["prog", prefix + value, *items]
    assert shlex.split(render_script(spec.payload, args)) == ["prog", prefix + value, *items]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=TEXT)
def test_a_real_sh_passes_any_value_through_unchanged(host, value):
    assert ran(host, {"text": value, "paths": [value]})[0] == f"--text={value}"
