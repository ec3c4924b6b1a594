"""Argument validation cannot be walked past, frozen or crashed (issue 14), through ToolHost.

Each schema becomes a real tool (a Python-style tool value, checked like one at load) and is
called through the public call path; the echo backend answers only when validation let it run.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import threading
import time
from decimal import Decimal
from typing import Any

import attrs
import pytest

from tooldrop import Origin, ToolDefinitionError, ToolHost, ToolResult, hookimpl, to_spec

ORIGIN = Origin(source="test", scope="plugin")


def load(schema: dict[str, Any]):
    """The tool a Python tool file with this ``input_schema`` would give, run by echo."""
    spec = to_spec(
        {
            "name": "t",
            "description": "A tool.",
            "input_schema": schema,
            "execute": lambda args: "ran",
            "approval": "never",
        },
        origin=ORIGIN,
    )
    return attrs.evolve(spec, runner="echo", payload=lambda call: ToolResult(text="ran"))


@pytest.fixture
def call(make_host, tool_pack):
    def run(schema: dict[str, Any], args: dict[str, Any]):
        host: ToolHost = make_host(tool_pack(load(schema)))
        return host.call("t", args)

    return run


def accepted(result) -> bool:
    return not result.is_error


# -- 1. the validator decides; messages only explain ---------------------------------------

CLOSED_BY_ALLOF = {
    "type": "object",
    "properties": {"a": {}, "b": {}},
    "allOf": [{"properties": {"a": {}}, "additionalProperties": False}],
}
CLOSED_BY_REF = {
    "type": "object",
    "properties": {"a": {}, "b": {}},
    "$ref": "#/$defs/closed",
    "$defs": {"closed": {"properties": {"a": {}}, "additionalProperties": False}},
}
CLOSED_BY_IF_THEN = {
    "type": "object",
    "properties": {"a": {}, "b": {}},
    "if": {"required": ["b"]},
    "then": {"properties": {"a": {}}, "additionalProperties": False},
}
CLOSED_BY_DEPENDENT_SCHEMA = {
    "type": "object",
    "properties": {"a": {}, "b": {}},
    "dependentSchemas": {"b": {"properties": {"a": {}}, "additionalProperties": False}},
}


@pytest.mark.parametrize(
    "schema", [CLOSED_BY_ALLOF, CLOSED_BY_REF, CLOSED_BY_IF_THEN, CLOSED_BY_DEPENDENT_SCHEMA]
)
def test_a_closed_sub_schema_cannot_be_walked_past(call, schema):
    result = call(schema, {"b": 1})
    assert result.is_error
    assert "b" in result.text  # the message names the unexpected parameter
    assert accepted(call(schema, {"a": 1}))


def test_an_error_with_no_message_of_its_own_still_refuses(call):
    schema = {"type": "object", "properties": {"a": {}}, "unevaluatedProperties": False}
    result = call(schema, {"z": 1})
    assert result.is_error
    assert "Unevaluated properties are not allowed ('z' unexpected)" in result.text


# -- 2. pattern means ECMA-262 ---------------------------------------------------------------


def prop(**schema: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"s": schema}}


@pytest.mark.parametrize(
    ("pattern", "value"),
    [
        (r"^\d+$", "٣٤"),  # Arabic-Indic digits are not \d in ECMA-262
        (r"^\w+$", "é"),
        (r"^.+$", "a\rb"),  # . does not match line terminators
        (r"^.+$", "a\u2028b"),
        (r"^[a-z]+$", "ab\n"),  # $ is the very end
        (r"^\s$", "x"),
    ],
)
def test_patterns_are_read_as_ecma_262(call, pattern, value):
    assert call(prop(type="string", pattern=pattern), {"s": value}).is_error


@pytest.mark.parametrize(
    ("pattern", "value"),
    [
        (r"^(?<year>\d{4})-\d{2}$", "2024-05"),
        (r"^\p{L}+$", "héllo"),
        (r"^\p{Letter}+$", "Ωmega"),
        (r"^\p{sc=Greek}+$", "αβγ"),
        (r"^\s$", "\u00a0"),  # ECMA white space is wider than ASCII
        (r"^\u{1F600}$", "😀"),
        (r"x[]$]", None),  # an empty class: never matches, never crashes
    ],
)
def test_ecma_only_syntax_loads_and_works(call, pattern, value):
    schema = prop(type="string", pattern=pattern)
    if value is None:
        assert call(schema, {"s": "x]"}).is_error
    else:
        assert accepted(call(schema, {"s": value}))


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        ("(?i)abc", "inline flags"),
        ("(?P<y>a)", "Python syntax"),
        (r"a\Z", r"\Z is not an ECMA-262 escape"),
        ("(?=a)b", "lookahead"),
        (r"(a)\1", "backreferences"),
        (r"\p{Alphabetic}", "not supported"),
        ("a{2000}", "above 1000"),
    ],
)
def test_what_cannot_be_translated_is_refused_at_load(pattern, why):
    for schema in (
        prop(type="string", pattern=pattern),
        {"type": "object", "patternProperties": {pattern: {}}},
        {"type": "object", "propertyNames": {"pattern": pattern}},
        {"type": "object", "properties": {"s": {"items": {"not": {"pattern": pattern}}}}},
    ):
        with pytest.raises(ToolDefinitionError) as info:
            load(schema)
        assert why in str(info.value)
        assert "pattern" in str(info.value)


def test_pattern_properties_use_ecma_dollar(call):
    schema = {
        "type": "object",
        "patternProperties": {"^a$": {"type": "integer"}},
        "additionalProperties": False,
    }
    assert accepted(call(schema, {"a": 1}))
    assert call(schema, {"a\n": 1}).is_error


def test_a_sub_schema_with_its_own_dialect_keeps_ecma_patterns(call):
    schema = {
        "type": "object",
        "properties": {
            "s": {
                "$id": "urn:example:inner",
                "$schema": "http://json-schema.org/draft-07/schema#",
                "pattern": r"^\d+$",
            }
        },
    }
    assert accepted(call(schema, {"s": "42"}))
    assert call(schema, {"s": "٤٢"}).is_error


def test_unevaluated_properties_use_ecma_patterns(call):
    schema = {
        "type": "object",
        "patternProperties": {r"^\d$": {}},
        "unevaluatedProperties": False,
    }
    assert accepted(call(schema, {"1": 0}))
    assert call(schema, {"١": 0}).is_error


def test_a_string_with_a_lone_surrogate_is_refused_not_crashed(call):
    result = call(prop(type="string", pattern="^a"), {"s": "a\ud800"})
    assert result.is_error
    assert "unpaired surrogate" in result.text


# -- 3. no argument freezes validation -------------------------------------------------------


def test_catastrophic_backtracking_is_impossible():
    """``^(a+)+$`` on ``a``×N + ``!`` doubles with each ``a`` on a backtracking engine: at
    N = 5000 it would not finish this century. The deadline only catches a hang."""
    script = textwrap.dedent(
        """
        from tooldrop import Origin, ToolSpec, validate_args
        spec = ToolSpec(
            name="t", description="d", origin=Origin(source="t", scope="plugin"), runner="x",
            input_schema={"type": "object", "properties": {"s": {"pattern": "^(a+)+$"}},
                          "patternProperties": {"^(a|aa)+$": {}}},
        )
        evil = "a" * 5000 + "!"
        print(validate_args(spec, {"s": evil, evil: 1}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert "does not match pattern ^(a+)+$" in done.stdout


def test_validation_runs_off_the_event_loop(make_host, tool_pack):
    """A validator that needs the event loop to go on would deadlock if it ran on the loop:
    an MCP server keeps answering other requests while a call's arguments are checked."""
    started, release = threading.Event(), threading.Event()

    class WaitingValidator:
        @hookimpl
        def tooldrop_validate_args(self) -> list[str]:
            started.set()
            return [] if release.wait(60) else ["the event loop never came back"]

    host: ToolHost = make_host(tool_pack(load(prop(type="string"))), WaitingValidator())

    async def main() -> ToolResult:
        task = asyncio.ensure_future(host.acall("t", {"s": "x"}))
        deadline = time.monotonic() + 60
        while not started.is_set() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        release.set()  # runs only if the loop is free while the validator waits
        return await task

    result = asyncio.run(main())
    assert started.is_set()
    assert accepted(result), result.text


# -- 4. numbers --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "good", "bad"),
    [
        ({"maximum": 10**400}, 1e308, 10**400 + 1),
        ({"minimum": -(10**400)}, -1e308, -(10**400) - 1),
        ({"exclusiveMaximum": 10**400}, 10**399, 10**400),
        ({"multipleOf": 10**400}, 0, 1.5),
        ({"multipleOf": 1.5}, 3 * 10**400, 10**400 + 1),
        ({"multipleOf": 0.25}, Decimal("1.75"), Decimal("1.8")),
    ],
)
def test_huge_numbers_are_compared_exactly(call, schema, good, bad):
    assert accepted(call(prop(**schema), {"s": good}))
    result = call(prop(**schema), {"s": bad})
    assert result.is_error
    assert "failed" not in result.text  # a verdict, not a crash


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), Decimal("NaN")])
def test_nan_and_infinity_are_not_json_numbers(call, value):
    result = call(prop(type="number"), {"s": value})
    assert result.is_error
    assert 'Parameter "s" must be a finite number' in result.text


def test_a_decimal_from_an_embedding_app_is_a_number(call):
    schema = prop(type="number", minimum=1, multipleOf=0.5)
    assert call(schema, {"s": Decimal("0.5")}).is_error
    assert call(schema, {"s": Decimal("1.2")}).is_error
    assert accepted(call(schema, {"s": Decimal("1.5")}))
    assert accepted(call(prop(type="integer"), {"s": Decimal("2.0")}))


def test_non_finite_bounds_are_refused_at_load():
    with pytest.raises(ToolDefinitionError, match="JSON"):
        load(prop(maximum=float("inf")))


# -- 5. drafts -------------------------------------------------------------------------------

DRAFT7 = "http://json-schema.org/draft-07/schema#"


def test_draft_07_dependencies_are_honoured(call):
    schema = {
        "$schema": DRAFT7,
        "type": "object",
        "properties": {"a": {}, "b": {}},
        "dependencies": {"a": ["b"], "b": {"properties": {"a": {"type": "string"}}}},
    }
    assert call(schema, {"a": 1}).is_error
    assert call(schema, {"a": 1, "b": 1}).is_error
    assert accepted(call(schema, {"a": "x", "b": 1}))


def test_draft_07_array_items_and_fragment_ids(call):
    schema = {
        "$schema": DRAFT7,
        "type": "object",
        "properties": {
            "pair": {"items": [{"type": "string"}, {"$ref": "#num"}], "additionalItems": False},
        },
        "definitions": {"n": {"$id": "#num", "type": "number"}},
    }
    assert accepted(call(schema, {"pair": ["x", 1]}))
    assert call(schema, {"pair": ["x", "y"]}).is_error
    assert call(schema, {"pair": ["x", 1, 2]}).is_error


@pytest.mark.parametrize(
    ("schema", "keyword"),
    [
        ({"type": "object", "dependencies": {"a": ["b"]}}, "dependencies"),
        ({"type": "object", "properties": {"a": {"additionalItems": False}}}, "additionalItems"),
        ({"$schema": DRAFT7, "type": "object", "dependentRequired": {"a": ["b"]}}, "dependent"),
        ({"$schema": DRAFT7, "type": "object", "unevaluatedProperties": False}, "unevaluated"),
    ],
)
def test_a_keyword_of_the_other_dialect_is_refused_not_ignored(schema, keyword):
    with pytest.raises(ToolDefinitionError, match=f"{keyword}.* is not a JSON Schema"):
        load(schema)


def test_a_property_may_be_named_like_a_keyword(call):
    schema = {"type": "object", "properties": {"dependencies": {"type": "string"}}}
    assert accepted(call(schema, {"dependencies": "x"}))


@pytest.mark.parametrize(
    "dialect",
    [
        "http://json-schema.org/draft-04/schema#",
        "https://json-schema.org/draft/2019-09/schema",
        "https://example.com/my-dialect",
    ],
)
def test_unsupported_dialects_are_refused_at_load(dialect):
    with pytest.raises(ToolDefinitionError, match="is not supported"):
        load({"$schema": dialect, "type": "object"})
    nested = {"type": "object", "properties": {"a": {"$id": "urn:a", "$schema": dialect}}}
    with pytest.raises(ToolDefinitionError, match=r"properties\.a\.\$schema"):
        load(nested)


def test_a_plugin_tool_in_an_unsupported_dialect_is_refused_at_call(make_host, tool_pack):
    """A ToolSpec registered by a plugin skips the load-time check; it is not guessed at."""
    spec = attrs.evolve(
        load({"type": "object"}),
        input_schema={"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"},
    )
    result = make_host(tool_pack(spec)).call("t", {})
    assert result.is_error
    assert "draft-04" in result.text


def test_type_object_is_not_added_where_it_would_change_a_ref(call):
    with pytest.raises(ToolDefinitionError, match='"type": "object"'):
        load({"properties": {"child": {"$ref": "#"}}})
    # Without a self-reference adding it changes nothing (arguments are always objects).
    assert load({"properties": {"a": {}}}).input_schema["type"] == "object"


def test_a_remote_ref_is_never_fetched(call):
    """jsonschema's default registry would download it while checking the call."""
    schema = {"type": "object", "properties": {"a": {"$ref": "http://127.0.0.1:9/schema.json"}}}
    result = call(schema, {"a": 1})
    assert result.is_error
    assert "$ref that cannot be resolved" in result.text
