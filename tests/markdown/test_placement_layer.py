"""The parse-tree allow-list (``_placement.judge``) on its own, as a second layer.

Through a tool file the lexer (``_shell``/``_tagcheck``) refuses a placeholder inside
``$( … )``, ``${ … }``, quotes, a comment or a heredoc before the parse tree is asked. The
allow-list is meant to refuse those places too, independently, should the lexer ever let
one through: these tests render a body the way the plugin does (each placeholder as the
word ``'v'``), parse it with the plugin's own parser and ask :func:`judge` directly.
"""

from __future__ import annotations

import subprocess

import pytest

from tooldrop_markdown._bashtree import parser
from tooldrop_markdown._fields import Param
from tooldrop_markdown._placement import judge
from tooldrop_markdown._scriptfacts import ScriptFacts
from tooldrop_markdown._shapes import render
from tooldrop_markdown._template import tokenize

from .conftest import frontmatter


def judged(body: str, kind: str = "string", dialect: str = "bash") -> str | None:
    """What the allow-list says about the one placeholder of ``body``."""
    script, where, _ = render(tokenize(body))
    root = parser().parse(script).root_node
    assert not root.has_error, script
    ((offset, token),) = where.items()
    return judge(root, offset, token, Param(type=kind), dialect, ScriptFacts(root, script))


NOT_A_WORD = ", not as a word of its own; values are already single-quoted"


@pytest.mark.parametrize(
    ("body", "phrase"),
    [
        # the quoted word is one word of a command inside the substitution
        pytest.param(
            "echo $(cat {{ x }})",
            "placeholder {{ x }} stands inside $( … ); values stay out of it",
            id="command-substitution",
        ),
        pytest.param(
            "echo ${a:-{{ x }}}",
            "placeholder {{ x }} stands inside ${ … }, which is not one of the places",
            id="parameter-expansion",
        ),
        # the quotes of the value are only characters of these
        pytest.param(
            'echo "a{{ x }}b"',
            "placeholder {{ x }} stands inside double quotes" + NOT_A_WORD,
            id="double-quotes",
        ),
        pytest.param(
            "echo hi # {{ x }}",
            "placeholder {{ x }} stands in a # comment" + NOT_A_WORD,
            id="comment",
        ),
        pytest.param(
            "cat <<EOF\n{{ x }}\nEOF",
            "placeholder {{ x }} stands inside a heredoc body" + NOT_A_WORD,
            id="heredoc-body",
        ),
        pytest.param(
            "echo ${{ x }}",
            "placeholder {{ x }} stands inside $'…' quotes" + NOT_A_WORD,
            id="ansi-c-quotes",
        ),
        # \' is a quote character, so the value's own closing quote opens a new string
        pytest.param(
            "echo \\{{ x }}'",
            "placeholder {{ x }} stands where the shell reads it as code" + NOT_A_WORD,
            id="escaped-quote",
        ),
    ],
)
def test_places_inside_other_syntax_are_named(body: str, phrase: str) -> None:
    message = judged(body)
    assert message is not None
    assert message.startswith(phrase), message


def test_an_integer_inside_double_parentheses_is_refused() -> None:
    # (( … )) evaluates a[$(…)]; the allow-list keeps every value out of it, integers too
    assert judged("(( a = {{ n }} ))", "integer") == (
        "placeholder {{ n }} stands inside arithmetic (( … ))"
    )
    # the same word as a plain argument is data
    assert judged("echo {{ n }}", "integer") is None


def test_the_advice_names_the_parameter() -> None:
    message = judged("echo $(cat {{ XY }})")
    assert message is not None
    assert message.endswith('(XY={{ XY }} on a line of its own) and use "$XY" there'), message


@pytest.mark.parametrize(
    ("body", "phrase"),
    [
        ("X={{ xs }}", "array placeholder {{ xs }} right after X= assigns the first element"),
        ("X+={{ xs }}", "array placeholder {{ xs }} right after X+= assigns the first element"),
    ],
    ids=["assigned", "appended"],
)
def test_an_array_assigned_is_refused_with_its_operator(body: str, phrase: str) -> None:
    message = judged(body, "array")
    assert message is not None
    assert message.startswith(phrase), message
    assert "write X=({{ xs }}) for a bash array" in message


# Through a tool file: rows the lexer lets through, so the allow-list decides.
PARAMS = "  x:\n    type: string\n"


def problems(load, body: str, shell: str) -> list[str]:
    result = load(frontmatter(body, PARAMS, f"shell: {shell}\n"))
    return [p.message for p in result.problems if p.severity == "error"]


def integer_in_bash(declaration: str) -> bool:
    """Whether ``k`` is an integer variable after ``declaration`` in real bash."""
    script = f"{declaration}\nk='1+1'; echo \"$k\""
    run = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=False)
    return run.stdout.strip() == "2"


@pytest.mark.parametrize(
    "declaration",
    ["declare >/dev/null -i k[1]=2", "declare >/dev/null -i k=1"],
    ids=["element", "value"],
)
def test_an_assigned_name_after_a_redirection_is_declared(load, declaration: str) -> None:
    assert integer_in_bash(declaration)
    found = problems(load, f"{declaration}\nk={{{{ x }}}}", "bash")
    assert any("is assigned to k, whose assignments bash evaluates" in m for m in found), found


def test_options_of_another_command_in_the_pipeline_declare_nothing(load) -> None:
    # -i after the redirection is cat's argument, not declare's
    declaration = "declare k | cat >/dev/null -i"
    assert not integer_in_bash(declaration)
    assert problems(load, f"{declaration}\nk={{{{ x }}}}", "bash") == []


@pytest.mark.parametrize(
    ("body", "shell"),
    [
        pytest.param("[ {{ x }} = a ]", "sh", id="bracket-test-under-sh"),
        pytest.param("[[ {{ x }} == a || -v b ]]", "bash", id="v-elsewhere-in-double-test"),
    ],
)
def test_accepted(load, body: str, shell: str) -> None:
    assert problems(load, body, shell) == []


@pytest.mark.parametrize(
    ("body", "phrase"),
    [
        # tree-sitter's reading of [ … ] need not be bash's: any -v or -R in it refuses
        pytest.param("[ -v a -a {{ x }} = b ]", "is given to [ -v,", id="v-elsewhere"),
        pytest.param("[ -R a -a {{ x }} = b ]", "is given to [ -v,", id="R-elsewhere"),
        pytest.param("printf -v {{ x }} a", "is given to printf -v,", id="printf-v"),
    ],
)
def test_refused(load, body: str, phrase: str) -> None:
    found = problems(load, body, "bash")
    assert any(phrase in m for m in found), found
