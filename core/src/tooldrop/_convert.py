"""The one cattrs converter, with strict primitives, and the error transformer we own.

cattrs' stock converter is forgiving in ways a tool file must not be: ``str(1)`` becomes
``"1"`` and ``bool("no")`` becomes ``True``. Ours structures JSON/YAML values strictly, and
:func:`problems_from_error` turns cattrs' exception groups *and* attrs validator failures into
``field.path: message`` problems (cattrs' own ``transform_error`` reports validator failures
at the parent path as "invalid value", losing both the field and the message).
"""

from __future__ import annotations

import math
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import attrs

from ._model import Problem

if TYPE_CHECKING:
    import cattrs

# cattrs is imported on first use (~20 ms): listing tools from the parse cache never needs it.

__all__ = ["get_converter", "json_type_name", "problems_from_error", "structure"]

T = TypeVar("T")


def json_type_name(value: object) -> str:
    """The JSON name of a value's type, as messages show it (``string``, ``array``, ``null``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _structure_str(value: object, _: type) -> str:
    if not isinstance(value, str):
        raise TypeError(f"must be a string, got {json_type_name(value)}")
    return value


def _structure_bool(value: object, _: type) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"must be a boolean (true or false), got {json_type_name(value)}")
    return value


def _structure_float(value: object, _: type) -> int | float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"must be a finite number, got {json_type_name(value)}")
    if not math.isfinite(value):
        raise ValueError("must be a finite number")
    return value


def _structure_int(value: object, _: type) -> int:
    number = _structure_float(value, float)
    # YAML's 30000.0 is the JavaScript number 30000, which the reference accepts as an integer.
    if isinstance(number, float):
        if not number.is_integer():
            raise ValueError("must be an integer")
        return int(number)
    return number


def _is_literal(tp: Any) -> bool:
    return typing.get_origin(tp) is Literal


def _make_literal_hook(tp: Any) -> Callable[[object, type], object]:
    allowed = typing.get_args(tp)

    def structure_literal(value: object, _: type) -> object:
        # ``in`` alone would accept True for 1; compare types as well.
        for option in allowed:
            if type(option) is type(value) and option == value:
                return value
        shown = ", ".join(str(option) for option in allowed)
        raise ValueError(f"must be one of: {shown} (got {value!r})")

    return structure_literal


def _new_converter() -> cattrs.Converter:
    import cattrs

    conv = cattrs.Converter(forbid_extra_keys=True)
    # Simple types first: hook factories for composite types capture these when they build.
    conv.register_structure_hook(str, _structure_str)
    conv.register_structure_hook(bool, _structure_bool)
    conv.register_structure_hook(int, _structure_int)
    conv.register_structure_hook(float, _structure_float)
    conv.register_structure_hook_factory(_is_literal, _make_literal_hook)
    return conv


_converter: cattrs.Converter | None = None


def get_converter() -> cattrs.Converter:
    """The converter shared by every loader, made on first use.

    Register hooks for your own classes on it, or make a copy with ``.copy()`` when they should
    not leak into other plugins. ``tooldrop.converter`` is the same object.
    """
    global _converter
    if _converter is None:
        _converter = _new_converter()
    return _converter


def __getattr__(name: str) -> Any:
    if name == "converter":
        return get_converter()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _join(path: str, part: str | int) -> str:
    if isinstance(part, int):
        return f"{path}[{part}]"
    return f"{path}.{part}" if path else part


def iter_errors(exc: BaseException, path: str = "") -> Iterator[tuple[str, str]]:
    """Yield ``(field_path, message)`` for every failure inside a cattrs or attrs error."""
    from cattrs.errors import (
        AttributeValidationNote,
        ClassValidationError,
        ForbiddenExtraKeysError,
        IterableValidationError,
    )

    if isinstance(exc, ClassValidationError | IterableValidationError):
        with_notes, without = exc.group_exceptions()
        for inner, note in with_notes:
            if isinstance(note, AttributeValidationNote):
                yield from iter_errors(inner, _join(path, note.name))
            else:  # an IterableValidationNote: a list index or a mapping key
                index = note.index
                yield from iter_errors(
                    inner, _join(path, index if isinstance(index, int) else str(index))
                )
        for inner in without:
            yield from iter_errors(inner, path)
    elif isinstance(exc, ForbiddenExtraKeysError):
        yield path, f"unknown key(s): {', '.join(sorted(map(str, exc.extra_fields)))}"
    elif isinstance(exc, KeyError):
        yield path, "is required"
    elif (
        isinstance(exc, ValueError | TypeError)
        and len(exc.args) >= 2
        and isinstance(exc.args[1], attrs.Attribute)
    ):
        # attrs' validator convention: ``raise ValueError(message, attribute, ...)``.
        yield _join(path, exc.args[1].name), str(exc.args[0])
    else:
        yield path, str(exc) or type(exc).__name__


def problems_from_error(
    exc: BaseException,
    *,
    path: str | Path | None = None,
    line_of: Callable[[str], int | None] | None = None,
    prefix: str = "",
) -> list[Problem]:
    """Turn a structuring or validation error into one :class:`Problem` per failure.

    :param path: the file the data came from.
    :param line_of: maps a dotted field path to the 1-based line it stands on, when known.
    :param prefix: prepended to every field path (for data nested in a larger document).
    """
    problems = []
    for field_path, message in iter_errors(exc, prefix):
        line = line_of(field_path) if line_of else None
        problems.append(Problem(path=path, line=line, field=field_path, message=message))
    return problems


def structure(
    data: object,
    cls: type[T],
    *,
    path: str | Path | None = None,
    line_of: Callable[[str], int | None] | None = None,
    conv: cattrs.Converter | None = None,
) -> tuple[T | None, list[Problem]]:
    """Structure ``data`` into ``cls``; return the object or the problems, never raise."""
    try:
        return (conv or get_converter()).structure(data, cls), []
    except Exception as exc:  # noqa: BLE001 - every failure becomes a Problem, by design.
        return None, problems_from_error(exc, path=path, line_of=line_of)
