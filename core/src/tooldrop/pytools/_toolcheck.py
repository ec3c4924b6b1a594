"""Checks for :class:`tooldrop.Tool` fields, in attrs' validator convention.

Each raises ``ValueError(message, attribute, value)``, which
:func:`tooldrop.problems_from_error` turns into a ``field: message`` problem.
"""

from __future__ import annotations

import inspect
import json
import re
import typing
from collections.abc import Callable, Mapping
from typing import Any, NoReturn

import attrs

from .._convert import json_type_name
from .._model import APPROVALS
from ..schemas._schemacheck import schema_problem
from ._signature import args_type_schema
from ._typeschema import SchemaError

__all__ = [
    "DEFAULT_TIMEOUT_MS",
    "MAX_TIMEOUT_MS",
    "NAME_PATTERN",
    "check_approval",
    "check_bool",
    "check_description",
    "check_execute",
    "check_name",
    "check_timeout",
    "input_schema",
    "strip",
]

#: What a Python tool's name may contain (the host may add a prefix: ``custom__``).
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_]+$")
DEFAULT_TIMEOUT_MS = 30_000
MAX_TIMEOUT_MS = 300_000


def _fail(message: str, attribute: attrs.Attribute[Any], value: object) -> NoReturn:
    raise ValueError(message, attribute, value)


def strip(value: object) -> object:
    return value.strip() if isinstance(value, str) else value


def check_name(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str):
        _fail(f"must be a string, got {json_type_name(value)}", attribute, value)
    if not NAME_PATTERN.match(value):
        shown = repr(value) if value else "an empty name"
        _fail(f"must be letters, digits and underscores only, got {shown}", attribute, value)


def check_description(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str):
        _fail(f"must be a string, got {json_type_name(value)}", attribute, value)
    if not value:
        _fail("must not be empty: tell the model what the tool does", attribute, value)


def _signature_problem(fn: Callable[..., Any]) -> str | None:
    """Why ``fn`` cannot be called as ``execute(args)`` or ``execute(args, cancel)``."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None  # a builtin or C callable without a signature: trust it
    usage = "execute(args) or execute(args, cancel)"
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if any(p.kind is p.KEYWORD_ONLY and p.default is p.empty for p in params):
        return f"must take its parameters positionally: {usage}"
    if not positional and not any(p.kind is p.VAR_POSITIONAL for p in params):
        return f"must accept the arguments: {usage}"
    if sum(p.default is p.empty for p in positional) > 2:
        return f"takes too many parameters: {usage}"
    return None


def check_execute(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not callable(value):
        got = json_type_name(value)
        _fail(
            f"must be a function: execute(args) or execute(args, cancel), got {got}",
            attribute,
            value,
        )
    problem = _signature_problem(value)
    if problem:
        _fail(problem, attribute, value)


def check_approval(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value not in APPROVALS or not isinstance(value, str):
        _fail(f"must be one of: {', '.join(APPROVALS)} (got {value!r})", attribute, value)


def check_bool(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, bool):
        _fail(f"must be a boolean (True or False), got {json_type_name(value)}", attribute, value)


def check_timeout(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(f"must be an integer (milliseconds), got {json_type_name(value)}", attribute, value)
    if not 1 <= value <= MAX_TIMEOUT_MS:
        _fail(f"must be between 1 and {MAX_TIMEOUT_MS} milliseconds, got {value}", attribute, value)


#: Schema verdicts by canonical schema text: ``None`` (usable) or the problem. Checking a
#: schema against its meta-schema costs milliseconds, and the same schemas come back on every
#: reload (and twice per dict tool: all fields are checked before the tool is built).
_verdicts: dict[str, str | None] = {}
_MAX_VERDICTS = 2048


def _schema_problem(schema: dict[str, Any]) -> str | None:
    key = json.dumps(schema, sort_keys=True)
    if key in _verdicts:
        return _verdicts[key]
    verdict = schema_problem(schema)
    if len(_verdicts) >= _MAX_VERDICTS:
        _verdicts.clear()
    _verdicts[key] = verdict
    return verdict


_REFERENCES = ('"$ref"', '"$dynamicRef"', '"$recursiveRef"')


def _check_schema(schema: dict[str, Any], attribute: attrs.Attribute[Any]) -> None:
    problem = _schema_problem(schema)
    if problem is not None:
        _fail(problem, attribute, schema)


def input_schema(value: object, self: Any, attribute: attrs.Attribute[Any]) -> dict[str, Any]:
    """``None`` → derived from ``execute``'s ``args`` annotation, else an empty object schema.

    Given schemas are copied (so later edits to the caller's dict cannot change the tool),
    must be JSON, describe an object, declare a dialect tooldrop supports (2020-12 or
    draft-07), pass that dialect's meta-schema, and use only ECMA-262 patterns RE2 can run.
    """
    if value is None:
        execute = self.execute
        try:
            derived = args_type_schema(execute) if callable(execute) else None
        except SchemaError as exc:
            _fail(f"cannot be derived from execute's args annotation: {exc}", attribute, value)
        return derived or {"type": "object", "properties": {}}
    if not isinstance(value, Mapping):
        _fail(f"must be a JSON Schema (a dict), got {json_type_name(value)}", attribute, value)
    try:
        schema = json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError) as exc:
        _fail(f"must be plain JSON: {exc}", attribute, value)
    if "type" not in schema:
        if any(word in json.dumps(schema) for word in _REFERENCES):
            # "$ref": "#" would then mean "an object", which the author did not write.
            _fail(
                'must say "type": "object" at its root: tooldrop adds it only to a schema that '
                "does not refer to itself ($ref), where adding it cannot change its meaning",
                attribute,
                value,
            )
        schema["type"] = "object"
    kind = schema["type"]
    if kind != "object":
        shown = json.dumps(kind)
        _fail(f'must describe an object ("type": "object"), got "type": {shown}', attribute, value)
    if not isinstance(schema.setdefault("properties", {}), dict):
        _fail("properties must be an object mapping parameter names to schemas", attribute, value)
    _check_schema(schema, attribute)
    return typing.cast(dict[str, Any], schema)
