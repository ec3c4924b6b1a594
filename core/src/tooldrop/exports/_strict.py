"""Strict mode: whether a tool's schema may be sent with ``strict: true``, and why not.

OpenAI (Structured Outputs) and Anthropic (strict tool use) both compile a strict schema into
a grammar for constrained decoding, so each accepts only part of JSON Schema. Claiming strict
for a schema outside that part makes the API refuse the whole request; sending non-strict is
always accepted. So a schema is strict only when every rule below holds, and everything not
known to be supported counts as unsupported.

- OpenAI: https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
- Anthropic: https://docs.claude.com/en/docs/build-with-claude/structured-outputs
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal

__all__ = ["AnthropicBudget", "StrictTarget", "why_not_strict"]

StrictTarget = Literal["openai", "anthropic"]

_ANNOTATIONS = frozenset({"description", "title"})
_STRICT_KEYWORDS: Mapping[str, frozenset[str]] = {
    # https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
    "openai": _ANNOTATIONS
    | {
        "type", "properties", "required", "additionalProperties", "items", "enum", "const",
        "anyOf", "$ref", "$defs", "definitions", "pattern", "format", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
    },
    # https://docs.claude.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations
    "anthropic": _ANNOTATIONS
    | {
        "type", "properties", "required", "additionalProperties", "items", "enum", "const",
        "anyOf", "allOf", "$ref", "$defs", "definitions", "default", "format", "pattern",
        "minItems",
    },
}  # fmt: skip
_STRICT_FORMATS: Mapping[str, frozenset[str]] = {
    "openai": frozenset(
        {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
    ),
    "anthropic": frozenset(
        {
            "date-time",
            "time",
            "date",
            "duration",
            "email",
            "hostname",
            "uri",
            "ipv4",
            "ipv6",
            "uuid",
        }
    ),
}
# Constrained decoding compiles patterns to automata: no lookaround; Anthropic also refuses
# backreferences and word boundaries.
_LOOKAROUND = re.compile(r"(?<!\\)(?:\\\\)*\(\?<?[=!]")
_BACKREF_OR_BOUNDARY = re.compile(r"(?<!\\)(?:\\\\)*\\(?:[1-9]|k<|b|B)")
_OPENAI_MAX_DEPTH = 10
_OPENAI_MAX_PROPERTIES = 5000
_OPENAI_MAX_ENUM_VALUES = 1000


class _StrictCheck:
    def __init__(self, target: StrictTarget) -> None:
        self.target = target
        self.keywords = _STRICT_KEYWORDS[target]
        self.reasons: list[str] = []
        self.properties = 0
        self.enum_values = 0

    def fail(self, where: str, message: str) -> None:
        self.reasons.append(f"{where or '(root)'}: {message}")

    def walk(self, schema: object, where: str, depth: int) -> None:
        if isinstance(schema, bool):
            if schema is False or self.target == "openai":
                self.fail(where, f"a boolean schema ({str(schema).lower()}) is not supported")
            return
        if not isinstance(schema, Mapping):
            self.fail(where, "is not a schema object")
            return
        for key in schema:
            if key not in self.keywords:
                self.fail(where, f'"{key}" is not supported in strict mode')
        if "$ref" in schema and self.target == "openai" and len(schema) > 1:
            self.fail(where, '"$ref" cannot have sibling keywords in strict mode')
        self._scalars(schema, where)
        is_object = schema.get("type") == "object" or "properties" in schema
        if is_object:
            self._object(schema, where, depth)
        items = schema.get("items")
        if items is not None:
            self.walk(items, f"{where}[]" if where else "[]", depth)
        for keyword in ("anyOf", "allOf"):
            options = schema.get(keyword)
            if isinstance(options, list):
                for index, option in enumerate(options):
                    self.walk(option, f"{where}.{keyword}[{index}]".lstrip("."), depth)
        for keyword in ("$defs", "definitions"):
            defs = schema.get(keyword)
            if isinstance(defs, Mapping):
                for name, sub in defs.items():
                    self.walk(sub, f"{keyword}.{name}", 0)

    def _scalars(self, schema: Mapping[str, Any], where: str) -> None:
        fmt = schema.get("format")
        if fmt is not None and (
            not isinstance(fmt, str) or fmt not in _STRICT_FORMATS[self.target]
        ):
            self.fail(where, f'format "{fmt}" is not supported in strict mode')
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            if _LOOKAROUND.search(pattern):
                self.fail(where, "patterns with lookahead or lookbehind are not supported")
            elif self.target == "anthropic" and _BACKREF_OR_BOUNDARY.search(pattern):
                self.fail(where, "patterns with backreferences or \\b are not supported")
        enum = schema.get("enum")
        if isinstance(enum, list):
            self.enum_values += len(enum)
            if self.target == "anthropic" and any(isinstance(v, dict | list) for v in enum):
                self.fail(where, "enum values must be strings, numbers, booleans or null")
        if self.target == "anthropic" and schema.get("minItems", 0) not in (0, 1):
            self.fail(where, "minItems other than 0 or 1 is not supported")

    def _object(self, schema: Mapping[str, Any], where: str, depth: int) -> None:
        if schema.get("additionalProperties") is not False:
            self.fail(where, 'objects need "additionalProperties": false')
        props = schema.get("properties")
        props = props if isinstance(props, Mapping) else {}
        self.properties += len(props)
        if depth >= _OPENAI_MAX_DEPTH and self.target == "openai":
            self.fail(where, f"objects nest deeper than {_OPENAI_MAX_DEPTH} levels")
        required = schema.get("required")
        required = required if isinstance(required, list) else []
        for name, sub in props.items():
            path = f"{where}.{name}" if where else str(name)
            if self.target == "openai" and name not in required:
                self.fail(
                    path,
                    'is optional; strict mode needs every property in "required" '
                    '(say "type": [..., "null"] for a value that may be left out)',
                )
            self.walk(sub, path, depth + 1)

    def finish(self, schema: Mapping[str, Any]) -> list[str]:
        if schema.get("type") != "object":
            self.fail("", 'the root must be {"type": "object"}')
        if self.target == "openai":
            if self.properties > _OPENAI_MAX_PROPERTIES:
                self.fail("", f"more than {_OPENAI_MAX_PROPERTIES} properties")
            if self.enum_values > _OPENAI_MAX_ENUM_VALUES:
                self.fail("", f"more than {_OPENAI_MAX_ENUM_VALUES} enum values")
        elif _is_recursive(schema):
            self.fail("", "recursive schemas are not supported")
        return self.reasons


def _refs(schema: object) -> Iterable[str]:
    if isinstance(schema, Mapping):
        ref = schema.get("$ref")
        if isinstance(ref, str):
            yield ref
        for key, value in schema.items():
            if key not in ("$defs", "definitions"):
                yield from _refs(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _refs(item)


def _definitions(schema: Mapping[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for keyword in ("$defs", "definitions"):
        defs = schema.get(keyword)
        if isinstance(defs, Mapping):
            found.update({f"#/{keyword}/{name}": sub for name, sub in defs.items()})
    return found


def _is_recursive(schema: Mapping[str, Any]) -> bool:
    """Whether a ``$ref`` leads back to the root or to a definition it came from."""
    defs = _definitions(schema)

    def cycles(ref: str, seen: frozenset[str]) -> bool:
        if ref == "#" or ref in seen:
            return True
        target = defs.get(ref)
        return target is not None and any(cycles(r, seen | {ref}) for r in _refs(target))

    return any(cycles(ref, frozenset()) for ref in _refs(schema))


def why_not_strict(schema: Mapping[str, Any], target: StrictTarget = "openai") -> list[str]:
    """Why ``schema`` cannot be sent with ``strict: true``; an empty list when it can.

    :param schema: A tool's input JSON Schema.
    :param target: ``openai`` (every property required, ``additionalProperties: false``
        everywhere, OpenAI's keyword subset) or ``anthropic`` (``additionalProperties: false``
        everywhere, optional properties allowed, Anthropic's keyword subset, no recursion).
    :returns: One ``where: why`` line per reason, ``where`` being the dotted parameter path.
    """
    if target not in _STRICT_KEYWORDS:
        raise ValueError(f"strict mode is an OpenAI or Anthropic notion, not {target!r}")
    check = _StrictCheck(target)
    check.walk(schema, "", 0)
    return check.finish(schema)


class AnthropicBudget:
    """Anthropic's per-request limits on strict tools: a strict export must fit one request."""

    MAX_TOOLS = 20
    MAX_OPTIONAL = 24
    MAX_UNIONS = 16

    def __init__(self) -> None:
        self.tools = self.optional = self.unions = 0

    def spend(self, schema: Mapping[str, Any]) -> list[str]:
        optional, unions = _count_optional_and_unions(schema)
        if self.tools + 1 > self.MAX_TOOLS:
            return [f"(request): Anthropic takes at most {self.MAX_TOOLS} strict tools per request"]
        if self.optional + optional > self.MAX_OPTIONAL:
            return [f"(request): over {self.MAX_OPTIONAL} optional parameters across strict tools"]
        if self.unions + unions > self.MAX_UNIONS:
            return [f"(request): over {self.MAX_UNIONS} union-typed parameters across strict tools"]
        self.tools, self.optional, self.unions = (
            self.tools + 1,
            self.optional + optional,
            self.unions + unions,
        )
        return []


def _count_optional_and_unions(schema: Mapping[str, Any]) -> tuple[int, int]:
    """(optional parameters, parameters using anyOf or a type list) anywhere in ``schema``."""
    optional = unions = 0
    stack: list[object] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, Mapping):
            props = node.get("properties")
            if isinstance(props, Mapping):
                required = node.get("required")
                required = required if isinstance(required, list) else []
                optional += sum(1 for name in props if name not in required)
                unions += sum(1 for sub in props.values() if _is_union(sub))
            stack.extend(v for k, v in node.items() if k not in ("enum", "const", "default"))
    return optional, unions


def _is_union(schema: object) -> bool:
    return isinstance(schema, Mapping) and (
        "anyOf" in schema or isinstance(schema.get("type"), list)
    )
