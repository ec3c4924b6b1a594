"""The machinery of :mod:`tooldrop.yaml12`: libyaml's parser with YAML 1.2 core-schema tags,
a Python composer for documents that define an anchor again, and the builder that turns a node
tree into values with the reference's key rules."""

from __future__ import annotations

import math
import re
from collections.abc import Hashable
from typing import Any

import yaml
from yaml.nodes import Node, ScalarNode, SequenceNode

__all__ = ["BuildError", "CoreLoader", "compose_single"]

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
# The plain scalars that are booleans or null, exactly.
_WORDS = {
    **dict.fromkeys(("true", "True", "TRUE", "false", "False", "FALSE"), BOOL),
    **dict.fromkeys(("~", "null", "Null", "NULL"), NULL),
}
# First characters a plain scalar that is a number can start with.
_NUMBER_START = frozenset("-+.0123456789")


def _number_tag(value: str) -> str:
    """The core-schema tag of a plain scalar that starts as a number may: an integer, a
    float, or else a string."""
    if _INT.fullmatch(value):
        return INT
    if _FLOAT.fullmatch(value):
        return FLOAT
    return STR


class BuildError(Exception):
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
        raise BuildError(f"unknown tag {tag} (YAML 1.2 core schema)", node)
    raise BuildError(f'"{text}" is not a valid {tag.removeprefix(_TAG)}', node)


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
                return _number_tag(value)
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


def compose_single(text: str) -> tuple[CoreLoader, Node | None]:
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
            raise BuildError("an alias refers to a value that contains it", node)
        self.active.add(key)
        value: Any
        if node.__class__ is SequenceNode:
            if node.tag != SEQ:
                raise BuildError(f"unknown tag {node.tag} (YAML 1.2 core schema)", node)
            value = [
                (child.value if child.tag == STR else _scalar(child))
                if child.__class__ is ScalarNode
                else self.build(child)
                for child in node.value
            ]
        else:
            if node.tag != MAP:
                raise BuildError(f"unknown tag {node.tag} (YAML 1.2 core schema)", node)
            value = {}
            for key_node, value_node in node.value:
                if key_node.__class__ is ScalarNode:
                    name = key_node.value if key_node.tag == STR else _scalar(key_node)
                else:
                    name = self.build(key_node)
                    if name.__class__ is dict or name.__class__ is list:
                        raise BuildError("a mapping key must be a plain value", key_node)
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


def _duplicate(mapping: Node, key_node: Node, name: Hashable) -> BuildError:
    """The error for a key seen twice, with the line of its first appearance."""
    first = key_node.start_mark.line
    for earlier, _ in mapping.value:
        if earlier.__class__ is ScalarNode and _same(_scalar_or_none(earlier), name):
            first = earlier.start_mark.line
            break
    return BuildError("duplicate key", key_node, key=str(name), first=first)


def _scalar_or_none(node: Node) -> Any:
    try:
        return node.value if node.tag == STR else _scalar(node)
    except BuildError:
        return None
