"""Argument validation against JSON Schema, in the reference's wording."""

from __future__ import annotations

import pytest

from tooldrop import compile_pattern, validate_args


def props(**properties):
    return {"type": "object", "properties": properties, "additionalProperties": False}


@pytest.mark.parametrize(
    ("schema", "args", "message"),
    [
        (props(x={"type": "string"}) | {"required": ["x"]}, {}, "⚒ Missing required parameter: x"),
        (
            props(n={"type": "number"}),
            {"n": "abc"},
            '⚒ Parameter "n" has wrong type — expected number, got string',
        ),
        (
            props(n={"type": "integer"}),
            {"n": 1.5},
            '⚒ Parameter "n" has wrong type — expected integer, got number',
        ),
        (
            props(b={"type": "boolean"}),
            {"b": "true"},
            '⚒ Parameter "b" has wrong type — expected boolean, got string',
        ),
        (
            props(c={"type": "string", "enum": ["red", "green"]}),
            {"c": "blue"},
            '⚒ Parameter "c" must be one of: "red", "green"',
        ),
        (
            props(s={"type": "string", "minLength": 2}),
            {"s": "a"},
            '⚒ Parameter "s" is too short (min 2 chars)',
        ),
        (
            props(s={"type": "string", "maxLength": 4}),
            {"s": "abcde"},
            '⚒ Parameter "s" is too long (max 4 chars)',
        ),
        (
            props(s={"type": "string", "pattern": "^[a-z]+$"}),
            {"s": "Has-Dashes"},
            '⚒ Parameter "s" does not match pattern ^[a-z]+$',
        ),
        (
            props(n={"type": "integer", "minimum": 1}),
            {"n": 0},
            '⚒ Parameter "n" is below minimum (1)',
        ),
        (
            props(n={"type": "integer", "maximum": 5}),
            {"n": 6},
            '⚒ Parameter "n" is above maximum (5)',
        ),
        (  # YAML's `max: 1e3` is a float: the reference shows it as JavaScript does
            props(n={"type": "number", "maximum": 1e3}),
            {"n": 1001},
            '⚒ Parameter "n" is above maximum (1000)',
        ),
        (
            props(n={"type": "number", "minimum": 0.5}),
            {"n": 0},
            '⚒ Parameter "n" is below minimum (0.5)',
        ),
        (
            props(n={"type": "number", "enum": [1.0, 2.5, "a"]}),
            {"n": 3},
            '⚒ Parameter "n" must be one of: 1, 2.5, "a"',
        ),
        (
            props(xs={"type": "array", "items": {"type": "string"}}),
            {"xs": ["a", 1]},
            '⚒ Parameter "xs[1]" has wrong type — expected string, got number',
        ),
        (
            props(x={"type": "string"}),
            {"x": "a", "y": "b"},
            "⚒ Unknown parameter: y (this tool accepts: x)",
        ),
    ],
)
def test_each_failure_reads_like_the_reference(schema, args, message):
    from tooldrop import Origin, ToolSpec

    spec = ToolSpec(
        name="t",
        description="d",
        input_schema=schema,
        origin=Origin(source="t", scope="plugin"),
        runner="x",
    )
    assert validate_args(spec, args) == [message]


def test_problems_come_in_parameter_order(spec_factory):
    schema = props(a={"type": "string"}, b={"type": "integer"}, c={"type": "boolean"}) | {
        "required": ["c"]
    }
    spec = spec_factory(input_schema=schema)
    assert validate_args(spec, {"zz": 1, "b": "x", "a": 3}) == [
        '⚒ Parameter "a" has wrong type — expected string, got number',
        '⚒ Parameter "b" has wrong type — expected integer, got string',
        "⚒ Missing required parameter: c",
        "⚒ Unknown parameter: zz (this tool accepts: a, b, c)",
    ]


def test_valid_arguments_have_no_problems(spec_factory):
    schema = props(s={"type": "string", "minLength": 3}, n={"type": "integer"})
    spec = spec_factory(input_schema=schema)
    assert validate_args(spec, {"s": "abcé😀", "n": 2.0}) == []


def test_dollar_matches_only_at_the_very_end_as_in_javascript():
    assert compile_pattern("^[a-z]+$").search("ab") is not None
    assert compile_pattern("^[a-z]+$").search("ab\n") is None
    assert compile_pattern("[$]").search("$") is not None
    assert compile_pattern(r"\$").search("$") is not None


def test_patterns_are_searched_not_anchored(spec_factory):
    spec = spec_factory(input_schema=props(s={"type": "string", "pattern": "b"}))
    assert validate_args(spec, {"s": "abc"}) == []
