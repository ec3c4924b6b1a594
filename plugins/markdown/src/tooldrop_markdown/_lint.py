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

The scan reads the body once, every section included, with the shell lexer of
:mod:`._shell`, and asks at each tag where it stands.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping

from tooldrop import is_forbidden_env

from ._bashwords import NAME_TAKING, SPECIAL_ASSIGN
from ._fields import Param
from ._positions import check_positions
from ._runners import run_again as _run_again
from ._runners import scan_run_again as _scan_run_again  # noqa: F401  # tests use it
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

__all__ = ["BodyProblem", "lint"]

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


def _undeclared(token: Token, declared: set[str], suggested: dict[str, str | None]) -> BodyProblem:
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


def _array_assignment(token: Token, word: str) -> BodyProblem:
    variable = word.rstrip("+=").split("[")[0]
    return (token.start, (
        f"array placeholder {{{{ {token.value} }}}} right after {word} assigns the first "
        f"element and runs the others as a command; write {variable}=({{{{ {token.value} }}}}) "
        "for a bash array, or pass it as arguments"
    ), "error")  # fmt: skip


def _near_misses(token: Token) -> list[BodyProblem]:
    """``{{ #x }}``-like text: a section tag with a space before its sigil."""
    found: list[BodyProblem] = []
    for near in _NEAR_MISS.finditer(token.value):
        found.append((token.start + near.start(), (
            f'"{near.group()}" is not a section tag: remove the space between '
            f"{{{{ and {near.group().lstrip('{ ')[0]}"
        ), "warning"))  # fmt: skip
    return found


class _Checker(ShellLexer):
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
        self.problems.append(_undeclared(token, self.declared, self.suggested))
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
        if param is not None and param.type == "array" and _ASSIGNMENT.fullmatch(self.word):
            self.problems.append(_array_assignment(token, self.word))
        self.at_top.add(token.start)
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


#: Characters after which a tag may stand anywhere but in a plain word of a simple command.
_NEEDS_LEXER = re.compile(r"[\\'\"`$#<>()\[\]{}!&]")
# A word's characters, matched on the reversed text to find the last word of a chunk.
_WORD_TAIL = re.compile(r"[^ \t\n;&|<>()]*")
# Words that make a simple command more than a program and its arguments: reserved words,
# and builtins whose arguments are names or code. Bodies using them are read in full.
_NOT_PLAIN = NAME_TAKING | {
    "if", "then", "else", "elif", "fi", "do", "done", "for", "in", "while", "until", "case",
    "esac", "select", "function", "time", "coproc", "command", "builtin", "exec",
}  # fmt: skip
_COMMANDS = re.compile(r"([;|\n])")


def lint(
    tokens: list[Token],
    params: Mapping[str, Param] | None,
    declared: set[str] | None,
    shell: object = None,
) -> list[BodyProblem]:
    """Every problem with where the body's placeholders and sections stand.

    :param params: the parameters that loaded, for their types (``None``: not known).
    :param declared: every declared name, or ``None`` when ``parameters`` could not be read.
    :param shell: the frontmatter's ``shell`` (``bash``, ``sh``; anything else: either).
    """
    found = _top_level(tokens, params, declared)
    if found is None:
        dialect = shell if isinstance(shell, str) and shell in ("bash", "sh") else "either"
        return _run(_Checker, tokens, params, declared, dialect)
    problems, at_top = found
    return problems + _run_again(tokens, at_top)


def _top_level(
    tokens: list[Token], params: Mapping[str, Param] | None, declared: set[str] | None
) -> tuple[list[BodyProblem], set[int]] | None:
    """What the full checks find, for bodies made of plain simple commands: no quotes,
    escapes, ``$``, ``#``, redirections, brackets, braces, ``!`` or ``&``, no reserved word
    and no name-taking builtin, every command named by a literal word (most simple tools);
    ``None`` for any other body.

    In such a body every tag stands in a plain word of a simple command: no context can
    open, so sections always close where they opened and following words is all the lexer
    would do. (The tests compare both on random bodies.)
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
            if "{{" in text:
                problems.extend(_near_misses(token))
            tail = _WORD_TAIL.match(text[::-1]).end()  # type: ignore[union-attr]  # * matches
            word = word + text if tail == len(text) else text[len(text) - tail :]
        elif kind == "close":
            marked.append("\2")  # closes where it opened: nothing to report
        elif declared is not None and token.value not in declared:
            problems.append(_undeclared(token, declared, suggested))
            marked.append(_MARKS[kind])
        elif kind != "var":
            marked.append("\1")
        else:
            marked.append("\0")
            param = None if params is None else params.get(token.value)
            if param is not None and param.type == "array":
                if _ASSIGNMENT.fullmatch(word):
                    problems.append(_array_assignment(token, word))
                elif word or _glued(tokens, index):
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
            assigned = _ASSIGNMENT.match(word)
            if assigned is None:
                if "\0" in word or word in _NOT_PLAIN:
                    return False
                break
            variable = assigned.group().rstrip("+=").split("[")[0]
            if "\0" in word and (variable in SPECIAL_ASSIGN or is_forbidden_env(variable)):
                return False
    return True


def _run(
    kind: type[_Checker],
    tokens: list[Token],
    params: Mapping[str, Param] | None,
    declared: set[str] | None,
    dialect: str = "either",
) -> list[BodyProblem]:
    checker = kind(params, declared)
    for token in tokens:
        if token.kind == "text":
            if "{{" in token.value:
                checker.problems.extend(_near_misses(token))
            checker.feed(token.value, token.start)
        else:
            checker.tag(token)
    checker.finish()
    # The lexer's reading first (its messages name the quote or substitution to remove),
    # then the allow-list on the parse tree for every placeholder the lexer let through.
    refused = {offset for offset, _, severity in checker.problems if severity == "error"}
    known = {t.value for t in tokens} if declared is None else declared
    skip = {
        t.start
        for t in tokens
        if t.kind == "var"
        and (t.start in refused or t.start not in checker.at_top or t.value not in known)
    }
    positions = check_positions(tokens, params, dialect, skip)
    at_top = checker.at_top - {offset for offset, _, _ in positions}
    return checker.problems + positions + _run_again(tokens, at_top)
