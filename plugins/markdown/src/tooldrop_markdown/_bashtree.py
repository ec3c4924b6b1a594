"""Reading a `tree-sitter-bash <https://github.com/tree-sitter/tree-sitter-bash>`_ syntax tree:
the parser, a node's text, a word's literal value, and where a parse went wrong."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

__all__ = ["field_of", "first_error", "literal", "node_text", "parser", "snippet", "walk"]

_local = threading.local()


def parser() -> Parser:
    """This thread's bash parser."""
    # Imported on first use: most bodies are plain enough for the lexer's shortcut. One
    # parser per thread, as a tree-sitter parser is not meant to be shared.
    found: Parser | None = getattr(_local, "parser", None)
    if found is None:
        import tree_sitter
        import tree_sitter_bash

        found = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
        _local.parser = found
    return found


def node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def literal(node: Node | None) -> str | None:
    """A word's text as the shell reads it, when it holds no expansion (else ``None``)."""
    if node is None:
        return None
    if node.type == "command_name" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type == "word":
        return node_text(node).replace("\\", "")
    if node.type == "raw_string":
        return node_text(node)[1:-1]
    if node.type == "string" and all(c.type == "string_content" for c in node.named_children):
        return node_text(node)[1:-1]
    if node.type == "concatenation":
        parts = [literal(child) for child in node.children]
        return None if None in parts else "".join(parts)  # type: ignore[arg-type]
    return None


def field_of(parent: Node, child: Node) -> str | None:
    """The field name (``argument``, ``value``…) under which ``parent`` holds ``child``."""
    for index, sibling in enumerate(parent.children):
        if sibling.start_byte == child.start_byte and sibling.end_byte == child.end_byte:
            name = parent.field_name_for_child(index)
            if sibling.type == child.type:
                return name
    return None


def walk(node: Node) -> Iterator[Node]:
    """``node`` and every node under it."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.children)


def first_error(root: Node) -> Node | None:
    """The first node the parser could not read (an ``ERROR`` or a missing token)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            return node
        if node.has_error:
            stack.extend(reversed(node.children))
    return None


def snippet(node: Node | None) -> str:
    """A short quotation of ``node`` for a message (a missing token is named by its caller,
    :func:`._positions._near`, which quotes the part it leaves open instead)."""
    if node is None:
        return "unknown"
    text = " ".join(node_text(node).split())
    return repr(text[:30] + ("…" if len(text) > 30 else ""))
