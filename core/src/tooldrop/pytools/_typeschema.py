"""JSON Schemas from Python type hints: ``int`` → ``{"type": "integer"}`` and so on.

The types a tool's parameters may use: scalars, ``None``, lists, tuples, sets, ``dict[str, T]``,
``Literal``, enums, TypedDicts, dataclasses, attrs classes, paths, unions and
``Annotated[T, "description"]`` (a string is the description, a mapping is merged in as a raw
JSON Schema fragment). Anything else is a :class:`SchemaError` naming the parameter.
"""

from __future__ import annotations

import collections.abc as cabc
import dataclasses
import enum
import inspect
import json
import types
import typing
from collections.abc import Callable, Mapping
from pathlib import PurePath
from typing import Any

import attrs

from ._docstring import parse_docstring

__all__ = [
    "ARRAYS",
    "EMPTY",
    "MAPPINGS",
    "UNIONS",
    "SchemaError",
    "hints_of",
    "is_typeddict",
    "json_value",
    "record_fields",
    "split_optional",
    "type_schema",
    "unwrap",
]

EMPTY = inspect.Parameter.empty
_NONE = type(None)
UNIONS = (typing.Union, types.UnionType)
# Qualifiers that say nothing about the JSON value (typing.ReadOnly is 3.13+).
_WRAPPERS: tuple[Any, ...] = tuple(
    getattr(typing, name)
    for name in ("Annotated", "Required", "NotRequired", "ReadOnly")
    if hasattr(typing, name)
)
ARRAYS = {
    list: "list",
    tuple: "tuple",
    set: "set",
    frozenset: "set",
    cabc.Sequence: "list",
    cabc.MutableSequence: "list",
    cabc.Iterable: "list",
    cabc.Collection: "list",
    cabc.Set: "set",
    cabc.MutableSet: "set",
}
MAPPINGS = (dict, cabc.Mapping, cabc.MutableMapping)
_SCALARS: dict[type, str] = {bool: "boolean", int: "integer", float: "number", str: "string"}
_MAX_DEPTH = 32
_SUPPORTED = (
    "str, int, float, bool, None, list[T], tuple, set[T], dict[str, T], Literal[...], an Enum, "
    "a TypedDict, a dataclass, an attrs class, a Path, X | None, or Annotated[T, 'description']"
)


class SchemaError(TypeError):
    """A type hint that has no JSON Schema equivalent (or cannot be resolved)."""


# -- type hints -> JSON Schema ----------------------------------------------------------


def unwrap(tp: Any) -> Any:
    """Strip ``Annotated``, ``Required`` and ``NotRequired`` (keeping nothing of them)."""
    while typing.get_origin(tp) in _WRAPPERS:
        tp = typing.get_args(tp)[0]
    return tp


def split_optional(tp: Any) -> tuple[Any, bool]:
    """``(X, True)`` for ``X | None`` / ``Optional[X]``, else ``(tp, False)``."""
    if typing.get_origin(tp) in UNIONS:
        args = typing.get_args(tp)
        rest = tuple(a for a in args if a is not _NONE)
        if len(rest) < len(args):
            if len(rest) == 1:
                return rest[0], True
            return typing.Union[rest], True  # noqa: UP007 - builds a union from a tuple at runtime.
    return tp, False


def is_typeddict(tp: Any) -> bool:
    return isinstance(tp, type) and typing.is_typeddict(tp)


def _type_name(tp: Any) -> str:
    return getattr(tp, "__qualname__", None) or repr(tp)


def json_value(value: Any) -> tuple[bool, Any]:
    """``(True, json)`` when ``value`` can stand in a schema (as a default or enum value)."""
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, tuple | frozenset | set):
        value = list(value)
    try:
        return True, json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError):
        return False, None


def _enum_schema(values: list[Any], where: str) -> dict[str, Any]:
    clean = []
    for value in values:
        ok, plain = json_value(value)
        if not ok or isinstance(plain, list | dict):
            raise SchemaError(f"{where}: enum value {value!r} is not a JSON string, number or bool")
        clean.append(plain)
    schema: dict[str, Any] = {}
    kinds = {_SCALARS.get(type(v), "null") for v in clean}
    if len(kinds) == 1:
        schema["type"] = kinds.pop()
    schema["enum"] = clean
    return schema


def hints_of(tp: Any) -> dict[str, Any]:
    try:
        return typing.get_type_hints(tp, include_extras=True)
    except Exception as exc:
        raise SchemaError(f"cannot resolve the type hints of {_type_name(tp)}: {exc}") from exc


def _doc_params(tp: Any) -> Mapping[str, str]:
    return parse_docstring(tp.__doc__).params if isinstance(tp.__doc__, str) else {}


def _object_schema(
    fields: list[tuple[str, Any, bool, Any]],
    doc: Mapping[str, str],
    where: str,
    seen: tuple[Any, ...],
) -> dict[str, Any]:
    """``fields``: ``(name, type, required, default-or-EMPTY)``."""
    props: dict[str, Any] = {}
    required: list[str] = []
    for name, hint, is_required, default in fields:
        prop = _schema(hint, f"{where}.{name}", seen)
        if name in doc and "description" not in prop:
            prop["description"] = doc[name]
        if default is not EMPTY and default is not None:
            ok, plain = json_value(default)
            if ok:
                prop["default"] = plain
        props[name] = prop
        if is_required:
            required.append(name)
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


def record_fields(
    tp: Any, resolve: Callable[[Any], dict[str, Any]] = hints_of
) -> list[tuple[str, Any, bool, Any]] | None:
    """The fields of a TypedDict, dataclass or attrs class; ``None`` for other types."""
    if is_typeddict(tp):
        hints = resolve(tp)
        required_keys = getattr(tp, "__required_keys__", frozenset(hints))
        out = []
        for name, hint in hints.items():
            # Under ``from __future__ import annotations`` Python 3.11 cannot see
            # ``NotRequired[...]`` when it builds ``__required_keys__``; the resolved hint can.
            qualifier = typing.get_origin(hint)
            required = qualifier is typing.Required or (
                name in required_keys and qualifier is not typing.NotRequired
            )
            out.append((name, hint, required, EMPTY))
        return out
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        hints = resolve(tp)
        out = []
        for f in dataclasses.fields(tp):
            if not f.init:
                continue
            default = f.default if f.default is not dataclasses.MISSING else EMPTY
            required = default is EMPTY and f.default_factory is dataclasses.MISSING
            out.append((f.name, hints.get(f.name, Any), required, default))
        return out
    if isinstance(tp, type) and attrs.has(tp):
        hints = resolve(tp)
        out = []
        for a in attrs.fields(tp):
            if not a.init:
                continue
            default = a.default
            required = default is attrs.NOTHING
            if isinstance(default, attrs.Factory) or required:  # type: ignore[arg-type]  # Factory is a class at runtime
                default = EMPTY
            out.append((a.alias or a.name, hints.get(a.name, Any), required, default))
        return out
    return None


def _schema(tp: Any, where: str, seen: tuple[Any, ...]) -> dict[str, Any]:
    if len(seen) > _MAX_DEPTH:
        raise SchemaError(f"{where}: the type nests too deeply")
    description = None
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        inner, *meta = typing.get_args(tp)
        schema = _schema(inner, where, seen)
        for item in meta:
            if isinstance(item, str):
                description = item
            elif isinstance(item, Mapping):
                schema.update(item)  # a raw JSON Schema fragment: Annotated[int, {"minimum": 0}]
        if description is not None:
            schema["description"] = description
        return schema
    if origin in _WRAPPERS:
        return _schema(typing.get_args(tp)[0], where, seen)
    if tp is Any or tp is EMPTY or tp is object:
        return {}
    if tp is None or tp is _NONE:
        return {"type": "null"}
    if origin in UNIONS:
        inner, nullable = split_optional(tp)
        if typing.get_origin(inner) in UNIONS:
            schema = {"anyOf": [_schema(arm, where, seen) for arm in typing.get_args(inner)]}
        else:
            schema = _schema(inner, where, seen)
        if nullable:
            if isinstance(schema.get("type"), str) and "enum" not in schema:
                schema["type"] = [schema["type"], "null"]
            elif "anyOf" in schema:
                schema["anyOf"].append({"type": "null"})
            else:
                schema = {"anyOf": [schema, {"type": "null"}]}
        return schema
    if origin is typing.Literal:
        return _enum_schema(list(typing.get_args(tp)), where)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum_schema([member.value for member in tp], where)
    if isinstance(tp, type) and tp in _SCALARS:
        return {"type": _SCALARS[tp]}
    if (
        isinstance(tp, type)
        and issubclass(tp, bool | int | float | str)
        and not issubclass(tp, enum.Enum)
    ):
        return {"type": _SCALARS[next(base for base in _SCALARS if issubclass(tp, base))]}
    if isinstance(tp, type) and issubclass(tp, PurePath):
        return {"type": "string"}
    container = origin or tp
    if container in ARRAYS:
        return _array_schema(tp, container, where, seen)
    if container in MAPPINGS:
        args = typing.get_args(tp)
        schema = {"type": "object"}
        if args:
            key, value = args
            if unwrap(key) not in (str, Any):
                raise SchemaError(f"{where}: JSON object keys are strings, not {_type_name(key)}")
            if unwrap(value) is not Any:
                schema["additionalProperties"] = _schema(value, f"{where}[*]", seen)
        return schema
    fields = record_fields(tp)
    if fields is not None:
        if tp in seen:
            raise SchemaError(f"{where}: {_type_name(tp)} refers to itself; give an input_schema")
        return _object_schema(fields, _doc_params(tp), where, (*seen, tp))
    raise SchemaError(
        f"{where}: cannot describe {_type_name(tp)} as JSON Schema; use {_SUPPORTED}, "
        "or give the tool an explicit input_schema"
    )


def _array_schema(tp: Any, container: Any, where: str, seen: tuple[Any, ...]) -> dict[str, Any]:
    args = typing.get_args(tp)
    schema: dict[str, Any] = {"type": "array"}
    if ARRAYS[container] == "set":
        schema["uniqueItems"] = True
    if container is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
        if args == ((),):  # tuple[()]
            return {**schema, "maxItems": 0}
        schema["prefixItems"] = [_schema(arg, f"{where}[{i}]", seen) for i, arg in enumerate(args)]
        schema["minItems"] = schema["maxItems"] = len(args)
        return schema
    if args and unwrap(args[0]) is not Any:
        schema["items"] = _schema(args[0], f"{where}[*]", seen)
    return schema


def type_schema(tp: Any, where: str = "value") -> dict[str, Any]:
    """The JSON Schema of values of type ``tp``.

    :param where: names the value in error messages (a parameter name).
    :raises SchemaError: when ``tp`` has no JSON equivalent.
    """
    return _schema(tp, where, ())
