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

Bodies of plain simple commands take a shortcut (:mod:`._plainbody`). Any other body is read
once, every section included, with the shell lexer (:mod:`._tagcheck` asks at each tag where
it stands), then every placeholder the lexer let through is judged on a parse of the script
(:mod:`._positions`).
"""

from __future__ import annotations

from collections.abc import Mapping

from ._fields import Param
from ._plainbody import plain_body
from ._positions import check_positions
from ._runners import run_again as _run_again
from ._runners import scan_run_again as _scan_run_again  # noqa: F401  # tests use it
from ._shell import BodyProblem
from ._tagcheck import TagChecker as _Checker
from ._tagcheck import near_misses
from ._template import Token

__all__ = ["BodyProblem", "lint"]


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
    found = plain_body(tokens, params, declared)
    if found is None:
        dialect = shell if isinstance(shell, str) and shell in ("bash", "sh") else "either"
        return _run(_Checker, tokens, params, declared, dialect)
    problems, at_top = found
    return problems + _run_again(tokens, at_top)


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
                checker.problems.extend(near_misses(token))
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
