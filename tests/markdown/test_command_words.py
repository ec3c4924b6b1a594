"""How the checks read a command's words (the tree-sitter reading of :mod:`._bashtree`): a
name-taking builtin spelled with quotes or a backslash is still that builtin to bash, and a
test's ``-v`` anywhere in ``[ … ]`` still names a variable.

Each row is first run by the real bash with a hostile value (the marker file appears), then
refused at load with the message naming the builtin as bash reads it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tooldrop_markdown import posix_quote, render
from tooldrop_markdown._template import parse, tokenize

from .conftest import frontmatter

MARKER = "PWNED"
HOSTILE = f"a[$(touch {MARKER})]"
PARAMS = "  x:\n    type: string\n"

# (body, the builtin the message names)
ROWS = [
    pytest.param("re\\ad {{ x }} <<< 1", "is given to read,", id="backslash-in-name"),
    pytest.param("'read' {{ x }} <<< 1", "is given to read,", id="single-quoted-name"),
    pytest.param('"read" {{ x }} <<< 1', "is given to read,", id="double-quoted-name"),
    pytest.param("r'e'ad {{ x }} <<< 1", "is given to read,", id="name-in-pieces"),
    pytest.param('r"e"ad {{ x }} <<< 1', "is given to read,", id="name-with-dq-piece"),
    pytest.param('command "read" {{ x }} <<< 1', "is given to read,", id="quoted-after-command"),
    pytest.param("[ -v {{ x }} -a 1 ]", "is given to [ -v,", id="test-v-before-and"),
]


@pytest.mark.parametrize(("body", "phrase"), ROWS)
def test_bash_runs_the_value(tmp_path: Path, body: str, phrase: str) -> None:
    template, _ = parse(body, tokenize(body))
    script = render(template, {"x": HOSTILE}, posix_quote)
    subprocess.run(
        ["/bin/bash", "-c", script], cwd=tmp_path, capture_output=True, timeout=10, check=False
    )
    assert (tmp_path / MARKER).exists(), script


@pytest.mark.parametrize(("body", "phrase"), ROWS)
def test_the_load_names_the_builtin(load, body: str, phrase: str) -> None:
    result = load(frontmatter(body, PARAMS))
    assert result.tools == ()
    messages = [p.message for p in result.problems if p.severity == "error"]
    assert any(phrase in m for m in messages), messages


# A body the checks cannot parse: the message quotes where, as the user wrote it.
BROKEN = [
    pytest.param("echo {{ x }} )", "column 10: ')'", id="stray-paren"),
    pytest.param(
        "echo {{ x }}; if   then \t aaaaaaaaa bbbbbbbbb ccccccccc; fi",
        'if then aaaaaaaaa bb…"',
        id="long-snippet-shortened",
    ),
    pytest.param("echo {{ x }}; echo $(ls", "$(ls' is never closed", id="never-closed"),
]


@pytest.mark.parametrize(("body", "phrase"), BROKEN)
def test_a_broken_script_is_quoted(load, body: str, phrase: str) -> None:
    result = load(frontmatter(body, PARAMS))
    messages = [p.message for p in result.problems]
    assert any("cannot parse" in m and phrase in m for m in messages), messages
