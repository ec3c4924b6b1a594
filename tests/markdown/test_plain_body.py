"""The shortcut for bodies of plain simple commands (``_plainbody``), row by row.

The shortcut is a speed feature: for most tools (a program and its arguments) it answers
without the shell lexer or a parse. Each row below says whether it must vouch for a body
(and with which problems and which placeholders at the top level) or hand it on to the full
checks; and for every row, the load problems through the shortcut equal those of the full
checks alone (the property test in test_lint.py does the same on random bodies; this table
is fixed and fast, and names each case).
"""

from __future__ import annotations

import re

import pytest

from tooldrop_markdown._fields import Param
from tooldrop_markdown._lint import _Checker, _run, lint
from tooldrop_markdown._plainbody import plain_body
from tooldrop_markdown._template import tokenize

PARAMS = {
    "x": Param(type="string"),
    "y": Param(type="string"),
    "n": Param(type="integer"),
    "xs": Param(type="array"),
    "b": Param(type="boolean"),
}
DECLARED = set(PARAMS)
UNDECLARED = "names no declared parameter"
ARRAY_ASSIGN = "assigns the first element and runs the others as a command"

# (body, problems as (tag text the problem points at, phrase of its message)): the shortcut
# vouches, every declared placeholder standing at the top level.
VOUCHED: list[tuple[str, list[tuple[str, str]]]] = [
    ("echo {{ x }}", []),
    ("cmd --opt={{ x }} a{{ x }}b {{ x }}{{ y }}", []),
    ("ls {{# b }}-a{{/ b }} {{ x }}", []),
    ("ls {{# b }}-a{{/ b }}{{^ b }} -l{{/ b }} {{ x }}\nwc {{ y }}", []),
    ("kubectl get pods{{# x }} -l {{ x }}{{/ x }}", []),
    ("echo {{ x }} | grep {{ y }}\nls {{ n }}; wc", []),
    ("echo {{ x }};", []),
    ("echo {{ x }}\n", []),
    ("echo {{ x }}\n\nls\n", []),
    ("\necho {{ x }}", []),
    ("echo {{ x }} | wc\n", []),
    ("echo {{ x }} |\nwc", []),
    ("echo {{ x }} |\n\nwc", []),
    ("V={{ x }} W=1 cmd {{ y }}", []),
    ("echo {{ xs }}", []),
    ("echo a {{ xs }} b", []),
    ("echo {{ xs }} {{ x }}", []),
    ("echo\t{{ xs }}\tb", []),
    ("echo {{ xs }}\nls", []),
    ("echo {{ xs }};ls", []),
    ("echo {{ xs }}|wc", []),
    ("echo {{ x }} {{ xs }} {{# b }}-v{{/ b }}", []),
    ("V={{ xs }}", [("{{ xs }}", "right after V=")]),
    ("echo a V={{ xs }}", [("{{ xs }}", "right after V=")]),
    ("a+={{ xs }} cmd", [("{{ xs }}", "right after a+=")]),
    ("echo ab{{ x }} V={{ xs }}", [("{{ xs }}", "right after V=")]),
    ("echo V{{ nope }}={{ xs }}", [("{{ nope }}", UNDECLARED), ("{{ xs }}", "right after V=")]),
    ("echo {{ nope }} {{ x }}", [("{{ nope }}", UNDECLARED)]),
    ("echo {{# nope }}-a{{/ nope }} {{ x }}", [("{{# nope }}", UNDECLARED)]),
    ("echo {{^ nope }}-a{{/ nope }} {{ x }}", [("{{^ nope }}", UNDECLARED)]),
    ("if true; then ls; fi", []),  # no placeholder: nothing to place
]

# Bodies the shortcut must hand on to the full checks (they may well load; the shortcut
# cannot tell).
HANDED_ON: list[tuple[str, str]] = [
    *[(f"echo {{{{ x }}}} a{c}b", f"the character {c}") for c in "\\'\"`$#<>()[]{}!&"],
    ("echo a{b}{{ x }}", "braces in the text before"),
    *[
        (f"{word} {{{{ x }}}}", f"the reserved word {word}")
        for word in [
            "if",
            "then",
            "else",
            "elif",
            "fi",
            "do",
            "done",
            "for",
            "in",
            "while",
            "until",
            "case",
            "esac",
            "select",
            "function",
            "time",
            "coproc",
            "command",
            "builtin",
            "exec",
        ]
    ],
    *[(f"{word} {{{{ x }}}}", f"the builtin {word}") for word in ["read", "printf", "export"]],
    ("echo a\ndone {{ x }}", "a reserved word naming a later command"),
    ("V=1 exec {{ x }}", "a reserved word after an assignment"),
    ("eval declare -i k\nk={{ x }}", "eval, whose text may declare k integer"),
    ("{{ x }}", "a placeholder as the program"),
    ("echo a\n{{ x }} b", "a placeholder as a later program"),
    ("V=1 {{ x }}", "a placeholder as the program after an assignment"),
    ("{{ nope }} {{ x }}", "an undeclared placeholder as the program"),
    ("echo a{{ xs }}", "an array glued to the text before"),
    ("echo {{ xs }}b", "an array glued to the text after"),
    ("echo {{ x }}{{ xs }}", "an array glued to a placeholder before"),
    ("echo {{ xs }}{{ x }}", "an array glued to a placeholder after"),
    ("echo {{ xs }}{{ x }} a", "an array glued to a placeholder, then a blank"),
    ("echo {{ x }}={{ xs }}", "an array after a placeholder and ="),
    ("echo V={{ x }}{{ xs }}", "an array after an assignment's value"),
    ("echo b{{# b }}c {{/ b }}{{ xs }}", "an array after a section's close"),
    ("echo {{ xs }}{{# b }} c{{/ b }}d", "an array before a section"),
    ("echo {{ xs }}{{^ b }} c{{/ b }}d", "an array before an inverted section"),
    ("echo {{# b }}{{ xs }}{{/ b }}", "an array alone in a section"),
    ("echo {{ x }}{{# b }};rm a{{/ b }}", "a section holding ;"),
    ("echo {{ x }}{{# b }} | wc{{/ b }}", "a section holding |"),
    ("{{# b }}ls -a\n{{/ b }}echo {{ x }}", "a section holding a newline"),
    ("echo {{ x }}{{^ b }};rm a{{/ b }}", "an inverted section holding ;"),
    ("{{# b }}echo {{/ b }}{{ x }}", "a section holding the program"),
    ("{{^ b }}echo {{/ b }}{{ x }}", "an inverted section holding the program"),
    ("e{{# b }}ch{{/ b }}o {{ x }}", "a section inside the program's name"),
    ("ls{{# b }} -a{{/ b }} {{ x }}", "a section glued to the program's name"),
    ("V={{# b }}1{{/ b }} echo {{ x }}", "a section in an assignment"),
    ("{{/ b }}echo {{ x }}", "a stray close in the program's name"),
    ("{{# nope }}echo {{/ nope }}{{ x }}", "an undeclared section holding the program"),
    ("{{^ nope }}echo {{/ nope }}{{ x }}", "an undeclared inverted section, the same"),
    ("echo {{ x }}\n{{# nope }}rm a\n{{/ nope }}ls", "an undeclared section holding \\n"),
    ("PATH={{ x }} ls", "a special variable"),
    ("PATH+={{ x }} ls", "a special variable, appended to"),
    ("RANDOM={{ n }} ls", "an arithmetic variable"),
    ("BASH_ENV={{ x }} ls", "a forbidden environment variable"),
    ("ld_preload={{ x }} ls", "a forbidden environment variable, lower case"),
    ("PYTHONPYCACHEPREFIX={{ x }} ls", "a forbidden variable ending in X"),
    (";echo {{ x }}", "an empty command before ;"),
    ("| echo {{ x }}", "an empty command before |"),
    ("echo {{ x }};;ls", "two ; in a row"),
    ("echo {{ x }} | ;ls", "an empty command after |"),
    ("echo {{ x }} | | wc", "two | in a row"),
    ("echo {{ x }} |", "a pipe to nothing"),
    ("echo {{ x }} |\n", "a pipe to nothing, then a newline"),
]


def _tag_offsets(body: str, tag: str) -> list[int]:
    return [m.start() for m in re.finditer(re.escape(tag), body)]


@pytest.mark.parametrize(("body", "expected"), VOUCHED, ids=[body for body, _ in VOUCHED])
def test_the_shortcut_vouches_for_plain_bodies(body: str, expected: list[tuple[str, str]]) -> None:
    found = plain_body(tokenize(body), PARAMS, DECLARED)
    assert found is not None
    problems, at_top = found
    assert [(offset, severity) for offset, _, severity in problems] == [
        (body.index(tag), "error") for tag, _ in expected
    ]
    for (_, message, _), (_, phrase) in zip(problems, expected, strict=True):
        assert phrase in message
    placeholders = re.compile(r"\{\{ (?:x|y|n|xs) \}\}")
    assert at_top == {m.start() for m in placeholders.finditer(body)}


@pytest.mark.parametrize(("body", "why"), HANDED_ON, ids=[why for _, why in HANDED_ON])
def test_the_shortcut_hands_other_bodies_on(body: str, why: str) -> None:
    assert plain_body(tokenize(body), PARAMS, DECLARED) is None, why


@pytest.mark.parametrize("body", [body for body, _ in VOUCHED] + [body for body, _ in HANDED_ON])
def test_the_shortcut_finds_what_the_full_checks_find(body: str) -> None:
    tokens = tokenize(body)
    assert lint(tokens, PARAMS, DECLARED) == _run(_Checker, tokens, PARAMS, DECLARED)


def test_without_parameters_every_placeholder_is_at_the_top_level() -> None:
    # parameters: could not be read: no name is undeclared, no type known.
    body = "echo {{ anything }} {{ else_ }}"
    assert plain_body(tokenize(body), None, None) == (
        [],
        set(_tag_offsets(body, "{{ anything }}") + _tag_offsets(body, "{{ else_ }}")),
    )
