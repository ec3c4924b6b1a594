"""The fast argument check agrees with the complete validator on every schema it compiles.

Its "yes" is final (tooldrop does not ask jsonschema again), so it must never say yes where the
complete validator says no; on plain JSON values the two must agree exactly, so the fast path
is actually taken.
"""

from __future__ import annotations

from decimal import Decimal

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldrop.schemas._dialect import new_validator
from tooldrop.schemas._fastcheck import compile_check

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([0.0, 1.0, 2.5, -1.5, 1e20, 10**400, -(10**400)]),
    st.text(alphabet="ab-\n é", max_size=5),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("ab"), inner, max_size=2)
    ),
    max_leaves=6,
)
types = st.sampled_from(["string", "number", "integer", "boolean", "array", "object", "null"])


@st.composite
def value_schemas(draw, depth=0):
    schema = {}
    if draw(st.booleans()):
        schema["type"] = draw(types | st.lists(types, max_size=3))
    if draw(st.booleans()):
        schema["enum"] = draw(st.lists(json_scalars, min_size=1, max_size=3))
    if draw(st.booleans()):
        schema["pattern"] = draw(st.sampled_from(["^[a-z]+$", "b", "^$", "é"]))
    for key in ("minLength", "maxLength"):
        if draw(st.booleans()):
            schema[key] = draw(st.integers(0, 4))
    for key in ("minimum", "maximum"):
        if draw(st.booleans()):
            schema[key] = draw(
                st.integers(-3, 3) | st.sampled_from([0.5, -2.5, 10**400, -(10**400), 1e308])
            )
    if depth == 0 and draw(st.booleans()):
        schema["items"] = draw(value_schemas(depth=1))
    if draw(st.booleans()):
        schema["default"] = draw(json_scalars)
    return schema


@st.composite
def object_schemas(draw):
    names = draw(st.lists(st.sampled_from(["a", "b", "c"]), unique=True, max_size=3))
    schema = {"type": "object", "properties": {n: draw(value_schemas()) for n in names}}
    if draw(st.booleans()):
        schema["required"] = draw(st.lists(st.sampled_from(["a", "b", "c", "z"]), unique=True))
    if draw(st.booleans()):
        schema["additionalProperties"] = draw(st.booleans())
    return schema


@settings(max_examples=600, deadline=None)
@given(
    object_schemas(),
    st.dictionaries(st.sampled_from(["a", "b", "c", "z"]), json_values, max_size=4),
)
def test_fast_check_agrees_with_jsonschema(schema, args):
    check = compile_check(schema)
    assert check is not None
    expected = new_validator(schema).is_valid(args)
    assert check(args) is expected


embedded_numbers = st.decimals(allow_nan=False, allow_infinity=False, places=1, max_value=10**6)


@settings(max_examples=300, deadline=None)
@given(
    object_schemas(),
    st.dictionaries(st.sampled_from(["a", "b", "c", "z"]), embedded_numbers, max_size=3),
)
def test_fast_check_never_says_yes_to_what_jsonschema_refuses(schema, args):
    """A Decimal from an embedding app (json.loads(parse_float=Decimal)) is a number too."""
    check = compile_check(schema)
    assert check is not None
    if check(args):
        assert new_validator(schema).is_valid(args)


def test_a_decimal_below_the_minimum_is_not_waved_through():
    check = compile_check({"type": "object", "properties": {"n": {"minimum": 1}}})
    assert check is not None
    assert not check({"n": Decimal("0.5")})
    assert not new_validator({"properties": {"n": {"minimum": 1}}}).is_valid({"n": Decimal("0.5")})


def test_a_huge_bound_compiles_and_compares_exactly():
    check = compile_check({"type": "object", "properties": {"n": {"maximum": 10**400}}})
    assert check is not None
    assert check({"n": 1e308})
    assert not check({"n": 10**400 + 1})


@given(json_values)
def test_non_objects_are_invalid(value):
    check = compile_check({"type": "object", "properties": {}})
    assert check(value) is isinstance(value, dict)


def test_schemas_with_other_keywords_take_the_slow_path():
    assert compile_check({"type": "object", "properties": {"a": {"oneOf": [{}]}}}) is None
    assert compile_check({"type": "object", "anyOf": []}) is None
    assert compile_check({"type": "array"}) is None
    assert compile_check({"type": "object", "additionalProperties": {"type": "string"}}) is None
    assert jsonschema  # the reference implementation the property above compares against
