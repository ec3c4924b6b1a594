"""The load-time check of a tool's schema: what tooldrop cannot validate faithfully is refused.

:func:`schema_problem` answers, for a schema about to become a tool's, why it cannot be used:
a dialect other than 2020-12 and draft-07, a keyword of the other dialect (which the
validator would silently ignore), a failed meta-schema check, a pattern that is not ECMA-262
or that RE2 cannot run, or a number that is not finite.
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Iterator, Mapping
from typing import Any

from ._dialect import dialect_of, validator_class
from ._pattern import PatternError, compile_pattern

__all__ = ["schema_problem"]

# Keywords whose values are data, never schemas: nothing in them is a pattern or a $schema.
_DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples"})
# Keywords whose values map names to schemas (the names are not schemas).
_SCHEMA_MAPS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)

# Keywords a dialect does not have: its validator would ignore them without a word.
_FOREIGN = {
    "2020-12": {
        "dependencies": 'a draft-07 keyword: write "dependentRequired" / "dependentSchemas"',
        "additionalItems": 'a draft-07 keyword: use "prefixItems" with "items"',
        "$recursiveRef": "a 2019-09 keyword: use $dynamicRef",
        "$recursiveAnchor": "a 2019-09 keyword: use $dynamicAnchor",
    },
    "draft-07": dict.fromkeys(
        (
            "prefixItems",
            "dependentRequired",
            "dependentSchemas",
            "unevaluatedProperties",
            "unevaluatedItems",
            "minContains",
            "maxContains",
            "$anchor",
            "$dynamicRef",
            "$dynamicAnchor",
            "$recursiveRef",
            "$recursiveAnchor",
        ),
        "a 2020-12 keyword",
    ),
}


def _unsupported(declared: object) -> str:
    return (
        f"$schema {declared!r} is not supported: tooldrop validates JSON Schema 2020-12 "
        '("https://json-schema.org/draft/2020-12/schema", the default) and draft-07 '
        '("http://json-schema.org/draft-07/schema#")'
    )


def _walk(
    node: object, path: str, dialect: str | None
) -> Iterator[tuple[str, Mapping[str, Any], str | None]]:
    """Every (path, sub-schema, its dialect) a validator could reach, the root first.

    Unknown keywords are walked too: a ``$ref`` may point into them.
    """
    if not isinstance(node, Mapping):
        return
    if "$schema" in node:
        dialect = dialect_of(node)
    yield path, node, dialect
    for key, value in node.items():
        if key in _DATA_KEYWORDS:
            continue
        where = f"{path}.{key}" if path else str(key)
        if key in _SCHEMA_MAPS and isinstance(value, Mapping):
            for name, sub in value.items():
                yield from _walk(sub, f"{where}.{name}", dialect)
        elif isinstance(value, Mapping):
            yield from _walk(value, where, dialect)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                yield from _walk(item, f"{where}[{index}]", dialect)


def _number_problem(node: object) -> str | None:
    if isinstance(node, float) and not math.isfinite(node):
        return f"{node} is not a JSON number"
    if isinstance(node, decimal.Decimal) and not node.is_finite():
        return f"{node} is not a JSON number"
    if isinstance(node, Mapping):
        for value in node.values():
            if problem := _number_problem(value):
                return problem
    elif isinstance(node, list):
        for value in node:
            if problem := _number_problem(value):
                return problem
    return None


_meta_validators: dict[str, Any] = {}


def _meta_validator(dialect: str) -> Any:
    """The validator of a dialect's meta-schema, made once (making one costs milliseconds).

    The meta-schemas check ``"format": "regex"`` with Python's ``re``; ECMA-262 is checked
    by :func:`schema_problem` itself, so that format is left out.
    """
    if dialect not in _meta_validators:
        from jsonschema import FormatChecker, validators

        cls = validator_class({"$schema": _DIALECT_IDS[dialect]})
        meta_cls = validators.validator_for(cls.META_SCHEMA, default=cls)
        formats = FormatChecker(f for f in cls.FORMAT_CHECKER.checkers if f != "regex")
        _meta_validators[dialect] = meta_cls(cls.META_SCHEMA, format_checker=formats)
    return _meta_validators[dialect]


_DIALECT_IDS = {
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
    "draft-07": "http://json-schema.org/draft-07/schema#",
}


def schema_problem(schema: Mapping[str, Any]) -> str | None:
    """Why ``schema`` cannot be a tool's schema, or ``None``: its dialect is supported, it
    meets that dialect's meta-schema, every pattern is ECMA-262 that RE2 runs, and every
    number is finite."""
    if (problem := _number_problem(schema)) is not None:
        return problem
    dialect = dialect_of(schema)
    if dialect is None:
        return _unsupported(schema.get("$schema"))
    error = next(_meta_validator(dialect).iter_errors(schema), None)
    if error is not None:
        where = ".".join(str(part) for part in error.absolute_path)
        return f"is not a valid JSON Schema: {error.message}" + (f" (at {where})" if where else "")
    for path, node, node_dialect in _walk(schema, "", dialect):
        prefix = f"{path}." if path else ""
        if node_dialect is None:
            return f"{prefix}$schema: " + _unsupported(node["$schema"])
        for keyword in node.keys() & _FOREIGN[node_dialect].keys():
            why = _FOREIGN[node_dialect][keyword]
            return (
                f"{prefix}{keyword} is not a JSON Schema {node_dialect} keyword ({why}); "
                "tooldrop would ignore it, so it refuses the schema"
            )
        patterns = []
        if isinstance(node.get("pattern"), str):
            patterns.append(("pattern", node["pattern"]))
        if isinstance(node.get("patternProperties"), Mapping):
            patterns.extend(("patternProperties", key) for key in node["patternProperties"])
        for keyword, text in patterns:
            try:
                compile_pattern(text)
            except PatternError as exc:
                return f"{prefix}{keyword}: {text!r} cannot be used: {exc}"
    return None
