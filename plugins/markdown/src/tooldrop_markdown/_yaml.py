"""YAML 1.2 (core schema) on PyYAML's C loader, as the reference's ``yaml`` package reads it.

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
line numbers; it is only used to say where a problem is.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable
from typing import Any

import yaml
from yaml.nodes import Node, ScalarNode, SequenceNode

__all__ = ["YamlError", "compose", "load", "too_big"]

try:
    _Base: type[Any] = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Base = yaml.SafeLoader

_TAG = "tag:yaml.org,2002:"
STR, NULL, BOOL, INT, FLOAT = (_TAG + t for t in ("str", "null", "bool", "int", "float"))
SEQ, MAP = _TAG + "seq", _TAG + "map"
#: Frontmatter that expands (through aliases) to more values than this is refused.
MAX_VALUES = 100_000

_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT = re.compile(
    r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
# The plain scalars that are booleans or null, exactly.
_WORDS = {
    **dict.fromkeys(("true", "True", "TRUE", "false", "False", "FALSE"), BOOL),
    **dict.fromkeys(("~", "null", "Null", "NULL"), NULL),
}
# First characters a plain scalar that is a number can start with.
_NUMBER_START = frozenset("-+.0123456789")


def resolve_plain(value: str) -> str:
    """The core-schema tag of a plain (unquoted, untagged) scalar."""
    if not value:
        return NULL
    word = _WORDS.get(value)
    if word is not None:
        return word
    if value[0] in _NUMBER_START:
        if _INT.fullmatch(value):
            return INT
        if _FLOAT.fullmatch(value):
            return FLOAT
    return STR


class YamlError(Exception):
    """The frontmatter is not YAML we accept: what, on which line of the file, and the key
    it is about (for a duplicate key)."""

    def __init__(self, message: str, line: int | None, key: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.key = key


class _BuildError(Exception):
    def __init__(self, message: str, node: Node, key: str = "", first: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.node = node
        self.key = key
        self.first = first


def _scalar(node: Node) -> Any:
    tag, text = node.tag, node.value
    if tag == STR:
        return text
    if tag == NULL:
        if text in ("", "~", "null", "Null", "NULL"):
            return None
    elif tag == BOOL:
        if text in ("true", "True", "TRUE"):
            return True
        if text in ("false", "False", "FALSE"):
            return False
    elif tag == INT:
        try:
            if text.startswith("0o"):
                return int(text[2:], 8)
            if text.startswith("0x"):
                return int(text[2:], 16)
            return int(text, 10)
        except ValueError:
            pass
    elif tag == FLOAT:
        lowered = text.lower()
        if lowered in (".inf", "+.inf", "-.inf"):
            return -math.inf if text.startswith("-") else math.inf
        if lowered == ".nan":
            return math.nan
        try:
            return float(text)
        except ValueError:
            pass
    else:
        raise _BuildError(f"unknown tag {tag} (YAML 1.2 core schema)", node)
    raise _BuildError(f'"{text}" is not a valid {tag.removeprefix(_TAG)}', node)


class CoreLoader(_Base):  # type: ignore[misc]  # the base is chosen at import time
    """libyaml's parser with YAML 1.2 core-schema tags and duplicate-key detection."""

    # The C composer calls this for every node; it is on the hot path of every discovery.
    def resolve(self, kind: type[Node], value: str | None, implicit: Any) -> str:
        if kind is ScalarNode:
            if not implicit[0]:
                return STR  # quoted, or tagged ``!``
            if not value:
                return NULL
            word = _WORDS.get(value)
            if word is not None:
                return word
            if value[0] in _NUMBER_START:
                return resolve_plain(value)
            return STR
        return SEQ if kind is SequenceNode else MAP

    # The composer calls these two around every node, for PyYAML's path resolvers; our
    # ``resolve`` reads no paths, so they need not keep any.
    def descend_resolver(self, current_node: Node | None, current_index: Any) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass

    def construct_document(self, node: Node) -> Any:
        return _Builder().build(node)


class _ReanchoringLoader(yaml.composer.Composer, CoreLoader):
    """:class:`CoreLoader` with PyYAML's Python composer, where an anchor may be defined again.

    YAML 1.2 lets a later ``&d`` replace an earlier one (aliases after it refer to the new
    node), and the reference accepts that; libyaml's C composer refuses it. Only a document
    the C composer refuses for that reason is composed again here, so the fast path stays C.
    """

    def __init__(self, text: str) -> None:
        CoreLoader.__init__(self, text)  # type: ignore[call-arg]  # the base is chosen at import
        yaml.composer.Composer.__init__(self)

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        if not self.check_event(yaml.AliasEvent):
            anchor = self.peek_event().anchor
            if anchor is not None:
                self.anchors.pop(anchor, None)
        return yaml.composer.Composer.compose_node(self, parent, index)


def _redefines_anchor(exc: yaml.YAMLError) -> bool:
    return isinstance(exc, yaml.composer.ComposerError) and "duplicate anchor" in str(
        exc.context or ""
    )


def _compose_single(text: str) -> tuple[CoreLoader, Node | None]:
    """A loader and the node of the one document in ``text`` (composed again in Python when
    the document redefines an anchor)."""
    loader = CoreLoader(text)
    try:
        return loader, loader.get_single_node()
    except yaml.YAMLError as exc:
        if not _redefines_anchor(exc):
            loader.dispose()
            raise
    loader.dispose()
    loader = _ReanchoringLoader(text)
    try:
        return loader, loader.get_single_node()
    except BaseException:
        loader.dispose()
        raise


class _Builder:
    """Python values from a node tree.

    Containers are remembered by node: an alias gives the same object, as in PyYAML, and a
    container met again while it is being built is an alias loop. Scalars are immutable, so
    an alias to one may simply be built again. Scalars (most nodes) are built inline rather
    than by a call each. (A method, not a closure: a recursive closure refers to itself, and
    each frontmatter would leave a reference cycle for the cyclic GC to find.)
    """

    __slots__ = ("active", "built")

    def __init__(self) -> None:
        self.built: dict[int, Any] = {}
        self.active: set[int] = set()

    def build(self, node: Node) -> Any:
        if node.__class__ is ScalarNode:
            return node.value if node.tag == STR else _scalar(node)
        key = id(node)
        built = self.built
        if key in built:
            return built[key]
        if key in self.active:
            raise _BuildError("an alias refers to a value that contains it", node)
        self.active.add(key)
        value: Any
        if node.__class__ is SequenceNode:
            if node.tag != SEQ:
                raise _BuildError(f"unknown tag {node.tag} (YAML 1.2 core schema)", node)
            value = [
                (child.value if child.tag == STR else _scalar(child))
                if child.__class__ is ScalarNode
                else self.build(child)
                for child in node.value
            ]
        else:
            if node.tag != MAP:
                raise _BuildError(f"unknown tag {node.tag} (YAML 1.2 core schema)", node)
            value = {}
            for key_node, value_node in node.value:
                if key_node.__class__ is ScalarNode:
                    name = key_node.value if key_node.tag == STR else _scalar(key_node)
                else:
                    name = self.build(key_node)
                    if name.__class__ is dict or name.__class__ is list:
                        raise _BuildError("a mapping key must be a plain value", key_node)
                if name in value:
                    name = _same_key(value, name)
                    if name in value:
                        raise _duplicate(node, key_node, name)
                if value_node.__class__ is ScalarNode:
                    value[name] = value_node.value if value_node.tag == STR else _scalar(value_node)
                else:
                    value[name] = self.build(value_node)
        self.active.discard(key)
        built[key] = value
        return value


def _same_key(mapping: dict[Any, Any], name: Any) -> Any:
    """``name`` when it is the same key (``===``) as one already in ``mapping``; else the text
    the reference would use for it, so that both keys are kept.

    Python's ``1 == True == 1.0`` makes a boolean and a number the same dict key; to the
    reference (JavaScript) they differ, while ``1`` and ``1.0`` are both the number 1.
    """
    is_bool = name.__class__ is bool
    for existing in mapping:
        if existing == name and (existing.__class__ is bool) == is_bool:
            return name
    if is_bool:
        return "true" if name else "false"
    return str(int(name)) if isinstance(name, float) and name.is_integer() else str(name)


def _same(a: Any, b: Any) -> bool:
    return bool(a == b) and (a.__class__ is bool) == (b.__class__ is bool)


def _duplicate(mapping: Node, key_node: Node, name: Hashable) -> _BuildError:
    """The error for a key seen twice, with the line of its first appearance."""
    first = key_node.start_mark.line
    for earlier, _ in mapping.value:
        if earlier.__class__ is ScalarNode and _same(_scalar_or_none(earlier), name):
            first = earlier.start_mark.line
            break
    return _BuildError("duplicate key", key_node, key=str(name), first=first)


def _scalar_or_none(node: Node) -> Any:
    try:
        return node.value if node.tag == STR else _scalar(node)
    except _BuildError:
        return None


#: What the parser was reading when the text ended, as the person wrote it.
_UNCLOSED = {
    "while scanning a quoted scalar": "a quoted string",
    "while parsing a flow sequence": "a [ list",
    "while parsing a flow mapping": "a { mapping",
}


def _syntax_error(exc: yaml.YAMLError, text: str) -> tuple[int | None, str]:
    """The 1-based line of a parser error and what is wrong, in one line (the core's
    ``tooldrop.skills._yaml12.syntax_error``: a plugin keeps its own copy).

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
        loader, node = _compose_single(text)
        return None if node is None else loader.construct_document(node)
    except _BuildError as exc:
        line = exc.node.start_mark.line + first_line
        if exc.first is not None:
            message = (
                f'duplicate key "{exc.key}" (first on line {exc.first + first_line}); '
                "each key may appear only once"
            )
            raise YamlError(message, line, exc.key) from None
        raise YamlError(exc.message, line) from None
    except yaml.YAMLError as exc:
        line, message = _syntax_error(exc, text)
        raise YamlError(message, None if line is None else line + first_line - 1) from None
    except RecursionError:
        raise YamlError("the frontmatter is nested too deeply", None) from None
    finally:
        if loader is not None:
            loader.dispose()


def compose(text: str) -> Node | None:
    """The node tree of ``text`` (for line numbers), or ``None`` when it does not compose."""
    try:
        loader, node = _compose_single(text)
    except (yaml.YAMLError, RecursionError):
        return None
    loader.dispose()
    return node


def too_big(data: Any, limit: int = MAX_VALUES) -> str | None:
    """Why ``data`` is unsafe to keep (an alias bomb), or ``None``.

    YAML aliases let a few lines stand for a structure that is huge once expanded; exports
    serialize the schema, so such frontmatter is refused. (Self-containing aliases are
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
