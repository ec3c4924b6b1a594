"""The shared converter is strict, and its errors name the field that is wrong."""

from __future__ import annotations

from typing import Literal

import attrs
import pytest

from tooldrop import converter, problems_from_error, structure


def _positive(instance, attribute, value):
    if value is not None and value <= 0:
        raise ValueError("must be positive", attribute)


@attrs.frozen(kw_only=True)
class Param:
    type: Literal["string", "integer"]
    required: bool = False
    minLength: int | None = attrs.field(default=None, validator=_positive)


@attrs.frozen(kw_only=True)
class ToolFile:
    name: str
    parameters: dict[str, Param] = attrs.field(factory=dict)
    tags: list[str] = attrs.field(factory=list)
    timeout_ms: int = 30000


@pytest.mark.parametrize(
    ("value", "kind", "message"),
    [
        (1, str, "must be a string, got number"),
        ("no", bool, "must be a boolean (true or false), got string"),
        (1, bool, "must be a boolean (true or false), got number"),
        (True, int, "must be a finite number, got boolean"),
        ("3", int, "must be a finite number, got string"),
        (1.5, int, "must be an integer"),
        (float("inf"), float, "must be a finite number"),
    ],
)
def test_primitives_are_strict(value, kind, message):
    with pytest.raises(
        (TypeError, ValueError), match=message.replace("(", r"\(").replace(")", r"\)")
    ):
        converter.structure(value, kind)


def test_integral_floats_are_integers_like_in_javascript():
    assert converter.structure(30000.0, int) == 30000


def test_every_failure_gets_a_dotted_path_and_a_line():
    data = {
        "name": 5,
        "parameters": {
            "ns": {"type": "object", "required": "yes"},
            "ok": {"type": "string", "minLength": -1},
        },
        "tags": ["a", 2],
        "extra": True,
    }
    lines = {"name": 2, "parameters.ns.type": 5, "parameters.ns.required": 6, "tags[1]": 9}
    obj, problems = structure(data, ToolFile, path="t.md", line_of=lines.get)
    assert obj is None
    found = {(p.field, p.line, p.message) for p in problems}
    assert ("name", 2, "must be a string, got number") in found
    assert ("parameters.ns.type", 5, "must be one of: string, integer (got 'object')") in found
    assert ("parameters.ns.required", 6, "must be a boolean (true or false), got string") in found
    assert ("tags[1]", 9, "must be a string, got number") in found
    assert ("", None, "unknown key(s): extra") in found
    assert all(str(p.path) == "t.md" for p in problems)


def test_validator_messages_keep_their_field():
    _, problems = structure(
        {"name": "t", "parameters": {"ok": {"type": "string", "minLength": -1}}}, ToolFile
    )
    assert [(p.field, p.message) for p in problems] == [
        ("parameters.ok.minLength", "must be positive")
    ]


def test_a_missing_field_is_reported_as_required():
    _, problems = structure({}, ToolFile)
    assert [(p.field, p.message) for p in problems] == [("name", "is required")]


def test_problems_from_error_handles_plain_exceptions():
    [problem] = problems_from_error(RuntimeError("boom"), path="x", prefix="root")
    assert (problem.field, problem.message) == ("root", "boom")
