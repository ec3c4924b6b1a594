"""Load-time checks of a body: where each placeholder stands in the shell script.

Single quotes protect a value only where the shell reads a plain word. Elsewhere the quotes
are kept, undone or parsed again:

- ``"{{ x }}"`` renders ``"'v'"``: the quotes reach the program, and ``$(…)`` in the value
  runs (inside double quotes, single quotes mean nothing);
- ``'{{ x }}'`` renders ``''v''``: the value ends up *unquoted*;
- backticks, ``$( … )``, ``${ … }`` and arithmetic parse their text again;
- a heredoc body keeps the quotes, and an unquoted one runs ``$(…)`` inside the value;
- ``\\{{ x }}`` escapes the opening quote, and ``${{ x }}`` makes it ``$'…'``, where
  backslash escapes can end the quotes;
- in a ``#`` comment, a value with a newline ends the comment and the rest runs;
- ``VAR={{ xs }}`` with an array assigns the first element and runs the others.

Each of these is a load problem, with a message that says how to fix the file. So are
placeholders and sections naming undeclared parameters (``{{ x }}`` in a comment aside:
it renders as nothing) and sections whose inside does not close what it opens (a quote, a
``$(``, a heredoc), since the script must parse the same with the section in or out.

The scan reads the body once, every section included, with a small POSIX shell lexer:
quotes, escapes, comments, ``$( )``, backticks, ``${ }``, ``$(( ))``, ``(( ))``,
heredocs (``<<``, ``<<-``, quoted delimiters) and here-strings.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping

from tooldrop import Severity

from ._fields import Param
from ._template import Token, tag_text

__all__ = ["BodyProblem", "lint"]

#: ``(offset in the body, message, severity)``.
BodyProblem = tuple[int, str, Severity]

TOP, CMD, BT, DQ, SQ, ANSI, PARAM, ARITH, COMMENT = range(9)
_CODE = (TOP, CMD)
_WHERE = {
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
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")
_NEAR_MISS = re.compile(r"\{\{[ \t]+[#^/][ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\}\}")
_SAFE_IN_COMMENT = frozenset({"number", "integer", "boolean"})


def _var_message(context: int, name: str) -> str:
    tag = f"{{{{ {name} }}}}"
    assign = f'assign it to a variable first ({name}={tag} on a line of its own) and use "${name}"'
    if context == DQ:
        return (
            f"placeholder {tag} stands inside double quotes; values are already single-quoted, "
            "so remove the quotes around it (they would reach the program as part of the "
            "value, and $( … ) in the value would run)"
        )
    if context in (SQ, ANSI):
        quotes = "single quotes" if context == SQ else "$'…' quotes"
        return (
            f"placeholder {tag} stands inside {quotes}, which the value's own quotes would "
            "close, leaving the value unquoted; remove the quotes around it: values are "
            "already single-quoted"
        )
    if context == BT:
        return (
            f"placeholder {tag} stands inside backticks, whose text is parsed again; "
            f"{assign} instead"
        )
    if context == CMD:
        return (
            f"placeholder {tag} stands inside $( … ); values stay out of command "
            f"substitutions: {assign} inside"
        )
    if context == PARAM:
        return f"placeholder {tag} stands inside ${{ … }}; {assign} there"
    if context == ARITH:
        return (
            f"placeholder {tag} stands inside arithmetic (( … )), where the shell evaluates "
            f"the value as an expression; make {name} an integer parameter and write "
            f"{name}={tag} on a line of its own, then use ${name}"
        )
    return (
        f"placeholder {tag} stands in a # comment; a value with a newline would end the "
        "comment and run as code. Take it out of the comment"
    )


class _Lexer:
    def __init__(self, params: Mapping[str, Param] | None, declared: set[str] | None) -> None:
        self.params = params
        self.declared = declared
        self.problems: list[BodyProblem] = []
        # Each context: [kind, paren depth, open ``case`` count, offset where it opened].
        self.stack: list[list[int]] = [[TOP, 0, 0, 0]]
        self.word_start = True
        self.word = ""
        self.escape = False
        self.dollar_at_end = False
        self.delimiter_open = False
        self.pending: list[tuple[str, bool, int]] = []
        self.heredoc: tuple[str, bool, int] | None = None
        self.heredoc_line: list[str] = []
        # Open sections: (token, state at the open, word_start at the open).
        self.sections: list[tuple[Token, tuple[object, ...], bool]] = []
        self.after_close: bool | None = None
        self.suggested: dict[str, str | None] = {}

    # -- state ----------------------------------------------------------------------------

    def state(self) -> tuple[object, ...]:
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
        return _WHERE[contexts[-1][0]]  # type: ignore[index]  # a tuple of (kind, depth)

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
        self.dollar_at_end = False
        self.delimiter_open = False
        closed = self.after_close
        if closed not in (None, self.word_start) and text[:1] == "#" and self.stack[-1][0] in _CODE:
            self.problems.append((base, (
                    "a # right after a section's closing tag starts a comment only when the "
                    "section is left out; put a space or a line break before the #"
                ), "error"))  # fmt: skip
        self.after_close = None
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
                if kind in _CODE and text[i] != "\n":
                    self.word += text[i]
                    self.word_start = False
                i += 1
                continue
            match = _SPECIAL[kind].search(text, i)
            j = n if match is None else match.start()
            if j > i and kind in _CODE:
                self.word += text[i:j]
                self.word_start = False
            if match is None:
                return
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
            return j + 2
        if after[:1] == "{":
            self.push(PARAM, base + j)
            return j + 2
        if after[:1] == "'" and kind in (*_CODE, PARAM):
            self.push(ANSI, base + j)
            return j + 2
        if after[:1] == '"' and kind in (*_CODE, PARAM):
            self.push(DQ, base + j)
            return j + 2
        if kind in _CODE:
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

    # -- tags -----------------------------------------------------------------------------

    def undeclared(self, token: Token) -> bool:
        """Report a tag naming no parameter; ``True`` when the name is undeclared."""
        if self.declared is None or token.value in self.declared:
            return False
        if self.heredoc is None and self.stack[-1][0] == COMMENT:
            return True  # renders as nothing there, and comments may show the syntax
        message = (
            f'{tag_text(token)} names no declared parameter; add "{token.value}" under parameters:'
        )
        close = self.suggestion(token.value)
        if close:
            message += f' (or did you mean "{close}"?)'
        elif token.kind == "var":
            message += (
                f" (for a literal {{{{{token.value}}}}} meant for another program, split the "
                f"braces with shell quotes: '{{''{{{token.value}}}}}')"
            )
        self.problems.append((token.start, message, "error"))
        return True

    def suggestion(self, name: str) -> str | None:
        """A declared name close to ``name`` (case aside), remembered per name."""
        if name not in self.suggested:
            assert self.declared is not None
            names = {declared.lower(): declared for declared in sorted(self.declared)}
            close = difflib.get_close_matches(name.lower(), list(names), n=1)
            self.suggested[name] = names[close[0]] if close else None
        return self.suggested[name]

    def tag(self, token: Token) -> None:
        self.after_close = None
        if self.escape or self.dollar_at_end or self.delimiter_open:
            self.glued(token)
        if token.kind == "var":
            self.var(token)
        elif token.kind in ("open", "invert"):
            self.undeclared(token)
            self.sections.append((token, self.state(), self.word_start))
        else:
            self.close(token)

    def glued(self, token: Token) -> None:
        """Report what the text right before a tag does to it."""
        text = tag_text(token)
        if self.escape:
            self.escape = False
            self.problems.append((token.start, (
                f"a backslash right before {text} escapes what follows it, such as the quote "
                "that starts a value, so the value would run as shell code; remove the backslash"
            ), "error"))  # fmt: skip
        if self.dollar_at_end:
            self.dollar_at_end = False
            self.problems.append((token.start, (
                f"a $ right before {text} turns the quoted value into $'…', where backslash "
                "escapes in the value are decoded and can end the quotes; remove the $"
            ), "error"))  # fmt: skip
        if self.delimiter_open:
            self.delimiter_open = False
            self.problems.append((token.start, (
                f"{text} stands in a heredoc delimiter; write the delimiter as plain text"
            ), "error"))  # fmt: skip

    def var(self, token: Token) -> None:
        if self.undeclared(token):
            return
        param = None if self.params is None else self.params.get(token.value)
        kind = self.stack[-1][0]
        if self.heredoc is not None:
            name = token.value
            self.problems.append((token.start, (
                f"placeholder {{{{ {name} }}}} stands inside a heredoc body, where quotes are "
                "not removed (and an unquoted heredoc runs $( … ) inside the value); assign it "
                f"to a variable before the heredoc ({name}={{{{ {name} }}}}) and write ${name} "
                "in the body"
            ), "error"))  # fmt: skip
            return
        if kind == COMMENT:
            if param is not None and param.type in _SAFE_IN_COMMENT:
                return
            if (
                param is not None
                and param.enum
                and all(not isinstance(v, str) or "\n" not in v for v in param.enum)
            ):
                return
        if kind != TOP:
            self.problems.append((token.start, _var_message(kind, token.value), "error"))
            return
        if param is not None and param.type == "array" and _ASSIGNMENT.fullmatch(self.word):
            variable = self.word.rstrip("+=").split("[")[0]
            self.problems.append((token.start, (
                f"array placeholder {{{{ {token.value} }}}} right after {self.word} assigns the "
                "first element and runs the others as a command; write "
                f"{variable}=({{{{ {token.value} }}}}) for a bash array, or pass it as arguments"
            ), "error"))  # fmt: skip
        self.word += "'"
        self.word_start = False

    def close(self, token: Token) -> None:
        for index in range(len(self.sections) - 1, -1, -1):
            if self.sections[index][0].value == token.value:
                break
        else:
            return  # a stray close: the parser reports it
        opened, before, word_start = self.sections.pop(index)
        del self.sections[index:]
        now = self.state()
        if now != before:
            self.problems.append((opened.start, (
                f"section {tag_text(opened)} starts {self.where(before)} but its "
                f"{tag_text(token)} stands {self.where(now)}; keep quotes, $( … ), backticks, "
                "comments and heredocs balanced inside a section, so the script parses the "
                "same with the section in or out"
            ), "error"))  # fmt: skip
        self.after_close = word_start

    def finish(self) -> None:
        for ctx in self.stack[1:]:
            if ctx[0] != COMMENT:
                where = _WHERE[ctx[0]].removeprefix("inside ")
                self.problems.append((ctx[3], (
                    f"the script ends inside {where} opened here; the shell will refuse it"
                ), "warning"))  # fmt: skip


def lint(
    tokens: list[Token], params: Mapping[str, Param] | None, declared: set[str] | None
) -> list[BodyProblem]:
    """Every problem with where the body's placeholders and sections stand.

    :param params: the parameters that loaded, for their types (``None``: not known).
    :param declared: every declared name, or ``None`` when ``parameters`` could not be read.
    """
    lexer = _Lexer(params, declared)
    for token in tokens:
        if token.kind == "text":
            for near in _NEAR_MISS.finditer(token.value):
                lexer.problems.append((token.start + near.start(), (
                    f'"{near.group()}" is not a section tag: remove the space between {{{{ and '
                    f"{near.group().lstrip('{ ')[0]}"
                ), "warning"))  # fmt: skip
            lexer.feed(token.value, token.start)
        else:
            lexer.tag(token)
    lexer.finish()
    return lexer.problems
