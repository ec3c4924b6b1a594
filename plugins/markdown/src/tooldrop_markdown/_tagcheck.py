"""The shell lexer of :mod:`._shell`, plus what each template tag means where it stands:
the quote, substitution, comment or heredoc a placeholder sits in, a tag glued to a backslash
or a ``$``, a section whose inside does not close what it opens, a name no parameter declares.
Each finding is a problem whose message says how to fix the file."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping

from ._fields import Param
from ._shell import (
    ANSI,
    ARITH,
    BT,
    CMD,
    CODE,
    COMMENT,
    DQ,
    PARAM,
    SQ,
    TOP,
    BodyProblem,
    ShellLexer,
)
from ._template import Token, tag_text

__all__ = ["ASSIGNMENT", "TagChecker", "array_assignment", "near_misses", "undeclared"]

#: An assignment word up to its ``=`` (``V=``, ``a[i]+=``).
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")
#: A section tag with spaces or tabs before its sigil (the sigil is group 1).
_NEAR_MISS = re.compile(r"\{\{[ \t]+([#^/])[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\}\}")
#: Handlebars' block helpers, which Mustache (and Nanocoder) do not have.
#: (``{{/if}}`` and ``{{else}}`` are Mustache tags, and reported as such.)
_HANDLEBARS = re.compile(r"\{\{#[ \t]*(?:if|unless|each|with)[ \t]+[^{}]*\}\}")
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


def undeclared(token: Token, declared: set[str], suggested: dict[str, str | None]) -> BodyProblem:
    """The problem of a tag naming no declared parameter (``suggested`` remembers, per name,
    the declared name it is close to)."""
    name = token.value
    message = f'{tag_text(token)} names no declared parameter; add "{name}" under parameters:'
    if name not in suggested:
        names = {known.lower(): known for known in sorted(declared)}
        close = difflib.get_close_matches(name.lower(), list(names), n=1)
        suggested[name] = names[close[0]] if close else None
    if suggested[name]:
        message += f' (or did you mean "{suggested[name]}"?)'
    elif token.kind == "var":
        message += (
            f" (for a literal {{{{{name}}}}} meant for another program, split the "
            f"braces with shell quotes: '{{''{{{name}}}}}')"
        )
    return (token.start, message, "error")


def array_assignment(token: Token, word: str) -> BodyProblem:
    variable = word.rstrip("+=").split("[")[0]
    return (token.start, (
        f"array placeholder {{{{ {token.value} }}}} right after {word} assigns the first "
        f"element and runs the others as a command; write {variable}=({{{{ {token.value} }}}}) "
        "for a bash array, or pass it as arguments"
    ), "error")  # fmt: skip


def near_misses(token: Token) -> list[BodyProblem]:
    """``{{ #x }}``-like text: a section tag with a space before its sigil; and Handlebars'
    ``{{#if x}}``, which stays text (a heredoc may write a Handlebars file on purpose)."""
    found: list[BodyProblem] = []
    for near in _NEAR_MISS.finditer(token.value):
        found.append((token.start + near.start(), (
            f'"{near.group()}" is not a section tag: remove the space between '
            f"{{{{ and {near.group(1)}"
        ), "warning"))  # fmt: skip
    for helper in _HANDLEBARS.finditer(token.value):
        found.append((token.start + helper.start(), (
            f'"{helper.group()}" is Handlebars, not a section tag: it reaches the shell as '
            "text. Sections are Mustache's: {{#x}}…{{/x}} renders when x is set (not false, "
            "not empty), {{^x}}…{{/x}} when it is not"
        ), "warning"))  # fmt: skip
    return found


class TagChecker(ShellLexer):
    """The shell lexer, plus what each template tag means where it stands."""

    def __init__(self, params: Mapping[str, Param] | None, declared: set[str] | None) -> None:
        super().__init__()
        self.params = params
        self.declared = declared
        # Open sections: (token, state at the open, word_start at the open).
        self.sections: list[tuple[Token, tuple[object, ...], bool]] = []
        #: After a closing tag: word_start where its section opened.
        self.after_close: bool | None = None
        self.suggested: dict[str, str | None] = {}
        #: Offsets of the placeholders that stand where the shell reads a plain word.
        self.at_top: set[int] = set()

    def feed(self, text: str, base: int) -> None:
        closed = self.after_close
        if closed not in (None, self.word_start) and text[:1] == "#" and self.stack[-1][0] in CODE:
            self.problems.append((base, (
                "a # right after a section's closing tag starts a comment only when the "
                "section is left out; put a space or a line break before the #"
            ), "error"))  # fmt: skip
        self.after_close = None
        super().feed(text, base)

    # -- tags -----------------------------------------------------------------------------

    def undeclared(self, token: Token) -> bool:
        """Report a tag naming no parameter; ``True`` when the name is undeclared."""
        if self.declared is None or token.value in self.declared:
            return False
        if self.heredoc is None and self.stack[-1][0] == COMMENT:
            return True  # renders as nothing there, and comments may show the syntax
        self.problems.append(undeclared(token, self.declared, self.suggested))
        return True

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
        if param is not None and param.type == "array" and ASSIGNMENT.fullmatch(self.word):
            self.problems.append(array_assignment(token, self.word))
        self.at_top.add(token.start)
        self.word += tag_text(token)  # as written: a message may quote the word
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
