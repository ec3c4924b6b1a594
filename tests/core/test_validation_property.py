"""tooldrop's verdict equals plain ``jsonschema``'s on generated schemas and arguments.

Schemas are drawn from (nearly) every keyword of JSON Schema 2020-12 and draft-07, nested;
arguments from small JSON values that often hit the schemas' edges. ``validate_args`` (the
fast check where it applies, else the complete validator) must say "valid" exactly when
``jsonschema``'s stock validator for the same dialect does.

The one documented difference, the pattern dialect (ECMA-262 here, Python's ``re`` there), is
kept out by construction: patterns come from a set that both read the same way on strings
of the alphabet below (no newlines, no non-ASCII digits or letters).
"""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldrop import Origin, ToolSpec, validate_args

DRAFT7 = "http://json-schema.org/draft-07/schema#"
NAMES = ["a", "b", "c", "ab"]
ALPHABET = "abc1 -_"
PATTERNS = ["^a", "b$", "^[a-c]*$", "a|b", "^.{2}$", r"\d", "^(ab)+$", "[^a]", "^$", r"\w-\w"]
TYPES = ["string", "number", "integer", "boolean", "array", "object", "null"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.5, 1.0, -1.5, 2.25, 1e20]),
    st.text(alphabet=ALPHABET, max_size=4),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(NAMES), inner, max_size=3)
    ),
    max_leaves=8,
)
numbers = st.integers(-3, 3) | st.sampled_from([0.5, 1.5, 2.25])
counts = st.integers(0, 3)


def schemas(draft7: bool, depth: int = 2) -> st.SearchStrategy[Any]:
    """A schema (dict or boolean) of either dialect's keywords, ``depth`` levels deep."""
    sub = schemas(draft7, depth - 1) if depth else st.sampled_from([True, False, {}])
    names = st.sampled_from(NAMES)
    keyword: dict[str, st.SearchStrategy[Any]] = {
        "type": st.sampled_from(TYPES) | st.lists(st.sampled_from(TYPES), min_size=1, unique=True),
        "enum": st.lists(values, min_size=1, max_size=3),
        "const": values,
        "minimum": numbers, "maximum": numbers,
        "exclusiveMinimum": numbers, "exclusiveMaximum": numbers,
        "multipleOf": st.sampled_from([1, 2, 0.5, 1.5]),
        "minLength": counts, "maxLength": counts,
        "pattern": st.sampled_from(PATTERNS),
        "minItems": counts, "maxItems": counts,
        "uniqueItems": st.booleans(),
        "contains": sub,
        "minProperties": counts, "maxProperties": counts,
        "required": st.lists(names, max_size=3, unique=True),
        "properties": st.dictionaries(names, sub, max_size=3),
        "patternProperties": st.dictionaries(st.sampled_from(PATTERNS), sub, max_size=2),
        "additionalProperties": sub,
        "propertyNames": sub,
        "allOf": st.lists(sub, min_size=1, max_size=2),
        "anyOf": st.lists(sub, min_size=1, max_size=2),
        "oneOf": st.lists(sub, min_size=1, max_size=2),
        "not": sub,
        "if": sub, "then": sub, "else": sub,
    }  # fmt: skip
    if draft7:
        keyword |= {
            "items": sub | st.lists(sub, max_size=2),
            "additionalItems": sub,
            "dependencies": st.dictionaries(
                names, sub | st.lists(names, max_size=2, unique=True), max_size=2
            ),
        }
    else:
        keyword |= {
            "items": sub,
            "prefixItems": st.lists(sub, min_size=1, max_size=2),
            "minContains": counts,
            "maxContains": counts,
            "dependentRequired": st.dictionaries(
                names, st.lists(names, max_size=2, unique=True), max_size=2
            ),
            "dependentSchemas": st.dictionaries(names, sub, max_size=2),
            "unevaluatedProperties": sub,
            "unevaluatedItems": sub,
        }
    chosen = st.lists(st.sampled_from(sorted(keyword)), max_size=4, unique=True)
    objects = chosen.flatmap(lambda keys: st.fixed_dictionaries({k: keyword[k] for k in keys}))
    return st.one_of(st.booleans(), objects) if depth < 2 else objects


def _reference(draft7: bool) -> st.SearchStrategy[dict[str, Any]]:
    """A root schema with ``$defs``/``definitions`` and ``$ref``s into them (and to itself)."""
    defs = "definitions" if draft7 else "$defs"
    ref = st.sampled_from([f"#/{defs}/d", "#"])

    def build(parts: tuple[dict[str, Any], Any, str]) -> dict[str, Any]:
        root, target, pointer = parts
        return {
            **root,
            "type": "object",
            defs: {"d": target},
            "properties": {"a": {"$ref": pointer}, **root.get("properties", {})},
        }

    return st.tuples(schemas(draft7), schemas(draft7, 1), ref).map(build)


def _spec(schema: dict[str, Any]) -> ToolSpec:
    return ToolSpec(
        name="t",
        description="d",
        input_schema=schema,
        origin=Origin(source="t", scope="plugin"),
        runner="x",
    )


def _agree(schema: dict[str, Any], calls: list[dict[str, Any]], stock: Any) -> None:
    spec = _spec(schema)
    reference = stock(schema)
    for args in calls:
        try:
            expected = reference.is_valid(args)
        except (OverflowError, RecursionError):
            continue  # jsonschema has no verdict; tooldrop's is tested in test_validation.py
        assert (validate_args(spec, args) == []) == expected, (schema, args)


# Several argument sets per schema: thousands of verdicts for hundreds of compiled schemas.
arguments = st.lists(st.dictionaries(st.sampled_from(NAMES), values, max_size=4), max_size=8)
RUNS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@RUNS
@given(schemas(draft7=False).map(lambda s: {**s, "type": "object"}), arguments)
def test_2020_12_verdicts_match_jsonschema(schema, args):
    _agree(schema, args, jsonschema.Draft202012Validator)


@RUNS
@given(schemas(draft7=True).map(lambda s: {**s, "$schema": DRAFT7, "type": "object"}), arguments)
def test_draft_07_verdicts_match_jsonschema(schema, args):
    _agree(schema, args, jsonschema.Draft7Validator)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.booleans().flatmap(_reference), arguments)
def test_references_match_jsonschema(schema, args):
    draft7 = "definitions" in schema
    if draft7:
        schema = {**schema, "$schema": DRAFT7}
    _agree(schema, args, jsonschema.Draft7Validator if draft7 else jsonschema.Draft202012Validator)
