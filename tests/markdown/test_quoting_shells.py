"""Quoting, proven with real shells: any text (NUL aside) reaches the program unchanged.

The body ``printf %s {{ s }}`` is rendered by the plugin and run by ``/bin/bash -c`` and
``/bin/sh -c`` (dash here), directly with subprocess; what the shell prints must be exactly
the value, whatever quotes, dollars, backticks, newlines or unicode it holds.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tooldrop import ToolHost

SHELLS = [shell for shell in ("/bin/bash", "/bin/sh") if shutil.which(shell)]
TEXT = st.text(st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)))
NASTY = [
    "'", "''", "'\\''", "\\", "\\'", '"', "$(id)", "`id`", "${IFS}", "$'\\x27'", "; rm -rf / #",
    "a\nb", "\n", "-n", "--", "%s", "*", "~", "!!", "{a,b}", "a'b\"c$d`e\\f", " ", "\t", "\r\n",
    "é😀", "\u2028", "'; echo pwned; '",
]  # fmt: skip


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> ToolHost:
    root = tmp_path_factory.mktemp("quoting")
    tools = root / ".tooldrop" / "tools"
    tools.mkdir(parents=True)
    (tools / "one.md").write_text(
        "---\nname: one\ndescription: d\nparameters:\n  s:\n    type: string\n---\n"
        "printf %s {{ s }}\n"
    )
    (tools / "many.md").write_text(
        "---\nname: many\ndescription: d\nparameters:\n  xs:\n    type: array\n"
        "    items: {type: string}\n---\nprintf '%s\\0' first {{ xs }}\n"
    )
    with ToolHost(project_dir=root, user_dir=root / "user") as host:
        assert host.problems() == []
        yield host


def run(shell: str, script: str) -> bytes:
    done = subprocess.run([shell, "-c", script], capture_output=True, check=True, timeout=30)
    assert done.stderr == b""
    return done.stdout


@pytest.mark.parametrize("shell", SHELLS)
@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=TEXT)
def test_any_string_reaches_the_program_unchanged(host: ToolHost, shell: str, text: str) -> None:
    script = host.render("one", {"s": text})
    assert run(shell, script) == text.encode("utf-8")


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("value", NASTY)
def test_strings_made_to_break_quoting_do_not(host: ToolHost, shell: str, value: str) -> None:
    assert run(shell, host.render("one", {"s": value})) == value.encode("utf-8")


@pytest.mark.parametrize("shell", SHELLS)
@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(items=st.lists(TEXT, max_size=8))
@example(items=NASTY)
@example(items=[])
@example(items=[""])
def test_an_array_becomes_exactly_its_elements(
    host: ToolHost, shell: str, items: list[str]
) -> None:
    script = host.render("many", {"xs": items})
    printed = run(shell, script).split(b"\0")[:-1]
    assert printed == [b"first", *(item.encode("utf-8") for item in items)]


def test_the_script_is_exactly_the_template_with_quoted_values(host: ToolHost) -> None:
    assert host.render("one", {"s": "it's"}) == "printf %s 'it'\\''s'"
