"""What a tool returns becomes the text the model sees: the table of DESIGN §8."""

from __future__ import annotations

import dataclasses
import enum
import json
from pathlib import PurePosixPath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldrop import ToolResult
from tooldrop.pytools._results import (
    REPORTED_ERROR,
    UNSERIALIZABLE,
    result_from_exception,
    result_from_value,
)


@dataclasses.dataclass
class Record:
    name: str
    tags: tuple[str, ...] = ()


class Level(enum.Enum):
    LOW = "low"


circular: list[object] = []
circular.append(circular)

TABLE = [
    ("plain", "hello\n", "hello\n", False),
    ("empty str", "", "", False),
    ("none", None, "", False),
    ("true", True, "true", False),
    ("int", 42, "42", False),
    ("float", 2.5, "2.5", False),
    ("dict", {"b": 1, "a": "é"}, '{"b": 1, "a": "é"}', False),
    ("list", [1, "two", None], '[1, "two", null]', False),
    ("tuple", (1, 2), "[1, 2]", False),
    ("bytes", b"caf\xc3\xa9 \xff", "café \ufffd", False),
    ("bytearray", bytearray(b"ok"), "ok", False),
    (
        "envelope",
        {"content": [{"type": "text", "text": "line 1"}, {"type": "text", "text": "line 2"}]},
        "line 1\nline 2",
        False,
    ),
    (
        "envelope error",
        {"content": [{"type": "text", "text": "city not found"}], "isError": True},
        "city not found",
        True,
    ),
    ("envelope error without text", {"content": [], "isError": 1}, REPORTED_ERROR, True),
    ("envelope isError false", {"content": [], "isError": False}, "", False),
    (
        "envelope with other content",
        {
            "content": [
                {"type": "image", "data": "AAAA", "mimeType": "image/png"},
                {"type": "resource", "resource": {"uri": "file:///x", "text": "inline"}},
                {"type": "resource", "resource": {"uri": "file:///y", "blob": "AAAA"}},
                {"type": "resource_link", "uri": "file:///z"},
                {"type": "video"},
            ]
        },
        "[image: image/png]\ninline\n[resource: file:///y]\n[resource link: file:///z]\n"
        "[video content]",
        False,
    ),
    # Not an envelope: content items must be typed objects. Plain JSON, then.
    ("content that is data", {"content": ["a", "b"]}, '{"content": ["a", "b"]}', False),
    ("dataclass", Record("x", ("t",)), '{"name": "x", "tags": ["t"]}', False),
    ("enum", {"level": Level.LOW}, '{"level": "low"}', False),
    ("path", [PurePosixPath("/tmp/x")], '["/tmp/x"]', False),
    ("set", {1, 2}, UNSERIALIZABLE, False),
    ("object", object(), UNSERIALIZABLE, False),
    ("circular", circular, UNSERIALIZABLE, False),
    ("nan", float("nan"), UNSERIALIZABLE, False),
    ("infinity", [float("inf")], UNSERIALIZABLE, False),
    ("function", print, UNSERIALIZABLE, False),
    ("tool result", ToolResult.error("as is", exit_code=3), "as is", True),
]


@pytest.mark.parametrize(
    ("value", "text", "is_error"), [row[1:] for row in TABLE], ids=[row[0] for row in TABLE]
)
def test_result_table(value, text, is_error):
    result = result_from_value(value)
    assert (result.text, result.is_error) == (text, is_error)


class Exploding:
    def __str__(self) -> str:
        raise RuntimeError("no str for you")


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("nope")


@pytest.mark.parametrize(
    ("exc", "text"),
    [
        (ValueError("bad city"), "ValueError: bad city"),
        (KeyError("city"), "KeyError: 'city'"),
        (RuntimeError(), "RuntimeError"),
        (Unprintable(), "Unprintable"),
        (SystemExit(2), "SystemExit: 2"),
    ],
)
def test_exceptions_become_error_results_without_tracebacks(exc, text):
    result = result_from_exception(exc)
    assert (result.text, result.is_error) == (text, True)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_every_json_value_round_trips(value):
    result = result_from_value(value)
    if isinstance(value, str):
        assert result.text == value
    elif value is None:
        assert result.text == ""
    elif isinstance(value, dict) and isinstance(value.get("content"), list):
        pass  # may be an envelope; covered by the table
    else:
        assert json.loads(result.text) == value
    assert not result.is_error


def test_the_table_through_a_real_tool(dirs, host, yes):
    dirs.personal(
        "values.py",
        """
        VALUES = {
            "s": "text", "n": None, "j": {"k": [1, 2]}, "b": b"\\xff",
            "e": {"content": [{"type": "text", "text": "bad"}], "isError": True},
            "u": {1, 2},
        }
        default = {"name": "values", "description": "d",
                   "inputSchema": {"properties": {"k": {"type": "string"}}},
                   "execute": lambda args: VALUES[args["k"]]}
        """,
    )
    got = {
        key: (r.text, r.is_error)
        for key in "snjbeu"
        for r in [host.call("custom__values", {"k": key}, ask=yes)]
    }
    assert got == {
        "s": ("text", False),
        "n": ("", False),
        "j": ('{"k": [1, 2]}', False),
        "b": ("\ufffd", False),
        "e": ("bad", True),
        "u": (UNSERIALIZABLE, False),
    }
