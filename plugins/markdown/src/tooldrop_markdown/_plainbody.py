"""The shortcut for bodies of plain simple commands: what the full checks would find, in
one pass over the text, without the lexer or a parse.

Most tools are a program and its arguments. In such a body every tag stands in a plain word
of a simple command, so no context can open; following words is all the lexer would do.
Any body this module cannot vouch for goes to the full checks (the tests compare both on
random bodies).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tooldrop import is_forbidden_env

from ._bashwords import NAME_TAKING, SPECIAL_ASSIGN
from ._fields import Param
from ._shell import BodyProblem
from ._tagcheck import ASSIGNMENT, array_assignment, undeclared
from ._template import Token

__all__ = ["plain_body"]

#: Characters after which a tag may stand anywhere but in a plain word of a simple command.
_NEEDS_LEXER = re.compile(r"[\\'\"`$#<>()\[\]{}!&]")
# A word's characters, matched on the reversed text to find the last word of a chunk.
_WORD_TAIL = re.compile(r"[^ \t\n;&|<>()]*")
# Words that make a simple command more than a program and its arguments: reserved words,
# and builtins whose arguments are names or code (eval's may declare a variable that a
# later assignment then evaluates). Bodies using them are read in full.
_NOT_PLAIN = NAME_TAKING | {
    "if", "then", "else", "elif", "fi", "do", "done", "for", "in", "while", "until", "case",
    "esac", "select", "function", "time", "coproc", "command", "builtin", "exec", "eval",
}  # fmt: skip
_COMMANDS = re.compile(r"([;|\n])")


def plain_body(
    tokens: list[Token], params: Mapping[str, Param] | None, declared: set[str] | None
) -> tuple[list[BodyProblem], set[int]] | None:
    """What the full checks find, for bodies made of plain simple commands: no quotes,
    escapes, ``$``, ``#``, redirections, brackets, braces, ``!`` or ``&``, no reserved word
    and no name-taking builtin, every command named by a literal word (most simple tools);
    ``None`` for any other body.

    In such a body every tag stands in a plain word of a simple command: no context can
    open, so sections always close where they opened and following words is all the lexer
    would do.
    """
    problems: list[BodyProblem] = []
    at_top: set[int] = set()
    suggested: dict[str, str | None] = {}
    word = ""  # the unquoted word the next character extends, as the lexer keeps it
    marked: list[str] = []  # the body, tags as one-character marks
    for index, token in enumerate(tokens):
        kind = token.kind
        if kind == "text":
            text = token.value
            marked.append(text)
            if _NEEDS_LEXER.search(text):
                return None
            tail = _WORD_TAIL.match(text[::-1]).end()  # type: ignore[union-attr]  # * matches
            word = word + text if tail == len(text) else text[len(text) - tail :]
        elif kind == "close":
            marked.append("\2")  # closes where it opened: nothing to report
        elif declared is not None and token.value not in declared:
            problems.append(undeclared(token, declared, suggested))
            marked.append(_MARKS[kind])
        elif kind != "var":
            marked.append("\1")
        else:
            marked.append("\0")
            param = None if params is None else params.get(token.value)
            if param is not None and param.type == "array":
                if ASSIGNMENT.fullmatch(word):
                    problems.append(array_assignment(token, word))
                elif word or _glued(tokens, index) or _tag_beside(tokens, index):
                    return None  # an array glued to text: the full checks say why not
            at_top.add(token.start)
            word += "'"
    if at_top and not _plain_commands("".join(marked)):
        return None
    return problems, at_top


def _glued(tokens: list[Token], index: int) -> bool:
    """Whether text or a placeholder may follow the placeholder at ``index`` in one word."""
    for token in tokens[index + 1 :]:
        if token.kind == "text":
            return token.value[:1] not in (" ", "\t", "\n", ";", "|")
        if token.kind == "var":
            return True
    return False


def _tag_beside(tokens: list[Token], index: int) -> bool:
    """Whether a section tag stands right before or after the placeholder at ``index``: left
    out, its section may glue the placeholder to the word beyond (``b{{# s }}c {{/ s }}``)."""
    return any(
        0 <= at < len(tokens) and tokens[at].kind in ("open", "invert", "close")
        for at in (index - 1, index + 1)
    )


_MARKS = {"var": "\0", "open": "\1", "invert": "\1", "close": "\2"}


def _plain_commands(text: str) -> bool:
    """Whether every simple command starts with a literal program name that is neither a
    reserved word nor a name-taking builtin, and assigns values only to ordinary variables,
    whichever sections are left out.

    The last part holds when no section holds a command separator or touches a command's
    name (or the assignments before it): leaving such a section out only drops arguments.
    """
    depth = 0
    pipe = False  # the last separator was | and no command followed yet
    pieces = _COMMANDS.split(text)
    for index in range(0, len(pieces), 2):
        command = pieces[index]
        separator = pieces[index + 1] if index + 1 < len(pieces) else ""
        if depth:
            return False  # a separator inside a section
        depth += command.count("\1") - command.count("\2")
        # An empty command before ; or |, or after | (;V=x, a | ;): a syntax error, after
        # which bash skips the line and runs the next, which a value may supply.
        empty = not command.replace("\1", "").replace("\2", "").strip()
        if empty and (separator in (";", "|") or (pipe and separator != "\n")):
            return False
        pipe = (pipe and empty) or separator == "|"
        for word in command.split():
            if "\1" in word or "\2" in word:
                return False  # a section in the command's name or its assignments
            assigned = ASSIGNMENT.match(word)
            if assigned is None:
                if "\0" in word or word in _NOT_PLAIN or "*" in word or "?" in word:
                    return False  # (a glob chooses the program from the files there)
                break
            variable = assigned.group().rstrip("+=").split("[")[0]
            if "\0" in word and (variable in SPECIAL_ASSIGN or is_forbidden_env(variable)):
                return False
    return True
