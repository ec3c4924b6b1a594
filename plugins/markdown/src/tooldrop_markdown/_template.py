"""The template language of a tool's body, parsed once at load time and rendered per call.

- ``{{ name }}`` is the argument's value, quoted for the shell; missing or null is nothing.
- ``{{# name }}…{{/ name }}`` keeps its text only when the argument is truthy;
  ``{{^ name }}…{{/ name }}`` only when it is falsy. Sections nest.
- Whitespace (newlines too) may stand around the name and after the sigil; a name is
  ``[A-Za-z_][A-Za-z0-9_]*``. Anything else in braces (``{{ .Names }}``, ``{{! x }}``) is text.

The reference expands sections with regular expressions, then substitutes placeholders in one
pass, never re-reading an inserted value. For a template whose sections are balanced and
whose tags cannot be glued together by removing a section (both are load-time checks here)
that is exactly what rendering this parsed tree does, and the tree is what the load-time
shell checks read, so they see what will run.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, TypeAlias

from ._quote import is_truthy, render_value

__all__ = ["Node", "Section", "Template", "Token", "Var", "check", "parse", "render", "tokenize"]

_WS = "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*"
_NAME = "[A-Za-z_][A-Za-z0-9_]*"
_TAG = rf"\{{\{{(?:([#^/]){_WS}({_NAME})|{_WS}({_NAME})){_WS}\}}\}}"


# Nodes and tokens are named tuples: thousands are made per discovery, and a tuple is the
# cheapest immutable, picklable object Python builds.


class Var(NamedTuple):
    """``{{ name }}``."""

    name: str


class Section(NamedTuple):
    """``{{# name }}…{{/ name }}``, or ``{{^ name }}…`` when ``inverted``."""

    name: str
    inverted: bool
    body: tuple[Node, ...]


Node: TypeAlias = str | Var | Section


class Template:
    """A parsed body.

    It pickles as its source alone and parses again on first use: the parse cache then loads
    10,000 templates without rebuilding 10,000 trees nobody may render. Parsing is a pure
    function of the source, so two templates are equal when their sources are.
    """

    __slots__ = ("_nodes", "source")

    def __init__(self, source: str, nodes: tuple[Node, ...] | None = None) -> None:
        self.source = source
        self._nodes = nodes

    @property
    def nodes(self) -> tuple[Node, ...]:
        if self._nodes is None:
            self._nodes = parse(self.source, tokenize(self.source))[0].nodes
        return self._nodes

    def __reduce__(self) -> tuple[type[Template], tuple[str]]:
        return (Template, (self.source,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Template) and other.source == self.source

    def __hash__(self) -> int:
        return hash(self.source)

    def __repr__(self) -> str:
        return f"Template(source={self.source!r})"


class Token(NamedTuple):
    """One piece of a body: ``text``, or a tag (``var``, ``open``, ``invert``, ``close``)."""

    kind: str
    #: The text itself, or the tag's name.
    value: str
    start: int
    end: int


_SIGILS = {"#": "open", "^": "invert", "/": "close"}


@functools.cache
def _pieces() -> re.Pattern[str]:
    """The whole tag, then its parts: re.split hands back text, tag, sigil, names, text, ...

    Compiled when a file is first parsed, not on import: a warm start unpickles templates
    (so imports this module) but parses none, and compiling this pattern costs more than
    importing the rest of the module.
    """
    return re.compile(f"({_TAG})")


def tokenize(source: str) -> list[Token]:
    """Cut ``source`` into text and tags, in order."""
    pieces = _pieces().split(source)
    tokens: list[Token] = []
    position = 0
    text = pieces[0]
    if text:
        tokens.append(Token("text", text, 0, len(text)))
        position = len(text)
    # After the first text: (whole tag, sigil, section name, placeholder name, text) * n.
    for index in range(1, len(pieces), 5):
        whole, sigil, section_name, var_name, text = pieces[index : index + 5]
        end = position + len(whole)
        if sigil is None:
            tokens.append(Token("var", var_name, position, end))
        else:
            tokens.append(Token(_SIGILS[sigil], section_name, position, end))
        position = end
        if text:
            end = position + len(text)
            tokens.append(Token("text", text, position, end))
            position = end
    return tokens


def tag_text(token: Token) -> str:
    """How a tag is written, for messages: ``{{ x }}``, ``{{# x }}``, ``{{/ x }}``."""
    sigil = {"var": "", "open": "# ", "invert": "^ ", "close": "/ "}[token.kind]
    return "{{" + (sigil or " ") + token.value + " }}"


def _nested(token: Token) -> str:
    return (
        f"section {tag_text(token)} stands inside another section named "
        f'"{token.value}"; Nanocoder would close it at the first '
        f"{{{{/ {token.value} }}}}. Merge the two sections or rename one"
    )


def _stray(token: Token) -> str:
    return (
        f"{tag_text(token)} closes no section; remove it or add {{{{# {token.value} }}}} before it"
    )


def _crossed(token: Token, open_token: Token) -> str:
    return (
        f"{tag_text(token)} does not close {tag_text(open_token)} (opened before "
        f"it); close sections in the reverse order of opening them"
    )


def _unclosed(token: Token) -> str:
    return (
        f"section {tag_text(token)} is never closed; add {{{{/ {token.value} }}}} "
        "where it should end"
    )


def parse(source: str, tokens: list[Token]) -> tuple[Template, list[tuple[int, str]]]:
    """Build the tree; also return structure problems as ``(offset, message)``.

    Unbalanced sections are problems (the reference leaves them as literal text, which is
    never what the author meant), and so is a section nested in one of the same name (the
    reference closes it at the first ``{{/ name }}``, not the matching one).
    """
    problems: list[tuple[int, str]] = []
    # Each open section: its token and the children collected so far.
    stack: list[tuple[Token, list[Node]]] = []
    current: list[Node] = []
    for token in tokens:
        kind = token.kind
        if kind == "text":
            current.append(token.value)
        elif kind == "var":
            current.append(Var(token.value))
        elif kind in ("open", "invert"):
            if any(open_token.value == token.value for open_token, _ in stack):
                problems.append((token.start, _nested(token)))
            stack.append((token, current))
            current = []
        elif not stack:
            problems.append((token.start, _stray(token)))
        else:
            open_token, parent = stack[-1]
            if open_token.value != token.value:
                problems.append((token.start, _crossed(token, open_token)))
                continue
            stack.pop()
            parent.append(Section(token.value, open_token.kind == "invert", tuple(current)))
            current = parent
    for open_token, _ in stack:
        problems.append((open_token.start, _unclosed(open_token)))
    if stack:
        current = stack[0][1]
    return Template(source=source, nodes=tuple(current)), problems


def check(source: str, tokens: list[Token]) -> tuple[Template, list[tuple[int, str]]]:
    """What :func:`parse` returns, with the tree left to be built on first render.

    Loading needs only the structure problems; most loaded tools are never called, so
    building their trees would be wasted (the tests hold both functions to the same
    problems).
    """
    problems: list[tuple[int, str]] = []
    stack: list[Token] = []
    for token in tokens:
        kind = token.kind
        if kind == "text" or kind == "var":
            continue
        if kind != "close":
            if any(open_token.value == token.value for open_token in stack):
                problems.append((token.start, _nested(token)))
            stack.append(token)
        elif not stack:
            problems.append((token.start, _stray(token)))
        elif stack[-1].value != token.value:
            problems.append((token.start, _crossed(token, stack[-1])))
        else:
            stack.pop()
    problems.extend((open_token.start, _unclosed(open_token)) for open_token in stack)
    return Template(source), problems


def _render_into(
    nodes: tuple[Node, ...], args: Mapping[str, Any], quote: Callable[[str], str], out: list[str]
) -> None:
    for node in nodes:
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, Var):
            out.append(render_value(args.get(node.name), quote))
        elif is_truthy(args.get(node.name)) != node.inverted:
            _render_into(node.body, args, quote, out)


def render(template: Template, args: Mapping[str, Any], quote: Callable[[str], str]) -> str:
    """The script for ``args`` (validated, defaults applied), each value through ``quote``."""
    out: list[str] = []
    _render_into(template.nodes, args, quote, out)
    return "".join(out)
