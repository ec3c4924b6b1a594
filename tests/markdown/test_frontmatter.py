"""Splitting a file into frontmatter and body, as the reference does (plus: a BOM is fine)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldrop_markdown._frontmatter import JS_WHITESPACE, split_frontmatter


@pytest.mark.parametrize(
    ("text", "front", "body"),
    [
        ("---\nname: t\n---\necho hi\n", "name: t", "echo hi"),
        ("---\r\nname: t\r\n---\r\necho hi\r\n", "name: t", "echo hi"),
        ("---\na: 1\nb: |\n  x\n  y\n---\nbody", "a: 1\nb: |\n  x\n  y", "body"),
        # Text on the closing line belongs to the body.
        ("---\nx: 1\n---echo same line", "x: 1", "echo same line"),
        # No newline after the closing line: accepted, empty body.
        ("---\nx: 1\n---", "x: 1", ""),
        ("---\ntitle: Hello\n---", "title: Hello", ""),
        # Empty blocks.
        ("---\n---\nbody", "", "body"),
        ("---\n\n---\nbody", "", "body"),
        ("---\n\n---\n", "", ""),
        # Trailing spaces on the opening line; blank lines after it are skipped (the
        # reference's ``---\s*\r?\n``), blank lines inside the block kept.
        ("---   \n\nname: t\n\n---\n  echo\n", "name: t\n", "echo"),
        # Whitespace-only lines after the opening: JavaScript's whitespace (a tab, U+FEFF).
        ("---\n\t\nname: t\n---\nbody", "name: t", "body"),
        ("---\ufeff\n\u3000\t \n  name: t\n---\nbody", "  name: t", "body"),
        ("---\r\n\t\r\nname: t\r\n---\r\nbody", "name: t", "body"),
        # A ``---`` right after the opening closes only when no later line does: here the
        # frontmatter is a YAML document start and the fields, and the tool loads.
        ("---\n---\nname: t\n---\nbody", "---\nname: t", "body"),
        ("---\n\n---\nname: t\n---\nbody", "---\nname: t", "body"),
        ("---\r\n---\r\nbody", "", "body"),
        # Only the first closing line counts: a later --- stays in the body.
        ("---\na: 1\n---\necho 1\n---\necho 2", "a: 1", "echo 1\n---\necho 2"),
        # A line that merely starts with --- closes too.
        ("---\na: 1\n----\nbody", "a: 1", "-\nbody"),
        # The body is trimmed as JavaScript trims (NBSP and U+2028 too), inside kept.
        ("---\n---\n\u00a0 \n echo  a \n\n b\u2028\n", "", "echo  a \n\n b"),
    ],
)
def test_splits_like_the_reference(text: str, front: str, body: str) -> None:
    split = split_frontmatter(text)
    assert split is not None
    assert (split.frontmatter, split.body) == (front, body)


@pytest.mark.parametrize(
    "text",
    [
        "just body",
        "just body\n---\nnot frontmatter",
        " ---\na: 1\n---\n",  # must start at byte 0
        "---a: 1\n---\n",  # the opening line holds nothing but ---
        # Not whitespace to JavaScript, though Python's ``str.isspace`` says so.
        "---\x1c\nname: t\n---\nbody",
        "---\x85\nname: t\n---\nbody",
        "---\u200b\nname: t\n---\nbody",
        "---\na: 1\n",  # never closed
        "---",
        "",
    ],
)
def test_no_frontmatter(text: str) -> None:
    assert split_frontmatter(text) is None


def test_lines_of_each_part() -> None:
    split = split_frontmatter("---\nname: t\ndescription: d\n---\n\n\n  echo {{ x }}\n")
    assert split is not None
    assert split.frontmatter_line == 2
    assert split.body_line == 7


def test_a_byte_order_mark_is_dropped_and_the_file_loads(load) -> None:
    # The reference reports "missing frontmatter" here; we load it (a deliberate difference).
    result = load("\ufeff---\nname: t\ndescription: d\n---\necho hi\n".encode())
    assert [tool.name for tool in result.tools] == ["t"]
    assert result.problems == ()


def test_a_file_without_frontmatter_says_what_to_do(load) -> None:
    (problem,) = load("echo hi\n").problems
    assert problem.message.startswith("Missing YAML frontmatter — custom tools must declare")
    assert problem.line == 1


@pytest.mark.parametrize(
    "text",
    [
        "---\n---\nname: t\ndescription: d\n---\necho hi\n",
        "---\n\t\nname: t\ndescription: d\n---\necho hi\n",
        "---\ufeff\nname: t\ndescription: d\n---\necho hi\n",
    ],
)
def test_files_the_reference_loads_load(load, text: str) -> None:
    result = load(text.encode())
    assert [tool.name for tool in result.tools] == ["t"]
    assert result.problems == ()


def test_lines_after_skipped_blank_lines_are_the_files_lines(load) -> None:
    (problem,) = load(b"---\n\t\n\nname: T\ndescription: d\n---\necho hi\n").problems
    assert problem.line == 4
    split = split_frontmatter("---\n \n\nname: t\n---\nx")
    assert split is not None
    assert split.frontmatter_line == 4


# The reference's split, written as its JavaScript pattern (Python's ``re`` backtracks the
# same way for these constructs), with JavaScript's ``\s`` spelled out.
_WS = "[" + re.escape(JS_WHITESPACE) + "]"
_REFERENCE = re.compile(rf"---{_WS}*\r?\n(?:([\s\S]*?)\r?\n)?---{_WS}*\r?\n?([\s\S]*)", re.DOTALL)


_PIECES = ["---", "\n", "\n---", "\r\n", " ", "\t", "\ufeff", "\x1c", "\x85", "a: 1", "x"]


@settings(max_examples=1000, deadline=None)
@given(st.booleans(), st.lists(st.sampled_from(_PIECES), max_size=12))
def test_the_split_is_the_reference_pattern(opened: bool, parts: list[str]) -> None:
    text = ("---" if opened else "") + "".join(parts)
    expected = _REFERENCE.fullmatch(text)
    split = split_frontmatter(text)
    if expected is None:
        assert split is None
    else:
        assert split is not None
        assert split.frontmatter == (expected.group(1) or "")
        assert split.body == expected.group(2).strip(JS_WHITESPACE)
