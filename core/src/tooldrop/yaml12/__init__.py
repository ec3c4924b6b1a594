"""YAML 1.2 (core schema) on PyYAML's C loader, as the reference's ``yaml`` package reads it.

Tool frontmatter (tooldrop-markdown), ``skill.yaml`` and agent files are all read here, so
every file reads the same; a loader of a YAML-based format of its own may use it too, and get
the same values and the same messages. ``import tooldrop`` does not import it (nor PyYAML).

PyYAML implements YAML 1.1, where ``yes`` is ``True``, ``010`` is 8, ``30_000`` is 30000 and
``2024-01-01`` is a date. The reference reads YAML 1.2's core schema, so here:

- ``true``/``false`` (``True``, ``TRUE``...) are booleans; ``yes``, ``no``, ``on``, ``off`` are
  strings;
- ``~``, ``null`` and an empty value are null;
- integers are decimal (``010`` is 10), ``0o17`` or ``0x1F``; ``30_000`` is a string;
- floats are ``1.5``, ``1e3``, ``.5``, ``.inf``, ``.nan``; dates and times are strings;
- a key that appears twice in one mapping is an error, and ``<<`` is an ordinary key; keys
  compare as the reference compares them (``===``), so ``1`` and ``true`` are two keys although
  ``1 == True`` in Python (the later one is then kept as its JavaScript text, ``"true"``);
- an anchor may be defined again (``&d`` twice): an alias refers to the latest one;
- only those tags exist: ``!!binary``, ``!!set``, ``!!timestamp`` and friends are errors.

Parsing and composing stay in libyaml (``CSafeLoader``'s C parser). Tags are resolved by a
small resolver for exactly these types, and the node tree is turned into Python values by one
recursive function rather than PyYAML's general constructor (which supports generators,
deferred objects and Python tags we never want), so loading a frontmatter here costs less
than a plain ``yaml.load(..., CSafeLoader)``. :func:`compose` keeps the nodes, with their
line numbers, and :func:`line_of` finds a value's line in them: only needed to say where a
problem is. An alias gives the same object again, so a few lines can stand for a huge value:
:func:`too_big` says when one does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ._build import BuildError, CoreLoader, compose_single

__all__ = ["MAX_VALUES", "YamlError", "compose", "line_of", "load", "syntax_error", "too_big"]

#: :func:`too_big`'s default bound: values a document may expand to through aliases.
MAX_VALUES = 100_000


class YamlError(Exception):
    """Not YAML we accept: what (``message``), the 1-based ``line`` of the file when it is
    known, and the ``key`` it is about (for a duplicate key, else ``""``)."""

    def __init__(self, message: str, line: int | None, key: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.key = key


#: What the parser was reading when the text ended, as the person wrote it.
_UNCLOSED = {
    "while scanning a quoted scalar": "a quoted string",
    "while parsing a flow sequence": "a [ list",
    "while parsing a flow mapping": "a { mapping",
}


def syntax_error(exc: Exception, text: str) -> tuple[int | None, str]:
    """The 1-based line of a PyYAML parser error in ``text``, and what is wrong in one line
    (not the parser's multi-line dump naming ``"<unicode string>"``), for any PyYAML loader.

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


def load(text: str, first_line: int = 1) -> Any:
    """Load one YAML document under the core schema.

    :param first_line: the line of the file where ``text`` starts, for error lines.
    :raises YamlError: not valid YAML (several documents, a syntax error, a duplicate key, an
        unknown tag); the message says what and ``line`` where.
    """
    loader: CoreLoader | None = None
    try:
        loader, node = compose_single(text)
        return None if node is None else loader.construct_document(node)
    except BuildError as exc:
        line = exc.node.start_mark.line + first_line
        if exc.first is not None:
            message = (
                f'duplicate key "{exc.key}" (first on line {exc.first + first_line}); '
                "each key may appear only once"
            )
            raise YamlError(message, line, exc.key) from None
        raise YamlError(exc.message, line) from None
    except yaml.YAMLError as exc:
        line, message = syntax_error(exc, text)
        raise YamlError(message, None if line is None else line + first_line - 1) from None
    except RecursionError:
        raise YamlError("nested too deeply", None) from None
    finally:
        if loader is not None:
            loader.dispose()


def compose(text: str) -> Node | None:
    """The node tree of ``text`` (for line numbers), or ``None`` when it does not compose."""
    try:
        loader, node = compose_single(text)
    except (yaml.YAMLError, RecursionError):
        return None
    loader.dispose()
    return node


def too_big(data: Any, limit: int = MAX_VALUES) -> str | None:
    """Why ``data`` is unsafe to keep (an alias bomb), or ``None``.

    YAML aliases let a few lines stand for a structure that is huge once expanded; exports
    serialize a tool's schema, so such a document is refused. (Self-containing aliases are
    refused while loading.)
    """
    sizes: dict[int, int] = {}

    def size(value: Any) -> int:
        if not isinstance(value, dict | list):
            return 1
        key = id(value)
        known = sizes.get(key)
        if known is not None:
            return known
        total = 1
        for child in value.values() if isinstance(value, dict) else value:
            total += size(child)
            if total > limit:
                raise ValueError(f"it expands to more than {limit} values through aliases")
        sizes[key] = total
        return total

    try:
        size(data)
    except ValueError as exc:
        return str(exc)
    except RecursionError:
        return "it is nested too deeply"
    return None


def line_of(root: Node | None, path: Sequence[str | int], offset: int = 0) -> int | None:
    """The 1-based line of the value at ``path`` (keys and list indexes) in the node tree
    :func:`compose` returned, or of the deepest part of it that exists; ``offset`` is added
    (the document's first line in its file - 1). ``None`` when there is no tree."""
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


def _line(node: Node) -> int:
    return int(node.start_mark.line) + 1
