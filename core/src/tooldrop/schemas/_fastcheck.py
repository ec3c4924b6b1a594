"""A fast yes/no argument check for the JSON Schema subset tool schemas use.

``jsonschema`` builds error objects and walks its keyword table for every call, which costs
tens of microseconds on the call path. Most tool schemas (every markdown tool's) use a handful
of keywords, so we compile those into a plain predicate that only answers "valid?". When it says
no, or a schema uses anything else, the call takes the ``jsonschema`` path, which decides and
explains. Its "yes" is final, so it must never say yes where jsonschema says no: a property test
(tests/core/test_fastcheck.py) compares the two on generated schemas and values. Anything it is
unsure of (a Decimal, an unusual pattern) it answers "no", which only means "ask jsonschema".
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from ._pattern import PatternError, compile_pattern

__all__ = ["Check", "compile_check"]

Check = Callable[[Any], bool]

#: Keywords that never affect validity.
_ANNOTATIONS = frozenset({"description", "default", "title", "examples", "$comment"})
_VALUE_KEYWORDS = frozenset(
    {"type", "enum", "pattern", "minLength", "maxLength", "minimum", "maximum", "items"}
)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


_TYPES: dict[str, Check] = {
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "number": _is_number,
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


def _equal(one: Any, two: Any) -> bool:
    """JSON equality, as jsonschema's ``enum`` uses it: ``True`` is not ``1``."""
    if isinstance(one, bool) or isinstance(two, bool):
        return type(one) is type(two) and one == two
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(_equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, dict) and isinstance(two, dict):
        return one.keys() == two.keys() and all(_equal(one[k], two[k]) for k in one)
    if _is_number(one) and _is_number(two):
        return bool(one == two)
    return type(one) is type(two) and one == two


def _length_ok(value: Any, *, holds: Callable[[Any, Any], bool], bound: int) -> bool:
    return not isinstance(value, str) or holds(len(value), bound)


def _number_ok(value: Any, *, holds: Callable[[Any, Any], bool], bound: float) -> bool:
    if _is_number(value):
        return holds(value, bound)
    # A Decimal or Fraction from an embedding app is a number to jsonschema: let it decide.
    return isinstance(value, bool) or not isinstance(value, numbers.Number)


def _value_check(schema: object) -> Check | None:
    """A predicate for one property's schema, or ``None`` when it uses other keywords."""
    if not isinstance(schema, Mapping) or not set(schema) <= _ANNOTATIONS | _VALUE_KEYWORDS:
        return None
    checks: list[Check] = []
    kind = schema.get("type")
    if kind is not None:
        kinds = [kind] if isinstance(kind, str) else kind
        if not isinstance(kinds, list) or not all(k in _TYPES for k in kinds):
            return None
        tests = [_TYPES[k] for k in kinds]
        checks.append(lambda v: any(test(v) for test in tests))
    if "enum" in schema:
        options = schema["enum"]
        if not isinstance(options, list):
            return None
        checks.append(lambda v: any(_equal(v, option) for option in options))
    if "pattern" in schema:
        if not isinstance(schema["pattern"], str):
            return None
        try:
            regex = compile_pattern(schema["pattern"])
        except PatternError:
            return None  # the slow path says what is wrong with it
        checks.append(lambda v: not isinstance(v, str) or regex.search(v) is not None)
    for key, holds in (("minLength", operator.ge), ("maxLength", operator.le)):
        if key in schema:
            length = schema[key]
            if not isinstance(length, int) or isinstance(length, bool):
                return None
            checks.append(partial(_length_ok, holds=holds, bound=length))
    for key, holds in (("minimum", operator.ge), ("maximum", operator.le)):
        if key in schema:
            limit = schema[key]
            # isfinite() would raise OverflowError for 10**400: ints are always finite.
            if not _is_number(limit) or (isinstance(limit, float) and not math.isfinite(limit)):
                return None
            checks.append(partial(_number_ok, holds=holds, bound=limit))
    if "items" in schema:
        item = _value_check(schema["items"])
        if item is None:
            return None
        checks.append(lambda v: not isinstance(v, list) or all(item(x) for x in v))
    return lambda v: all(check(v) for check in checks)


def compile_check(schema: Mapping[str, Any]) -> Check | None:
    """A predicate equivalent to "jsonschema finds no error", for simple object schemas.

    Returns ``None`` when the schema uses anything beyond ``type: object``, ``properties``
    (each with type, enum, pattern, min/maxLength, minimum/maximum, items), ``required`` and
    a boolean ``additionalProperties``.
    """
    allowed = {"type", "properties", "required", "additionalProperties"} | _ANNOTATIONS
    if not set(schema) <= allowed or schema.get("type") != "object":
        return None
    props = schema.get("properties", {})
    required = schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    if not isinstance(props, Mapping) or not isinstance(required, list):
        return None
    if not isinstance(extra, bool) or not all(isinstance(key, str) for key in required):
        return None
    checks: dict[str, Check] = {}
    for key, prop in props.items():
        check = _value_check(prop)
        if check is None:
            return None
        checks[key] = check
    closed = not extra

    def valid(args: Any) -> bool:
        if not isinstance(args, dict):
            return False
        for key in required:
            if key not in args:
                return False
        for key, value in args.items():
            check = checks.get(key)
            if check is None:
                if closed:
                    return False
            elif not check(value):
                return False
        return True

    return valid
