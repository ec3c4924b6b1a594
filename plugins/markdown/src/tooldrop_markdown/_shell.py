"""A small POSIX shell lexer: which context each part of a script stands in.

It reads what the template checks need and no more: single, double and ``$'…'`` quotes,
backslash escapes, ``#`` comments, ``$( … )`` (with ``case`` patterns), backticks,
``${ … }``, ``$(( … ))`` and ``(( … ))``, heredocs (``<<``, ``<<-``, quoted delimiters,
several on one line) and here-strings. The script comes in chunks, the text between
template tags, so the checks can ask where each tag stands.
"""

from __future__ import annotations

import re

from tooldrop import Severity

__all__ = [
    "ANSI",
    "ARITH",
    "BT",
    "CMD",
    "CODE",
    "COMMENT",
    "DQ",
    "PARAM",
    "SQ",
    "TOP",
    "WHERE",
    "BodyProblem",
    "ShellLexer",
]

#: ``(offset in the body, message, severity)``.
BodyProblem = tuple[int, str, Severity]

TOP, CMD, BT, DQ, SQ, ANSI, PARAM, ARITH, COMMENT = range(9)
#: Where commands are read (the top level and command substitutions).
CODE = (TOP, CMD)
WHERE = {
    TOP: "at the top level",
    CMD: "inside $( … )",
    BT: "inside backticks",
    DQ: "inside double quotes",
    SQ: "inside single quotes",
    ANSI: "inside $'…' quotes",
    PARAM: "inside ${ … }",
    ARITH: "inside arithmetic (( … ))",
    COMMENT: "in a # comment",
}
_SPECIAL = {
    TOP: re.compile(r"[\\'\"`$#<>()\n \t;&|]"),
    CMD: re.compile(r"[\\'\"`$#<>()\n \t;&|]"),
    BT: re.compile(r"[\\`]"),
    DQ: re.compile(r"[\\\"`$]"),
    SQ: re.compile(r"'"),
    ANSI: re.compile(r"[\\']"),
    PARAM: re.compile(r"[\\'\"`${}]"),
    ARITH: re.compile(r"[()$]"),
    COMMENT: re.compile(r"\n"),
}
_DELIMITER_END = frozenset(" \t\n;&|<>()")
# The state at the top level, outside any quote or heredoc (the usual state of a tag).
_AT_TOP: tuple[object, ...] = (((TOP, 0),), None, ())


class ShellLexer:
    """Reads a script in chunks (the text between template tags) and knows, after each
    chunk, the context the next character stands in.

    ``problems`` collects what the lexer itself notices (a script that ends inside quotes).
    """

    def __init__(self) -> None:
        self.problems: list[BodyProblem] = []
        # Each context: [kind, paren depth, open ``case`` count, offset where it opened].
        self.stack: list[list[int]] = [[TOP, 0, 0, 0]]
        #: The next character starts a word (so ``#`` would start a comment).
        self.word_start = True
        #: The current unquoted word at command level (``VAR=`` before a placeholder).
        self.word = ""
        #: The last character was an escaping backslash.
        self.escape = False
        #: ``word_start`` before that backslash (a backslash-newline leaves it as it was).
        self.continued = False
        #: The last chunk ended in a plain ``$``.
        self.dollar_at_end = False
        #: The last chunk ended while reading a heredoc's delimiter.
        self.delimiter_open = False
        #: Heredocs whose bodies start at the next line: (delimiter, strip tabs, offset).
        self.pending: list[tuple[str, bool, int]] = []
        #: The heredoc whose body is being read, if any.
        self.heredoc: tuple[str, bool, int] | None = None
        self.heredoc_line: list[str] = []

    # -- state ----------------------------------------------------------------------------

    def state(self) -> tuple[object, ...]:
        """Everything that decides how the next character is read, but word boundaries."""
        if len(self.stack) == 1 and self.heredoc is None and not self.pending:
            return _AT_TOP
        heredoc = None if self.heredoc is None else self.heredoc[:2]
        return (
            tuple((c[0], c[1]) for c in self.stack),
            heredoc,
            tuple(p[:2] for p in self.pending),
        )

    def where(self, state: tuple[object, ...]) -> str:
        contexts, heredoc, _ = state
        if heredoc is not None:
            return "inside a heredoc body"
        return WHERE[contexts[-1][0]]  # type: ignore[index]  # a tuple of (kind, depth)

    def push(self, kind: int, offset: int) -> None:
        self.stack.append([kind, 0, 0, offset])

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
        self.word_start = False

    def end_word(self) -> None:
        ctx = self.stack[-1]
        if ctx[0] == CMD:
            if self.word == "case":
                ctx[2] += 1
            elif self.word == "esac" and ctx[2] > 0:
                ctx[2] -= 1
        self.word = ""
        self.word_start = True

    # -- text -----------------------------------------------------------------------------

    def feed(self, text: str, base: int) -> None:
        """Read ``text``, which starts at ``base`` in the body."""
        self.dollar_at_end = False
        self.delimiter_open = False
        i, n = 0, len(text)
        while i < n:
            if self.heredoc is not None:
                j = text.find("\n", i)
                if j < 0:
                    self.heredoc_line.append(text[i:])
                    return
                self.heredoc_line.append(text[i:j])
                self.heredoc_line_done()
                i = j + 1
                continue
            kind = self.stack[-1][0]
            if self.escape:
                self.escape = False
                if text[i] == "\n":  # a line continuation: removed before words are read
                    self.word_start = self.continued
                elif kind in CODE:
                    self.word += text[i]
                    self.word_start = False
                i += 1
                continue
            match = _SPECIAL[kind].search(text, i)
            j = n if match is None else match.start()
            if j > i and kind in CODE:
                self.word += text[i:j]
                self.word_start = False
            if match is None:
                return
            if kind == TOP and text[j] in " \t":  # the commonest case, kept off special()
                self.word = ""
                self.word_start = True
                i = j + 1
            else:
                i = self.special(kind, text, j, base)

    def special(self, kind: int, text: str, j: int, base: int) -> int:
        char = text[j]
        if kind == COMMENT:
            self.pop()
            return j  # the newline ends the comment and is read again outside it
        if kind == SQ:
            self.pop()
            return j + 1
        if char == "\\":
            self.escape = True
            self.continued = self.word_start
            self.word_start = False
            return j + 1
        if kind in (ANSI, BT):
            if char == ("'" if kind == ANSI else "`"):
                self.pop()
            return j + 1
        if char == "$":
            return self.dollar(text, j, base)
        if kind == DQ:
            if char == '"':
                self.pop()
            elif char == "`":
                self.push(BT, base + j)
            return j + 1
        if kind == ARITH:
            ctx = self.stack[-1]
            if char == "(":
                ctx[1] += 1
            elif ctx[1] > 0:
                ctx[1] -= 1
            else:
                self.pop()
                return j + 2 if text.startswith("))", j) else j + 1
            return j + 1
        if char in "'\"`":
            self.push({"'": SQ, '"': DQ, "`": BT}[char], base + j)
            self.word_start = False
            return j + 1
        if kind == PARAM:
            ctx = self.stack[-1]
            if char == "{":
                ctx[1] += 1
            elif ctx[1] > 0:
                ctx[1] -= 1
            else:
                self.pop()
            return j + 1
        # The code contexts: the top level and $( … ).
        if char == "#":
            if self.word_start:
                self.push(COMMENT, base + j)
            else:
                self.word += "#"
            return j + 1
        if char == "\n":
            self.end_word()
            if self.pending:
                self.heredoc = self.pending.pop(0)
                self.heredoc_line = []
            return j + 1
        if char == "<" and text.startswith("<<", j) and not text.startswith("<<<", j):
            return self.heredoc_operator(text, j + 2, base)
        if char == "(" and text.startswith("((", j) and self.word_start:
            self.push(ARITH, base + j)
            return j + 2
        self.end_word()
        if kind == CMD and char in "()":
            ctx = self.stack[-1]
            if char == "(":
                ctx[1] += 1
            elif ctx[1] > 0:
                ctx[1] -= 1
            elif ctx[2] == 0:  # not a ``case`` pattern's parenthesis
                self.pop()
        return j + 3 if text.startswith("<<<", j) else j + 1

    def dollar(self, text: str, j: int, base: int) -> int:
        kind = self.stack[-1][0]
        after = text[j + 1 : j + 3]
        if after == "((":
            self.push(ARITH, base + j)
            return j + 3
        if after[:1] == "(":
            self.push(CMD, base + j)
            self.word_start = True  # a command starts there: ``$(# …`` is a comment
            return j + 2
        if after[:1] == "{":
            self.push(PARAM, base + j)
            return j + 2
        if after[:1] == "$":  # $$, the shell's process id: the next character is read anew
            if kind in CODE:
                self.word += "$$"
                self.word_start = False
            return j + 2
        if after[:1] == "'" and kind in (*CODE, PARAM):
            self.push(ANSI, base + j)
            return j + 2
        if after[:1] == '"' and kind in (*CODE, PARAM):
            self.push(DQ, base + j)
            return j + 2
        if kind in CODE:
            self.word += "$"
            self.word_start = False
        self.dollar_at_end = j + 1 == len(text)
        return j + 1

    def heredoc_operator(self, text: str, k: int, base: int) -> int:
        """Read ``<<[-] DELIM`` from ``k`` (just past ``<<``); the body starts at the next line."""
        strip = text.startswith("-", k)
        k += strip
        n = len(text)
        while k < n and text[k] in " \t":
            k += 1
        delimiter: list[str] = []
        while k < n and text[k] not in _DELIMITER_END:
            char = text[k]
            if char in "'\"":
                close = text.find(char, k + 1)
                if close < 0:
                    close = n
                delimiter.append(text[k + 1 : close])
                k = close + 1
            elif char == "\\" and k + 1 < n:
                delimiter.append(text[k + 1])
                k += 2
            else:
                delimiter.append(char)
                k += 1
        if k >= n:
            self.delimiter_open = True  # a tag right after it would be part of the delimiter
        self.pending.append(("".join(delimiter), strip, base + k))
        self.end_word()
        return min(k, n)

    def heredoc_line_done(self) -> None:
        assert self.heredoc is not None
        delimiter, strip, _ = self.heredoc
        line = "".join(self.heredoc_line)
        self.heredoc_line = []
        if (line.lstrip("\t") if strip else line) == delimiter:
            self.heredoc = self.pending.pop(0) if self.pending else None

    def finish(self) -> None:
        for ctx in self.stack[1:]:
            if ctx[0] != COMMENT:
                where = WHERE[ctx[0]].removeprefix("inside ")
                self.problems.append((ctx[3], (
                    f"the script ends inside {where} opened here; the shell will refuse it"
                ), "warning"))  # fmt: skip
