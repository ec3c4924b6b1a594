"""Argument validation: tooldrop's ``validate_args`` against plain ``jsonschema``, side by side.

Three schemas, each with arguments that pass (the common case) and, for the pattern cases,
input that makes a backtracking engine explode. Rounds interleave the two implementations so
machine noise hits both alike; reports medians in microseconds and their ratio.

- ``markdown``: a typical markdown tool's schema (types, enum, pattern, bounds, closed);
- ``composed``: ``allOf`` + ``$ref`` + ``unevaluatedProperties`` (no fast check: jsonschema's
  complete validator with the ECMA-262 keywords);
- ``redos``: ``pattern: ^(a+)+$`` against ``a`` × N + ``!``. Plain jsonschema (Python's ``re``)
  is run only up to N = 22, where it already takes a noticeable fraction of a second and each
  extra ``a`` doubles it; tooldrop runs N = 22 and N = 100,000.

    uv run python tests/bench/bench_validate.py [--rounds 2000]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import jsonschema

from tooldrop import Origin, ToolSpec, validate_args

MARKDOWN = {
    "type": "object",
    "properties": {
        "pod": {"type": "string", "pattern": "^[a-z0-9-]+$", "maxLength": 63},
        "lines": {"type": "integer", "minimum": 1, "maximum": 1000},
        "level": {"type": "string", "enum": ["debug", "info", "warn"]},
    },
    "required": ["pod"],
    "additionalProperties": False,
}
COMPOSED = {
    "type": "object",
    "$defs": {"name": {"type": "string", "pattern": r"^\w+$"}},
    "allOf": [{"properties": {"a": {"$ref": "#/$defs/name"}}}],
    "properties": {"b": {"type": "integer"}},
    "unevaluatedProperties": False,
}
REDOS = {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}}


def _spec(schema: dict[str, Any]) -> ToolSpec:
    return ToolSpec(
        name="t",
        description="d",
        input_schema=schema,
        origin=Origin(source="bench", scope="plugin"),
        runner="x",
    )


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e6


def _compare(label: str, schema: dict[str, Any], args: dict[str, Any], rounds: int) -> None:
    spec = _spec(schema)
    stock = jsonschema.Draft202012Validator(schema)
    ours = lambda: validate_args(spec, args)  # noqa: E731
    plain = lambda: stock.is_valid(args)  # noqa: E731
    ours()
    plain()
    mine, theirs = [], []
    for _ in range(rounds):
        mine.append(_time(ours))
        theirs.append(_time(plain))
    a, b = statistics.median(mine), statistics.median(theirs)
    print(f"{label:34} tooldrop {a:10.1f} µs   jsonschema {b:10.1f} µs   ratio {a / b:5.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    rounds = parser.parse_args().rounds
    _compare("markdown schema, valid", MARKDOWN, {"pod": "web-1", "lines": 50}, rounds)
    _compare("markdown schema, invalid", MARKDOWN, {"pod": "Web_1", "lines": 0}, rounds)
    _compare("composed schema, valid", COMPOSED, {"a": "x_1", "b": 2}, rounds)
    _compare("redos ^(a+)+$, a*22+'!'", REDOS, {"s": "a" * 22 + "!"}, 5)
    spec = _spec(REDOS)
    big = {"s": "a" * 100_000 + "!"}
    took = _time(lambda: validate_args(spec, big))
    print(f"{'redos ^(a+)+$, a*100000+!':34} tooldrop {took:10.1f} µs")


if __name__ == "__main__":
    main()
