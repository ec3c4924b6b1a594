"""Gemini function declarations: JSON Schema into the OpenAPI 3.0 subset Gemini reads.

Why ``parameters`` (the OpenAPI-style ``Schema``) and not ``parametersJsonSchema``: every
Gemini surface and SDK generation accepts ``parameters`` (the Gemini API, Vertex AI, the Live
API, older ``google-generativeai`` code), while ``parametersJsonSchema`` is newer and not
accepted everywhere. The conversion drops only constraints that tooldrop enforces itself on
every call (``additionalProperties: false``, ``multipleOf``, ``exclusiveMinimum``...): the
model sees fewer hints, the tool is exactly as safe. A schema whose *structure* the subset
cannot express (recursion, unions, maps, ``not``, ``allOf``...) is sent whole as
``parametersJsonSchema`` instead, so nothing is ever silently loosened.

https://ai.google.dev/api/caching#FunctionDeclaration and https://ai.google.dev/api/caching#Schema
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["gemini_declaration"]

_TYPES = {
    "string": "STRING",
    "number": "NUMBER",
    "integer": "INTEGER",
    "boolean": "BOOLEAN",
    "array": "ARRAY",
    "object": "OBJECT",
    "null": "NULL",
}
#: Copied as they are: Schema fields with the same meaning as in JSON Schema.
_COPIED = (
    "title", "description", "format", "pattern", "minimum", "maximum", "minLength",
    "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "default",
)  # fmt: skip
_TEXT = ("title", "description", "format", "pattern")
_COUNTS = ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties")


def _fits(key: str, value: object) -> bool:
    """Whether ``value`` has the type Gemini's Schema gives field ``key``."""
    if key in _TEXT:
        return isinstance(value, str)
    if key in _COUNTS:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if key in ("minimum", "maximum"):
        return isinstance(value, int | float) and not isinstance(value, bool)
    return True


#: Dropped: annotations and constraints tooldrop's own argument validation enforces anyway.
_DROPPED = frozenset(
    {
        "$schema", "$id", "$comment", "$defs", "definitions", "additionalProperties",
        "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems", "readOnly",
        "writeOnly", "deprecated", "contentEncoding", "contentMediaType", "examples",
        "discriminator",
    }
)  # fmt: skip
_HANDLED = frozenset({"type", "properties", "required", "items", "enum", "const", "$ref"})


class _Unsupported(Exception):
    """The schema needs JSON Schema proper: send it as ``parametersJsonSchema``."""


def _nullable_union(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    """``anyOf: [X, {"type": "null"}]`` (how Optional[X] is often written) as X, nullable."""
    options = schema.get("anyOf", schema.get("oneOf"))
    if not isinstance(options, list) or len(options) != 2 or {"type": "null"} not in options:
        return schema
    others = [o for o in options if o != {"type": "null"}]
    if len(others) != 1 or not isinstance(others[0], Mapping) or "$ref" in others[0]:
        return schema
    other = others[0]
    merged = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
    kind = other.get("type")
    if not isinstance(kind, str):
        return schema
    return {**other, **merged, "type": [kind, "null"]}


class _Converter:
    def __init__(self, root: Mapping[str, Any]) -> None:
        self.defs: dict[str, Any] = {}
        for keyword in ("$defs", "definitions"):
            found = root.get(keyword)
            if isinstance(found, Mapping):
                self.defs.update({f"#/{keyword}/{name}": sub for name, sub in found.items()})

    def convert(self, schema: object, where: str, refs: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(schema, Mapping):
            raise _Unsupported(
                f"{where or '(root)'}: {json.dumps(schema, default=str)[:40]} as a schema"
            )
        ref = schema.get("$ref")
        if ref is not None:
            if not isinstance(ref, str) or ref in refs or ref == "#":
                raise _Unsupported(f"{where or '(root)'}: a recursive $ref")
            target = self.defs.get(ref)
            if not isinstance(target, Mapping):
                raise _Unsupported(f"{where or '(root)'}: $ref {ref!r} points outside the schema")
            merged = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
            return self.convert(merged, where, (*refs, ref))
        schema = _nullable_union(schema)
        unknown = [
            key
            for key in schema
            if key not in _HANDLED and key not in _DROPPED and key not in _COPIED
        ]
        if unknown:
            raise _Unsupported(f"{where or '(root)'}: {', '.join(sorted(unknown))}")
        out: dict[str, Any] = {}
        self._type(schema, out, where)
        for key in _COPIED:
            if key in schema:
                if not _fits(key, schema[key]):
                    raise _Unsupported(f"{where or '(root)'}: {key} {schema[key]!r}")
                out[key] = schema[key]
        self._enum(schema, out)
        if "items" in schema:
            out["items"] = self.convert(schema["items"], f"{where}[]", refs)
        if out.get("type") == "OBJECT" or "properties" in schema:
            self._object(schema, out, where, refs)
        if "type" not in out:  # Gemini's Schema requires a type
            raise _Unsupported(f"{where or '(root)'}: a value of any type")
        return out

    def _type(self, schema: Mapping[str, Any], out: dict[str, Any], where: str) -> None:
        kind = schema.get("type")
        kinds = [kind] if isinstance(kind, str) else list(kind) if isinstance(kind, list) else []
        if "null" in kinds and len(kinds) > 1:
            kinds.remove("null")
            out["nullable"] = True
        if len(kinds) > 1:
            raise _Unsupported(f"{where or '(root)'}: a value of several types")
        if kinds:
            if not isinstance(kinds[0], str) or kinds[0] not in _TYPES:
                raise _Unsupported(f"{where or '(root)'}: type {kinds[0]!r}")
            out["type"] = _TYPES[kinds[0]]
        elif "properties" in schema:
            out["type"] = "OBJECT"

    def _enum(self, schema: Mapping[str, Any], out: dict[str, Any]) -> None:
        values = schema["enum"] if isinstance(schema.get("enum"), list) else None
        if values is None and "const" in schema:
            values = [schema["const"]]
        if values is None:
            return
        if all(isinstance(v, str) for v in values):
            out["enum"] = list(values)
            out.setdefault("type", "STRING")
            return
        # Gemini enums are strings only; keep the choice visible to the model in words.
        shown = ", ".join(json.dumps(v, ensure_ascii=False) for v in values)
        note = f"One of: {shown}."
        out["description"] = f"{out['description']} ({note})" if out.get("description") else note

    def _object(
        self, schema: Mapping[str, Any], out: dict[str, Any], where: str, refs: tuple[str, ...]
    ) -> None:
        extra = schema.get("additionalProperties")
        props = schema.get("properties")
        if isinstance(extra, Mapping) or (extra is True and not props):
            raise _Unsupported(f"{where or '(root)'}: a map with free-form keys")
        if not isinstance(props, Mapping) or not props:
            if where:  # Gemini refuses OBJECT without properties below the root
                raise _Unsupported(f"{where}: an object without declared properties")
            props = {}
        out["type"] = "OBJECT"
        out["properties"] = {
            str(name): self.convert(sub, f"{where}.{name}" if where else str(name), refs)
            for name, sub in props.items()
        }
        required = schema.get("required")
        if isinstance(required, list) and required:
            out["required"] = [n for n in required if isinstance(n, str) and n in props]
        if len(props) > 1:
            # JSON objects are unordered; Gemini otherwise sorts properties by name.
            out["propertyOrdering"] = [str(name) for name in props]


def gemini_declaration(
    name: str, description: str, schema: dict[str, Any]
) -> tuple[dict[str, Any], str]:
    """A Gemini function declaration, and a note when the JSON Schema form had to be used.

    A tool without parameters gets no ``parameters`` at all, as the Gemini docs ask.
    """
    declaration: dict[str, Any] = {"name": name, "description": description}
    try:
        parameters = _Converter(schema).convert(schema, "")
    except _Unsupported as exc:
        declaration["parametersJsonSchema"] = schema
        note = (
            f"Gemini's OpenAPI-style parameters cannot express this schema ({exc}); "
            'exported as "parametersJsonSchema" instead'
        )
        return declaration, note
    if parameters.get("properties"):
        declaration["parameters"] = parameters
    return declaration, ""
