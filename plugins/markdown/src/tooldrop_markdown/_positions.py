"""Where a placeholder may stand: an allow-list, judged on a real parse of the script.

The lexer of :mod:`._shell` knows the quotes, substitutions, comments and heredocs a value
must stay out of. This module asks the positive question, on the syntax tree that
`tree-sitter-bash <https://github.com/tree-sitter/tree-sitter-bash>`_ builds: does the
placeholder stand where both shells pass a value on to a program as data? Each placeholder
is replaced by a quoted word (what it renders as), the script is parsed, and the word must be

- an argument of a simple command, whole or part of a word, whose command name is a literal
  word and does not read its arguments as variable names or arithmetic (``read``, ``let``,
  ``printf -v``, ``test -v``, ``unset``, ``compgen``...);
- the value of an assignment (``V={{ x }}``, ``V={{ x }} cmd``, ``local V={{ x }}``), unless
  the variable is one whose assignment bash evaluates (``RANDOM``, a ``declare -i`` name...)
  or one a tool may not set (:func:`tooldrop.is_forbidden_env`);
- a redirection target other than ``>&`` and ``<&`` (bash expands the word after those again);
- a ``case`` subject or pattern, a ``for … in`` word, an element of a bash array ``( … )``;
- an operand of ``[[ … ]]`` other than ``-v``/``-R`` and the arithmetic comparisons.

Everything else is refused, and so is every placeholder of a script that does not parse
(bash skips the rest of a broken line and goes on with the next, which may come from a value
with a newline). Array placeholders are accepted only as whole words, where each element
becomes one word. Integer and number parameters, whose values cannot hold code, may also
stand where a number is read (arithmetic, ``>&``, name-taking builtins).

Dialects: the tree is bash's. A body that may run under ``sh`` (``shell: sh``, or no
``shell``: bash when present, else sh) is also refused bash-only constructs around its
placeholders (``[[ ]]``, arrays, ``<<<``, ``<( )``), and any placeholder after a ``$'…'``,
which dash reads as ``$`` and an ordinary quote, so its quotes pair differently.

A script is parsed once with every section in, and once more with each section left out,
so a placeholder is judged in every shape the script can take (:mod:`._shapes`). The rules
for one placeholder are in :mod:`._placement`; the builtins and variables they name, in
:mod:`._bashwords`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ._bashtree import first_error, parser, snippet
from ._fields import Param
from ._placement import judge
from ._scriptfacts import ScriptFacts
from ._shapes import drops_arguments, render, section_spans
from ._shell import BodyProblem
from ._template import Token

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["check_positions"]

#: Shapes parsed besides the whole script. A tool has a handful of sections; a body with more
#: that change the script when left out is refused, never half checked.
MAX_SHAPES = 16


def check_positions(
    tokens: Sequence[Token],
    params: Mapping[str, Param] | None,
    dialect: str,
    skip: set[int],
) -> list[BodyProblem]:
    """Every placeholder that stands outside the allow-list; placeholders at offsets in
    ``skip`` are already reported.

    :param dialect: ``"bash"`` (``shell: bash``), ``"sh"`` (``shell: sh``: dash, or bash as
        sh) or ``"either"`` (no ``shell``: bash when present, else sh).
    """
    if not any(t.kind == "var" and t.start not in skip for t in tokens):
        return []
    found: dict[int, BodyProblem] = {}
    bash = parser()
    everything: tuple[Node, bytes, dict[int, int]] | None = None
    parsed = 0
    for shape in [None, *section_spans(tokens)]:
        if shape is None:
            chosen = list(tokens)
        else:
            start, end = shape
            if everything is not None:
                all_in, all_script, tags = everything
                if drops_arguments(all_in, all_script, tags[start], tags[end]):
                    continue  # the same tree less some plain arguments: nothing new
            parsed += 1
            if parsed > MAX_SHAPES:
                _too_many(tokens, skip, found)
                break
            chosen = [*tokens[:start], *tokens[end + 1 :]]
        script, where, section_tags = render(chosen)
        root = bash.parse(script).root_node
        if shape is None and not root.has_error:
            everything = (root, script, section_tags)
        if not where:
            continue
        if root.has_error:
            _broken(root, script, where, skip, found)
            continue
        facts = ScriptFacts(root, script, where)
        for offset, token in where.items():
            if token.start in skip or token.start in found:
                continue
            param = None if params is None else params.get(token.value)
            message = judge(root, offset, token, param, dialect, facts)
            if message is not None:
                found[token.start] = (token.start, message, "error")
    return list(found.values())


def _broken(
    root: Node,
    script: bytes,
    where: dict[int, Token],
    skip: set[int],
    found: dict[int, BodyProblem],
) -> None:
    near = _near(first_error(root), script)
    for token in where.values():
        if token.start in skip or token.start in found:
            continue
        found[token.start] = (token.start, (
            f"placeholder {{{{ {token.value} }}}} stands in a script that the checks cannot "
            f"parse ({near}); bash skips the rest "
            "of a broken line and runs the next, which may come from a value with a newline. "
            "Fix the syntax, or write that line in a simpler form (two heredocs on one line "
            "are not read)"
        ), "error")  # fmt: skip


def _too_many(tokens: Sequence[Token], skip: set[int], found: dict[int, BodyProblem]) -> None:
    for token in tokens:
        if token.kind != "var" or token.start in skip or token.start in found:
            continue
        found[token.start] = (token.start, (
            f"placeholder {{{{ {token.value} }}}} stands in a body with more than {MAX_SHAPES} "
            "sections that change the script when left out, more shapes than the checks read; "
            "use fewer sections, or sections that only add whole arguments to a command"
        ), "error")  # fmt: skip


def _near(error: Node | None, script: bytes) -> str:
    """Where the parse goes wrong, as a person looks for it. A closer the parser found
    missing (``)``, a backtick, ``fi``) is missing at the end of the script: name the line
    and column where the unclosed part opens instead."""
    if error is not None and error.is_missing and error.parent is not None:
        opened = error.parent
        row, column = _line_column(script, opened.start_byte)
        return (
            f"line {row} of the body, column {column}: {snippet(opened)} is never closed, "
            f"a missing {error.type!r}"
        )
    offset = error.start_byte if error else 0
    while script[offset : offset + 1] in (b" ", b"\t"):  # an ERROR node starts at the blank
        offset += 1
    row, column = _line_column(script, offset)
    return f"near line {row} of the body, column {column}: {snippet(error)}"


def _line_column(script: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of a byte offset of the script."""
    start = script.rfind(b"\n", 0, offset) + 1
    column = len(script[start:offset].decode("utf-8", "replace")) + 1
    return script.count(b"\n", 0, offset) + 1, column
