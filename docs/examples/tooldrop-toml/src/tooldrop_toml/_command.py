"""``command = [...]``: an argv list whose elements may hold ``{name}`` placeholders.

Each element is parsed once at load time into literal text and placeholders, and rendered per
call into zero or more argv words, which :func:`shlex.join` then quotes one by one. So a value
is always *inside* one quoted word: no value ever needs the template checks a free-form shell
body needs (there are no double quotes, ``$( … )`` or heredocs for it to stand in).

- ``{name}`` is the argument's text; ``{{`` and ``}}`` are literal braces.
- An element that names a parameter with no value (optional, omitted, no default) is left out
  whole, so ``"--author={author}"`` disappears when no author is given.
- An ``array`` parameter must be a whole element (``"{paths}"``): it becomes one word per item.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from tooldrop import RenderError

__all__ = ["Command", "Placeholder", "parse_element", "render_argv", "render_script", "to_text"]

_TOKEN = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}|[{}]")

#: Words a shell reads as syntax, not as a program, when they stand first on a line.
RESERVED = frozenset((
    "!", "{", "}", "[[", "]]", "case", "do", "done", "elif", "else", "esac", "fi", "for",
    "function", "if", "in", "select", "then", "time", "until", "while",
))  # fmt: skip


class Placeholder(NamedTuple):
    """``{name}`` inside an element."""

    name: str


Part = str | Placeholder


class Command(NamedTuple):
    """A parsed ``command``: the runner payload of a TOML tool."""

    elements: tuple[tuple[Part, ...], ...]


def parse_element(text: str) -> tuple[tuple[Part, ...], str | None]:
    """Split one element into literal text and placeholders; the problem, if any."""
    parts: list[Part] = []
    literal: list[str] = []
    position = 0
    for match in _TOKEN.finditer(text):
        literal.append(text[position : match.start()])
        position = match.end()
        token = match.group()
        if token in ("{{", "}}"):
            literal.append(token[0])
        elif match.group(1) is not None:
            if any(literal):
                parts.append("".join(literal))
            literal = []
            parts.append(Placeholder(match.group(1)))
        else:
            return (), (
                f"a lone {token!r} in {text!r}: write {{{{ or }}}} for a literal brace, "
                "or {name} for a parameter"
            )
    literal.append(text[position:])
    if any(literal):
        parts.append("".join(literal))
    return tuple(parts), None


def to_text(value: Any) -> str:
    """The text of one value: strings as they are, ``true``/``false``, numbers as JSON writes
    them (``2.0`` as ``2``), anything else as compact JSON.

    :raises RenderError: the text holds a NUL byte, which no program argument can carry.
    """
    if isinstance(value, str):
        text = value
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, float) and value.is_integer():
        text = str(int(value))
    elif isinstance(value, int | float):
        text = repr(value)
    else:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if "\0" in text:
        raise RenderError("⚒ A value contains a NUL byte, which a program argument cannot carry")
    return text


def _words(parts: Sequence[Part], args: Mapping[str, Any]) -> list[str]:
    values = {p.name: args.get(p.name) for p in parts if isinstance(p, Placeholder)}
    if any(value is None for value in values.values()):
        return []  # an optional argument was left out: so is the element that uses it
    if len(parts) == 1 and isinstance(parts[0], Placeholder):
        value = values[parts[0].name]
        if isinstance(value, list | tuple):
            return [to_text(item) for item in value]
    return ["".join(p if isinstance(p, str) else to_text(values[p.name]) for p in parts)]


def render_argv(command: Command, args: Mapping[str, Any]) -> list[str]:
    """The argv of a call: each element rendered for ``args`` (validated, defaults applied)."""
    argv: list[str] = []
    for parts in command.elements:
        argv.extend(_words(parts, args))
    return argv


def render_script(command: Command, args: Mapping[str, Any]) -> str:
    """The one-line POSIX shell script that runs the call's argv, every word quoted."""
    return shlex.join(render_argv(command, args))
