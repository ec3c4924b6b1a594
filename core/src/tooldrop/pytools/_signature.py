"""A tool's schema and description from a function's signature, and arguments back to types.

This is what lets a typed function become a tool (:func:`tooldrop.tool`): its parameters
become the schema's properties (types as in :mod:`tooldrop.pytools._typeschema`), its docstring's
first paragraph the tool's description, and its ``Args:`` entries the properties'
descriptions (:mod:`tooldrop.pytools._docstring`). Arguments arrive as JSON values; :func:`coerce`
turns them back into the annotated types (enum members, dataclasses, tuples, paths).

Every runner calls a Python tool as ``execute(args, cancel)``; :class:`FunctionCall` and
:class:`ArgsOnly` adapt decorated functions and one-parameter ``execute`` to that.
"""

from __future__ import annotations

import collections.abc as cabc
import dataclasses
import enum
import functools
import inspect
import typing
from collections.abc import Callable, Mapping
from pathlib import PurePath
from typing import Any

import attrs

from ..calls._cancel import CancelToken
from ._docstring import parse_docstring
from ._typeschema import (
    ARRAYS,
    EMPTY,
    MAPPINGS,
    UNIONS,
    SchemaError,
    hints_of,
    is_typeddict,
    json_value,
    record_fields,
    split_optional,
    type_schema,
    unwrap,
)

__all__ = [
    "ArgsOnly",
    "FunctionCall",
    "FunctionSchema",
    "args_type_schema",
    "bind_execute",
    "coerce",
    "function_schema",
    "takes_cancel",
]

_MAX_DEPTH = 32


# -- functions --------------------------------------------------------------------------


@attrs.frozen
class FunctionSchema:
    """What :func:`function_schema` learned about a function."""

    #: ``{"type": "object", "properties": ..., "required": ..., "additionalProperties": ...}``
    schema: dict[str, Any]
    #: The docstring's first paragraph (``""`` when there is none).
    description: str
    #: The parameter that receives the :class:`CancelToken`, if any.
    cancel_param: str | None
    #: Optional parameters without a default: passed ``None`` when the model leaves them out.
    fill_none: tuple[str, ...]
    #: Parameters whose JSON value must be converted to the annotated type, with the type.
    convert: Mapping[str, Any]


def _is_cancel_hint(hint: Any) -> bool:
    inner, _ = split_optional(unwrap(hint))
    return inner is CancelToken


def _needs_conversion(tp: Any, depth: int = 0) -> bool:
    """Whether a JSON value needs work to become a ``tp`` (an enum member, a dataclass...)."""
    if depth > _MAX_DEPTH:
        return False
    tp = unwrap(tp)
    origin = typing.get_origin(tp)
    if origin in UNIONS or origin in ARRAYS or origin in MAPPINGS:
        if origin is tuple or origin in (set, frozenset, cabc.Set, cabc.MutableSet):
            return True
        return any(_needs_conversion(arg, depth + 1) for arg in typing.get_args(tp))
    if tp in (tuple, set, frozenset, float):
        return True
    if isinstance(tp, type):
        if issubclass(tp, enum.Enum | PurePath):
            return True
        if is_typeddict(tp):
            return any(_needs_conversion(h, depth + 1) for h in hints_of(tp).values())
        return dataclasses.is_dataclass(tp) or attrs.has(tp)
    return False


def function_schema(fn: Callable[..., Any]) -> FunctionSchema:
    """Derive a tool's schema and description from a function's signature and docstring.

    Each parameter becomes a property: required when it has no default and is not
    ``X | None``; its default becomes the schema's ``default`` when it is a JSON value.
    ``**kwargs`` allows extra properties. A parameter annotated :class:`CancelToken` (or
    named ``cancel`` without an annotation) receives the call's cancel token instead.

    :raises SchemaError: for a positional-only parameter, or a type with no JSON Schema.
    """
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise SchemaError(f"cannot read the signature of {fn!r}: {exc}") from exc
    hints = hints_of(fn)
    doc = parse_docstring(inspect.getdoc(fn))
    props: dict[str, Any] = {}
    required: list[str] = []
    fill_none: list[str] = []
    convert: dict[str, Any] = {}
    cancel_param = None
    extra = False
    for param in signature.parameters.values():
        if param.kind is param.VAR_KEYWORD:
            extra = True
            continue
        if param.kind is param.VAR_POSITIONAL:
            continue  # arguments come by name; *args simply stays empty
        hint = hints.get(param.name, EMPTY)
        if _is_cancel_hint(hint) or (param.name == "cancel" and hint is EMPTY):
            cancel_param = param.name
            continue
        if param.kind is param.POSITIONAL_ONLY:
            raise SchemaError(
                f"{param.name}: positional-only parameters cannot receive named arguments"
            )
        inner, nullable = split_optional(unwrap(hint))
        prop = type_schema(_keep_annotations(hint, inner) if nullable else hint, param.name)
        if param.name in doc.params and "description" not in prop:
            prop["description"] = doc.params[param.name]
        if param.default is not EMPTY:
            ok, plain = json_value(param.default)
            if ok and plain is not None:
                prop["default"] = plain
        elif nullable:
            fill_none.append(param.name)
        else:
            required.append(param.name)
        props[param.name] = prop
        if hint is not EMPTY and _needs_conversion(hint):
            convert[param.name] = hint
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        schema["required"] = required
    schema["additionalProperties"] = extra
    return FunctionSchema(
        schema=schema,
        description=doc.summary,
        cancel_param=cancel_param,
        fill_none=tuple(fill_none),
        convert=convert,
    )


def _keep_annotations(hint: Any, inner: Any) -> Any:
    """``Annotated[X | None, meta]`` → ``Annotated[X, meta]``: an optional parameter's schema
    is that of ``X`` (a ``null`` from the model means "left out", see ``drop_null_optionals``)."""
    if typing.get_origin(hint) is typing.Annotated:
        return typing.Annotated[(inner, *hint.__metadata__)]
    return inner


def args_type_schema(execute: Callable[..., Any]) -> dict[str, Any] | None:
    """The schema of ``execute(args: T, ...)`` when ``T`` is a TypedDict, dataclass or attrs
    class; ``None`` when ``args`` has no such annotation."""
    try:
        params = list(inspect.signature(execute).parameters.values())
    except (TypeError, ValueError):
        return None
    if not params or params[0].kind not in (
        params[0].POSITIONAL_ONLY,
        params[0].POSITIONAL_OR_KEYWORD,
    ):
        return None
    if params[0].annotation is EMPTY:
        return None
    try:
        hint = typing.get_type_hints(execute, include_extras=True).get(params[0].name)
    except Exception:  # noqa: BLE001 - an unresolvable hint on a dict tool means "no derived schema".
        return None
    if record_fields(unwrap(hint)) is None:
        return None
    return type_schema(hint, params[0].name)


# -- JSON values -> annotated types -----------------------------------------------------


@functools.lru_cache(maxsize=256)
def _cached_hints(tp: Any) -> dict[str, Any]:
    return hints_of(tp)


def coerce(value: Any, tp: Any) -> Any:
    """Turn a schema-valid JSON ``value`` into the annotated type ``tp`` where that differs.

    Enum values become members, objects become dataclasses / attrs instances, arrays become
    tuples and sets, strings become paths, integers become floats; anything else is returned
    as it is.
    """
    tp = unwrap(tp)
    if value is None:
        return None
    origin = typing.get_origin(tp)
    if origin in UNIONS:
        inner, _ = split_optional(tp)
        return value if typing.get_origin(inner) in UNIONS else coerce(value, inner)
    if origin is not None:
        args = typing.get_args(tp)
        if origin in MAPPINGS and isinstance(value, Mapping) and len(args) == 2:
            return {k: coerce(v, args[1]) for k, v in value.items()}
        if origin in ARRAYS and isinstance(value, list):
            if origin is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
                return tuple(coerce(v, a) for v, a in zip(value, args, strict=False))
            items = [coerce(v, args[0]) for v in value] if args else list(value)
            kind = ARRAYS[origin]
            if origin is frozenset:
                return frozenset(items)
            return set(items) if kind == "set" else tuple(items) if origin is tuple else items
        return value
    if not isinstance(tp, type):
        return value
    if issubclass(tp, enum.Enum):
        return tp(value)
    if tp is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if tp in (tuple, set, frozenset) and isinstance(value, list):
        return tp(value)
    if issubclass(tp, PurePath) and isinstance(value, str):
        return tp(value)
    if isinstance(value, Mapping):
        if is_typeddict(tp):
            hints = _cached_hints(typing.cast(Any, tp))  # lru_cache wants Hashable
            return {k: coerce(v, hints.get(k, Any)) for k, v in value.items()}
        fields = record_fields(tp, _cached_hints)
        if fields is not None:
            hints = {name: hint for name, hint, _, _ in fields}
            return tp(**{k: coerce(v, hints.get(k, Any)) for k, v in value.items()})
    return value


# -- calling conventions ----------------------------------------------------------------


class FunctionCall:
    """``execute(args, cancel)`` for a decorated function: its arguments by keyword.

    JSON values are converted to the annotated types first (enum members, dataclasses,
    tuples, paths), optional parameters left out get ``None``, and the parameter annotated
    :class:`CancelToken` (or named ``cancel``) receives the token.
    """

    __slots__ = ("cancel_param", "convert", "fill_none", "function")

    def __init__(self, function: Callable[..., Any], schema: FunctionSchema | None) -> None:
        self.function = function
        self.cancel_param = schema.cancel_param if schema else None
        self.fill_none = schema.fill_none if schema else ()
        self.convert = dict(schema.convert) if schema else {}

    def __call__(self, args: Mapping[str, Any], cancel: CancelToken) -> Any:
        kwargs = dict(args)
        for name in self.fill_none:
            kwargs.setdefault(name, None)
        for name, hint in self.convert.items():
            if name in kwargs:
                kwargs[name] = coerce(kwargs[name], hint)
        if self.cancel_param is not None:
            kwargs[self.cancel_param] = cancel
        return self.function(**kwargs)

    def __repr__(self) -> str:
        return f"<FunctionCall {getattr(self.function, '__qualname__', self.function)!r}>"


class ArgsOnly:
    """Adapts ``execute(args)`` to the ``execute(args, cancel)`` every runner calls."""

    __slots__ = ("function",)

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function

    def __call__(self, args: Mapping[str, Any], cancel: CancelToken) -> Any:
        return self.function(args)

    def __repr__(self) -> str:
        return f"<ArgsOnly {getattr(self.function, '__qualname__', self.function)!r}>"


def takes_cancel(fn: Callable[..., Any]) -> bool:
    """Whether ``execute`` accepts a second positional argument (the cancel token)."""
    if isinstance(fn, FunctionCall):
        return True
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return True
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return True
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params) >= 2


def bind_execute(execute: Callable[..., Any]) -> Callable[[Mapping[str, Any], CancelToken], Any]:
    """``execute`` as a two-argument callable (its arity is inspected once, here)."""
    return execute if takes_cancel(execute) else ArgsOnly(execute)
