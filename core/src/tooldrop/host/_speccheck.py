"""What the core checks in every tool a loader or plugin produces, whatever its format.

Loaders check their own files and report problems with lines; this is the floor under all of
them, so a third-party loader's mistake becomes a problem on its file at load time instead of
a raw validator error at call time. It is cheap on purpose (it runs for every tool on every
cold discovery): the name, and the schema's shape. Deeper checks of a schema (its dialect,
meta-schema, patterns) belong to whoever builds it: ``tooldrop.Tool`` runs them, and the
markdown loader builds its schemas from fields it has already checked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .._model import Problem, ToolSpec

__all__ = ["TOOL_NAME", "spec_problems"]

#: Every name the core accepts: the loosest rule of the export targets (MCP's). Exports with
#: stricter rules leave out the names they refuse, with a problem of their own.
TOOL_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")
_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object", "null"})


def _known(declared: object) -> bool:
    """``declared`` is absent or one JSON Schema type name: nearly every schema, so this is
    asked first (the full check below only words what is wrong)."""
    return declared is None or (type(declared) is str and declared in _TYPES)


def _type_problem(schema: Mapping[str, Any], where: str) -> str | None:
    declared = schema.get("type")
    if _known(declared):
        return None
    names = declared if isinstance(declared, list) else [declared]
    unknown = [n for n in names if not isinstance(n, str) or n not in _TYPES]
    if unknown:
        shown = ", ".join(repr(n) for n in unknown)
        return f"{where}type {shown} is not a JSON Schema type ({', '.join(sorted(_TYPES))})"
    return None


def _schema_problem(schema: object) -> str | None:
    if not isinstance(schema, Mapping):
        return "must be a JSON Schema object"
    if schema.get("type", "object") != "object":
        return f'must describe an object (type "object"), not {schema.get("type")!r}'
    properties = schema.get("properties", {})
    if not isinstance(properties, Mapping):
        return "properties must map parameter names to schemas"
    for name, prop in properties.items():
        # A parameter is nearly always a plain dict with a known type: that is settled
        # without the ABC checks, which cost more than the rest of the check together.
        if type(prop) is dict and _known(prop.get("type")):
            continue
        if isinstance(prop, bool):
            continue
        if not isinstance(prop, Mapping):
            return f"properties.{name} must be a schema (an object or a boolean)"
        if (problem := _type_problem(prop, f"properties.{name}: ")) is not None:
            return problem
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        return "required must be a list of parameter names"
    return None


def spec_problems(spec: ToolSpec) -> list[Problem]:
    """Why ``spec`` cannot be a tool (each an error at its file and line), or ``[]``."""
    found: list[Problem] = []
    where = spec.origin

    def problem(field: str, message: str) -> None:
        found.append(Problem(path=where.path, line=where.line, field=field, message=message))

    if not isinstance(spec.name, str) or not TOOL_NAME.fullmatch(spec.name):
        problem(
            "name",
            f"{spec.name!r} is not a valid tool name: letters, digits, _ . and - only, "
            "not starting with . or -, at most 128 characters",
        )
    if (message := _schema_problem(spec.input_schema)) is not None:
        problem("input_schema", message)
    return found
