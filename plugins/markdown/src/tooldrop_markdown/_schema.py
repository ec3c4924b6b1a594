"""``parameters:`` as the JSON Schema the model sees, and lint on defaults and enums.

The schema is ``{type: object, properties, required, additionalProperties: false}``; each
property carries what the file gave of type, description, default, enum, pattern, minLength,
maxLength, ``minimum`` (from ``min``), ``maximum`` (from ``max``) and items (its type only).
"""

from __future__ import annotations

from typing import Any

from ._fields import ABSENT, Param
from ._prepare import Found
from ._quote import js_json

__all__ = ["input_schema", "value_problems"]


def _property(param: Param) -> dict[str, Any]:
    prop: dict[str, Any] = {"type": param.type}
    if param.description is not None:
        prop["description"] = param.description
    if param.default is not ABSENT:
        prop["default"] = param.default
    if param.enum is not None:
        prop["enum"] = param.enum
    if param.pattern is not None:
        prop["pattern"] = param.pattern
    if param.minLength is not None:
        prop["minLength"] = param.minLength
    if param.maxLength is not None:
        prop["maxLength"] = param.maxLength
    if param.min is not None:
        prop["minimum"] = param.min
    if param.max is not None:
        prop["maximum"] = param.max
    if param.items is not None:
        prop["items"] = {"type": param.items.type}
    return prop


def input_schema(params: dict[str, Param]) -> dict[str, Any]:
    """The JSON Schema of a tool's arguments, properties in declaration order."""
    return {
        "type": "object",
        "properties": {name: _property(param) for name, param in params.items()},
        "required": [name for name, param in params.items() if param.required],
        "additionalProperties": False,
    }


def _fits(value: Any, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return kind == "number" or float(value).is_integer()


def value_problems(params: dict[str, Param]) -> list[Found]:
    """Warnings for values no call could use: an enum entry or a default of the wrong type.

    The reference does not check these. Here defaults are applied to omitted arguments, so
    a default that does not fit reaches the script unvalidated: worth saying at load time.
    """
    found: list[Found] = []
    for name, param in params.items():
        if param.enum is not None:
            for index, option in enumerate(param.enum):
                if not _fits(option, param.type):
                    message = (
                        f"enum value {js_json(option)} is not of type {param.type}; "
                        "no argument can ever match it"
                    )
                    found.append((f"parameters.{name}.enum[{index}]", message, "warning"))
        default = param.default
        if default is ABSENT or default is None:
            continue
        if not _fits(default, param.type):
            message = (
                f"default {js_json(default)} is not of type {param.type}; it is used as it "
                "is when the argument is omitted"
            )
            found.append((f"parameters.{name}.default", message, "warning"))
        elif param.enum is not None and default not in param.enum:
            message = f"default {js_json(default)} is not one of the enum values"
            found.append((f"parameters.{name}.default", message, "warning"))
    return found
