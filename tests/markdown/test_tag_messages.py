"""The messages of the placeholder tag checks (:mod:`._tagcheck`): what a user reads for a
tag glued to a backslash, a ``$`` or a heredoc delimiter, an undeclared section name, a
section that does not close what it opens, a ``#`` after a closing tag, an array after an
assignment, and the near-miss warnings (on the line where the text stands)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tooldrop_markdown import posix_quote, render
from tooldrop_markdown._template import parse, tokenize

from .conftest import frontmatter

PARAMS = (
    "  x:\n    type: string\n  a:\n    type: boolean\n  b:\n    type: boolean\n"
    "  xs:\n    type: array\n    items: {type: string}\n"
)
BODY_LINE = 15  # the file line of the body's first line with PARAMS


def problems(load, body: str) -> list[tuple[str, int | None, str]]:
    result = load(frontmatter(body, PARAMS))
    return [(p.severity, p.line, p.message) for p in result.problems]


# (body, how the one error expected starts, how many times it must be reported)
ERRORS = [
    pytest.param("echo \\{{ x }}{{ x }}", "a backslash right before {{ x }}", 1, id="backslash"),
    pytest.param("echo ${{ x }}{{ x }}", "a $ right before {{ x }} turns", 1, id="dollar"),
    pytest.param(
        "cat <<{{ x }}{{ x }}\na\n", "{{ x }} stands in a heredoc delimiter", 1, id="delimiter"
    ),
    pytest.param(
        "{{#nope}}echo{{/nope}}",
        '{{# nope }} names no declared parameter; add "nope"',
        1,
        id="undeclared-section",
    ),
    pytest.param(
        "{{^nope}}echo{{/nope}}",
        '{{^ nope }} names no declared parameter; add "nope"',
        1,
        id="undeclared-inverted",
    ),
    pytest.param(
        "{{^b}}echo '{{/b}}'",
        "section {{^ b }} starts at the top level but its {{/ b }}",
        1,
        id="inverted-unbalanced",
    ),
    pytest.param(
        "{{#a}}{{#b}}'{{/a}}'{{/b}}",
        "section {{# a }} starts at the top level but its",
        1,
        id="crossed-sections",
    ),
    pytest.param(
        "echo {{#b}}c{{/b}}#d",
        "a # right after a section's closing tag starts a comment",
        1,
        id="hash-after-close",
    ),
    pytest.param(
        "echo $( ( (echo {{#b}}c{{/b}}#d) ) )",
        "a # right after a section's closing tag starts a comment",
        1,
        id="hash-after-close-in-nested-subshells",
    ),
    pytest.param(
        "a[{{ x }}]={{ xs }}",
        "array placeholder {{ xs }} right after a[{{ x }}]= assigns",
        1,
        id="array-after-subscript-tag",
    ),
]


@pytest.mark.parametrize(("body", "phrase", "count"), ERRORS)
def test_the_error_the_user_reads(load, body: str, phrase: str, count: int) -> None:
    found = problems(load, body)
    matching = [p for p in found if p[2].startswith(phrase)]
    assert len(matching) == count, found
    assert all(severity == "error" for severity, _, _ in matching), found


def test_a_hash_inside_a_word_after_a_placeholder_is_text(load, tmp_path: Path) -> None:
    # bash reads 'v'#'w' as one word: the # starts no comment there.
    body = "echo {{ x }}#{{ x }}"
    template, _ = parse(body, tokenize(body))
    script = render(template, {"x": "v"}, posix_quote)
    out = subprocess.run(["/bin/bash", "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout == "v#v\n"
    assert problems(load, body) == []


# (body, a phrase of the warning, the body line it stands on)
WARNINGS = [
    pytest.param(
        "echo {{ x }} a\necho b {{ #x }}", '"{{ #x }}" is not a section tag', 2, id="near-miss"
    ),
    pytest.param(
        "echo {{ x }} a\necho b {{#if x}}", '"{{#if x}}" is Handlebars', 2, id="handlebars"
    ),
]


@pytest.mark.parametrize(("body", "phrase", "line"), WARNINGS)
def test_the_warning_stands_on_its_line(load, body: str, phrase: str, line: int) -> None:
    found = problems(load, body)
    assert [(s, n) for s, n, m in found if phrase in m] == [("warning", BODY_LINE + line - 1)]


@pytest.mark.parametrize(
    "body",
    ['echo "{{#b}}c{{/b}}#d"', "echo '{{#b}}c{{/b}}#d'", "echo ${x:-{{#b}}c{{/b}}#d}"],
    ids=["double-quotes", "single-quotes", "parameter-expansion"],
)
def test_a_hash_after_a_close_in_quotes_is_text(load, body: str) -> None:
    # no comment starts there whether the section renders or not: the file loads
    assert problems(load, body) == []
