"""YAML 1.2 (core schema) for ``skill.yaml`` and agent frontmatter, with the line of each value.

Nanocoder reads these files with the ``yaml`` package (YAML 1.2), where ``yes`` is a string and
``1.0`` a number; PyYAML's own loader is YAML 1.1. So libyaml composes the nodes (with their
marks) and this module turns them into values under the core schema: ``true``/``false`` are
booleans, ``~``/``null``/empty are null, decimal/``0o``/``0x`` integers, floats, and every other
plain scalar a string (dates too). Unknown tags and duplicate keys are errors.

The markdown plugin has its own, faster copy of these rules for tool files; the core cannot
depend on a plugin, and these files are few and small.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

__all__ = ["YamlError", "line_of", "load", "syntax_error"]

try:
    _Base: type[Any] = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Base = yaml.SafeLoader

_TAG = "tag:yaml.org,2002:"
STR, NULL, BOOL, INT, FLOAT = (_TAG + t for t in ("str", "null", "bool", "int", "float"))
SEQ, MAP = _TAG + "seq", _TAG + "map"
_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT = re.compile(
    r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
#: Values built from one document (aliases count each time they are used).
MAX_VALUES = 10_000


class YamlError(Exception):
    """Not YAML we accept: what, and the 1-based line when it is known."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class _Loader(_Base):  # type: ignore[misc]  # the base is chosen at import time
    def resolve(self, kind: type[Node], value: str | None, implicit: Any) -> str:
        if kind is ScalarNode:
            if not implicit[0]:
                return STR
            if value in _NULLS:
                return NULL
            if value in _BOOLS:
                return BOOL
            if value and (_INT.fullmatch(value)):
                return INT
            if value and _FLOAT.fullmatch(value):
                return FLOAT
            return STR
        return SEQ if kind is SequenceNode else MAP


def _scalar(node: ScalarNode) -> Any:
    tag, text = node.tag, node.value
    if tag == STR:
        return text
    if tag == NULL and text in _NULLS:
        return None
    if tag == BOOL and text in _BOOLS:
        return _BOOLS[text]
    if tag == INT and _INT.fullmatch(text):
        if text.startswith("0o"):
            return int(text[2:], 8)
        if text.startswith("0x"):
            return int(text[2:], 16)
        return int(text, 10)
    if tag == FLOAT and _FLOAT.fullmatch(text):
        lowered = text.lower()
        if lowered.endswith(".nan"):
            return math.nan
        if lowered.endswith(".inf"):
            return -math.inf if text.startswith("-") else math.inf
        return float(text)
    raise YamlError(f"unknown tag {tag} (YAML 1.2 core schema)", node.start_mark.line + 1)


def _build(node: Node, budget: list[int], active: set[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise YamlError(f"more than {MAX_VALUES} values (aliases included)", None)
    if isinstance(node, ScalarNode):
        return _scalar(node)
    if id(node) in active:
        raise YamlError("an alias refers to a value that contains it", node.start_mark.line + 1)
    active.add(id(node))
    try:
        if isinstance(node, SequenceNode) and node.tag == SEQ:
            return [_build(child, budget, active) for child in node.value]
        if isinstance(node, MappingNode) and node.tag == MAP:
            value: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                key = _build(key_node, budget, active)
                if isinstance(key, dict | list):
                    raise YamlError("a mapping key must be a plain value", _line(key_node))
                if key in value:
                    raise YamlError(f'duplicate key "{key}"', _line(key_node))
                value[key] = _build(value_node, budget, active)
            return value
        raise YamlError(f"unknown tag {node.tag} (YAML 1.2 core schema)", _line(node))
    finally:
        active.discard(id(node))


def _line(node: Node) -> int:
    return int(node.start_mark.line) + 1


#: What the parser was reading when the text ended, as the person wrote it.
_UNCLOSED = {
    "while scanning a quoted scalar": "a quoted string",
    "while parsing a flow sequence": "a [ list",
    "while parsing a flow mapping": "a { mapping",
}


def syntax_error(exc: Exception, text: str) -> tuple[int | None, str]:
    """The 1-based line of a parser error and one line saying what is wrong (not the
    parser's multi-line dump naming ``"<unicode string>"``).

    A quote or bracket left open is found at the end of the text, where the parser runs
    out; the line that matters is where it opens, which the parser keeps as its context.
    """
    problem = getattr(exc, "problem", None)
    context = getattr(exc, "context", None)
    at = getattr(exc, "problem_mark", None)
    opened = getattr(exc, "context_mark", None)
    at_end = at is not None and at.index >= len(text)  # libyaml: "did not find expected ']'"
    if opened is not None and (at_end or "end of stream" in (problem or "")):
        what = _UNCLOSED.get(context or "")
        if what is not None:
            column = opened.column + 1
            return opened.line + 1, f"{what} opens here (column {column}) and is never closed"
    if problem:
        message = f"{problem} ({context})" if context else str(problem)
    else:
        message = str(exc).splitlines()[0]
    mark = at or opened
    return (None if mark is None else mark.line + 1), message


def load(text: str) -> tuple[Any, Node | None]:
    """The value of one YAML document and its root node (``None`` for an empty document).

    :raises YamlError: not valid YAML, several documents, an unknown tag, a duplicate key.
    """
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        line, message = syntax_error(exc, text)
        raise YamlError(message, line) from None
    finally:
        loader.dispose()
    if node is None:
        return None, None
    try:
        return _build(node, [MAX_VALUES], set()), node
    except RecursionError:
        raise YamlError("nested too deeply", _line(node)) from None


def line_of(root: Node | None, path: Sequence[str | int], offset: int = 0) -> int | None:
    """The 1-based line of the value at ``path`` (keys and list indexes), or of the deepest
    part of it that exists; ``offset`` is added (the document's first line in its file - 1)."""
    if root is None:
        return None
    node, line = root, _line(root)
    for part in path:
        found: Node | None = None
        if isinstance(node, MappingNode):
            for key_node, value_node in node.value:
                if isinstance(key_node, ScalarNode) and key_node.value == part:
                    line, found = _line(key_node), value_node
                    break
        elif isinstance(node, SequenceNode) and isinstance(part, int) and part < len(node.value):
            found = node.value[part]
            line = _line(found)
        if found is None:
            break
        node = found
    return line + offset
