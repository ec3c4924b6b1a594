"""The shapes a script can take: every section in, then each section left out in turn.

A section tag renders as nothing, so leaving a section out can join words or commands that
stood apart; the checks read every shape. :func:`drops_arguments` spots the sections whose
absence changes nothing a check reads, so their shape need not be parsed again.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ._bashtree import literal
from ._bashwords import BUILTIN_PREFIXES, NAME_TAKING
from ._template import Token

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["drops_arguments", "render", "section_spans", "shapes"]


def section_spans(tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """Each section's (open, close) token indices, innermost first. Every one: a section
    left unread is a shape left unchecked (:mod:`._positions` bounds the parsing)."""
    stack: list[int] = []
    spans: list[tuple[int, int]] = []
    for index, token in enumerate(tokens):
        if token.kind in ("open", "invert"):
            stack.append(index)
        elif token.kind == "close" and stack:
            spans.append((stack.pop(), index))
    return spans


def shapes(tokens: Sequence[Token]) -> Iterator[list[Token]]:
    """The tokens with every section in, then with each section left out in turn (the
    run-again warnings read these; the caller bounds how many it reads)."""
    yield list(tokens)
    for start, end in section_spans(tokens):
        yield [*tokens[:start], *tokens[end + 1 :]]


def render(tokens: Sequence[Token]) -> tuple[bytes, dict[int, Token], dict[int, int]]:
    """The script with each placeholder as the quoted word ``'v'``, where each placeholder
    stands, and where each section tag would be (token index → byte offset)."""
    parts: list[bytes] = []
    where: dict[int, Token] = {}
    tags: dict[int, int] = {}
    position = 0
    for index, token in enumerate(tokens):
        if token.kind == "text":
            data = token.value.encode()  # a strict UTF-8 decode: no lone surrogate
            parts.append(data)
            position += len(data)
        elif token.kind == "var":
            where[position] = token
            parts.append(b"'v'")
            position += 3
        else:
            tags[index] = position
    return b"".join(parts), where, tags


# A section made of whole plain words (placeholders included) and the blanks between them.
_PLAIN_WORDS = re.compile(rb"[ \t]*(?:(?:[A-Za-z0-9_./:=,@%+-]|'v')+[ \t]*)*")


def drops_arguments(root: Node, script: bytes, start: int, end: int) -> bool:
    """Whether leaving out the section at ``start:end`` of ``script`` only drops whole
    arguments of one command that is neither a name-taking builtin nor one that runs a
    builtin: then no other placeholder stands anywhere else without it."""
    inner = script[start:end]
    if not inner.strip() or not _PLAIN_WORDS.fullmatch(inner):
        return False
    if not (inner[:1] in (b" ", b"\t") or (start > 0 and script[start - 1] in b" \t")):
        return False  # glued to the word before it
    if not (inner[-1:] in (b" ", b"\t") or end == len(script) or script[end] in b" \t\n;|&"):
        return False  # glued to the word after it
    first = start + len(inner) - len(inner.lstrip())
    last = end - (len(inner) - len(inner.rstrip()))
    node = root.descendant_for_byte_range(first, last)
    while node is not None and node.type != "command":
        if node.type not in ("word", "raw_string", "concatenation", "number"):
            return False
        node = node.parent
    if node is None:
        return False
    name = node.child_by_field_name("name")
    if name is None or name.end_byte > first:
        return False
    command = literal(name)
    return command is not None and command not in NAME_TAKING and command not in BUILTIN_PREFIXES
