"""The last simple command of a body's text, split into the words bash would give it: for
the run-again warnings (:mod:`._runners`), which read the text of each shape, not a parse.
"""

from __future__ import annotations

import re

__all__ = ["command_words"]

_SEPARATORS = re.compile(r"[;&|\n()]")


def command_words(text: str) -> list[str]:
    """The words of the simple command ``text`` ends in, its redirections left out."""
    return _without_redirections(_words(_last_command(text)))


def _quote_end(text: str, index: int) -> int:
    """The index just past the quoted string that opens at ``index`` (``'…'``, ``"…"`` or
    ``$'…'``); the end of ``text`` when it is not closed there."""
    if text[index] == "'":
        end = text.find("'", index + 1)
        return len(text) if end < 0 else end + 1
    escapes = text[index] == '"' or text.startswith("$'", index)
    close = '"' if text[index] == '"' else "'"
    index += 1 if close == '"' else 2
    while index < len(text):
        if escapes and text[index] == "\\":
            index += 2
            continue
        if text[index] == close:
            return index + 1
        index += 1
    return len(text)


def _backtick_end(text: str, index: int) -> int:
    """The index just past the `` `…` `` that opens at ``index`` (the end when unclosed)."""
    index += 1
    while index < len(text) and text[index] != "`":
        index += 2 if text[index] == "\\" else 1
    return min(index + 1, len(text))


def _words(text: str) -> list[str]:
    """``text`` split into the words bash would make of it: blanks inside quotes,
    `` `…` ``, ``$( … )`` and ``${ … }`` split nothing (``bash -c `a b` {{ x }}``)."""
    words: list[str] = []
    start: int | None = None
    depth = 0  # open $( … ), ( … ) inside them, and ${ … }
    index = 0
    while index < len(text):
        char = text[index]
        if char.isspace() and not depth:
            if start is not None:
                words.append(text[start:index])
                start = None
            index += 1
            continue
        if start is None:
            start = index
        if char == "\\":
            index += 2
        elif char in "'\"" or text.startswith("$'", index):
            index = _quote_end(text, index)
        elif char == "`":
            index = _backtick_end(text, index)
        elif text.startswith(("$(", "${"), index):
            depth += 1
            index += 2
        else:
            if depth and char in "({":
                depth += 1
            elif depth and char in ")}":
                depth -= 1
            index += 1
    if start is not None:
        words.append(text[start:])
    return words


def _last_command(text: str) -> str:
    """The text of the simple command ``text`` ends in: after its last ``;``, ``&``, ``|``,
    newline or subshell parenthesis. ``$( … )`` and ``$(( … ))`` are part of a word, their
    parentheses and the separators inside them no end of the command (``eval $((x)) {{ x }}``
    and ``eval $(a; b) {{ x }}`` are still eval's command); so are a
    quoted or backslash-escaped separator (``eval 'a;b' {{ x }}``, ``eval a\\; {{ x }}``) and
    a line continuation (``sh -c \\`` then `` {{ x }}`` on the next line)."""
    start = 0
    depth = 0  # open $( … ) and $(( … )) around the current character
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2  # an escaped character, or a backslash-newline that joins two lines
            continue
        if char in "'\"" or text.startswith("$'", index):
            index = _quote_end(text, index)
            continue
        if char == "`":
            index = _backtick_end(text, index)
            continue
        if char == "$" and text.startswith("(", index + 1):
            depth += 1
            index += 2
            continue
        if depth and char == "(":
            depth += 1
        elif depth and char == ")":
            depth -= 1
        elif not depth and _SEPARATORS.match(char) and not _in_redirection(text, index):
            start = index + 1
        index += 1
    return text[start:].replace("\\\n", "")  # a continuation joins, it is no word


def _in_redirection(text: str, index: int) -> bool:
    """Whether the ``&`` or ``|`` at ``index`` belongs to a redirection operator (``2>&1``,
    ``<&0``, ``&>f``, ``>|f``), which ends no command."""
    before, after = text[index - 1 : index], text[index + 1 : index + 2]
    return (text[index] == "&" and (before in ("<", ">") or after == ">")) or (
        text[index] == "|" and before == ">"
    )


#: A redirection at the start of a word: its target is the rest of the word or the next.
_REDIRECT = re.compile(r"[0-9]*(?:&>>|&>|>>|>&|<&|>\||<>|<<<|<<-|<<|<|>)(?!\()")


def _without_redirections(words: list[str]) -> list[str]:
    """The words a command is given, its redirections and their targets left out: bash
    reads ``eval a 2>&1 {{ x }}`` as eval given a and the value."""
    kept: list[str] = []
    target = False
    for word in words:
        if target:
            target = False
            continue
        operator = _REDIRECT.match(word)
        if operator is None:
            kept.append(word)
        elif operator.end() == len(word):
            target = True
    return kept
