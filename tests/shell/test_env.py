"""The environment a tool runs in: the host's, plus its ``env:``, minus nothing dangerous."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldrop import ToolCall
from tooldrop_shell import FORBIDDEN_ENV, build_env, expand_vars, is_forbidden_env
from tooldrop_shell._errors import SetupError
from tooldrop_shell.plugin import run_call

ENV = {"FOO": "bar", "EMPTY": "", "D": "dir"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$FOO/x", "bar/x"),
        ("${FOO}-y", "bar-y"),
        ("${MISSING:-fallback}", "fallback"),
        ("${MISSING}", ""),
        ("$MISSING", ""),
        ("${EMPTY:-x}", ""),  # set-but-empty wins over the default (the reference's rule)
        ("${FOO:-x}", "bar"),
        ("$$FOO", "$bar"),  # no escaping: $ then the value
        ("\\$FOO", "\\bar"),
        ("${FOO:=z}", "${FOO:=z}"),  # other operators stay literal
        ("${1}", "${1}"),
        ("$1", "$1"),
        ("a$", "a$"),
        ("${MISSING:-a b/c}", "a b/c"),
        ("${MISSING:-$FOO}", "$FOO"),  # a default is used as written, not expanded again
        ("$FOO_BAR", ""),  # the longest name is taken
        ("${FOO}_BAR", "bar_BAR"),
        ("no variables", "no variables"),
    ],
)
def test_expansion(text, expected):
    assert expand_vars(text, ENV) == expected


@given(st.text())
def test_text_without_dollar_is_unchanged(text):
    text = text.replace("$", "")
    assert expand_vars(text, ENV) == text


def test_expansion_reads_os_environ_by_default(monkeypatch):
    monkeypatch.setenv("TOOLDROP_T", "v")
    assert expand_vars("${TOOLDROP_T}", None) == "v"


@pytest.mark.parametrize(
    "name",
    [
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "LD_",
        "ld_preload",
        "DYLD_INSERT_LIBRARIES",
        "BASH_ENV",
        "ENV",
        "BASH_FUNC_ls%%",
        "IFS",
        "PS4",
        "SHELLOPTS",
        "PROMPT_COMMAND",
        "GIT_CONFIG_COUNT",
        "GIT_CONFIG_KEY_0",
        "GIT_CONFIG_PARAMETERS",
        "GIT_SSH_COMMAND",
        "git_proxy_command",
        "GIT_EXTERNAL_DIFF",
        "NODE_OPTIONS",
        "PYTHONPATH",
        "PYTHONSTARTUP",
        "PERL5OPT",
        "PERL5LIB",
        "RUBYOPT",
        "JAVA_TOOL_OPTIONS",
        "GCONV_PATH",
        "LESSOPEN",
        "GLIBC_TUNABLES",
    ],
)
def test_forbidden_names(name):
    assert is_forbidden_env(name)


@pytest.mark.parametrize(
    "name",
    [
        "PATH",
        "HOME",
        "LANG",
        "ENVIRONMENT",
        "MY_LD_PATH",
        "PS1",
        "IFS2",
        "PYTHONUNBUFFERED",
        "GIT_DIR",
        "NODE_ENV",
        "GIT_COMMAND",
    ],
)
def test_allowed_names(name):
    assert not is_forbidden_env(name)


def test_forbidden_list_keeps_the_designs_names_and_adds_code_loading_ones():
    design = ("LD_*", "DYLD_*", "BASH_ENV", "ENV", "BASH_FUNC_*", "IFS", "PS4", "SHELLOPTS")
    assert set(design) <= set(FORBIDDEN_ENV)
    for family in ("GIT_CONFIG*", "GIT_*_COMMAND", "NODE_OPTIONS", "PERL5*", "GCONV_PATH"):
        assert family in FORBIDDEN_ENV


def test_build_env_merges_and_expands_from_the_host_not_siblings():
    env = build_env({"GREETING": "hi $FOO", "FOO": "tool", "OTHER": "${FOO}"}, ENV)
    assert env is not None
    assert env["GREETING"] == "hi bar"
    assert env["OTHER"] == "bar"  # from the host, not the sibling key
    assert env["FOO"] == "tool"  # the tool's value wins
    assert env["D"] == "dir"
    assert build_env({}, ENV) is None  # nothing added: inherit


def test_build_env_refuses_bad_names_and_values():
    with pytest.raises(SetupError, match="may not set LD_PRELOAD"):
        build_env({"LD_PRELOAD": "/tmp/evil.so"}, ENV)
    with pytest.raises(SetupError, match="not a valid environment variable name"):
        build_env({"A=B": "x"}, ENV)
    with pytest.raises(SetupError, match="NUL"):
        build_env({"A": "x\0y"}, ENV)


def test_tool_env_reaches_the_script(run, monkeypatch):
    monkeypatch.setenv("HOST_VALUE", "from-host")
    result = run(
        'printf "%s|%s|%s|%s" "$A" "$B" "$EMPTY_ONE" "${EMPTY_ONE+set}"',
        env={"A": "a=${HOST_VALUE}", "B": "${NOT_SET_ANYWHERE:-dflt}", "EMPTY_ONE": ""},
    )
    assert result.text == "EXIT_CODE: 0\na=from-host|dflt||set"


def test_host_environment_is_inherited(run, monkeypatch):
    monkeypatch.setenv("TOOLDROP_INHERITED", "yes")
    assert run('echo "$TOOLDROP_INHERITED"').text == "EXIT_CODE: 0\nyes"
    assert run('echo "$TOOLDROP_INHERITED"', env={"X": "1"}).text == "EXIT_CODE: 0\nyes"


def test_path_may_be_replaced(run, tmp_path):
    result = run('echo "$PATH"', env={"PATH": f"{tmp_path}:/usr/bin:/bin"})
    assert result.text == f"EXIT_CODE: 0\n{tmp_path}:/usr/bin:/bin"


def test_arguments_never_go_into_the_environment(run):
    result = run(
        "env | grep -c SECRET_ARG_VALUE || true",
        {"p": "SECRET_ARG_VALUE"},
        params={"p": {"type": "string"}},
    )
    assert result.text == "EXIT_CODE: 0\n0"


def test_forbidden_env_is_a_load_problem(pack, host):
    pack.add("preload", "echo hi", env={"LD_PRELOAD": "/tmp/evil.so", "OK": "1"})
    problems = [p for p in host.problems() if p.field.startswith("env.")]
    assert [p.field for p in problems] == ["env.LD_PRELOAD"]
    assert "may not set LD_PRELOAD" in problems[0].message
    assert host.get("preload") is None


def test_forbidden_env_is_refused_at_run_time_too(pack, host, tmp_path):
    # Defense in depth: a spec that reaches the backend without being loaded.
    spec = pack.add("preload", "x", env={"BASH_ENV": str(tmp_path / "rc")})
    marker = tmp_path / "ran"
    result = run_call(ToolCall(spec=spec, args={}, script=f"touch {marker}"), host)
    assert result.is_error
    assert result.text.startswith("Custom tool env may not set BASH_ENV")
    assert not marker.exists()
