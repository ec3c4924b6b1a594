"""The allow-list on the parse tree (``_placement``), one row per place and per refusal.

Accepted rows: a placeholder as a plain word inside each kind of compound command the
allow-list walks through. Refused rows: the distinctive phrase of the message the user
reads, for each branch that refuses. Bodies are chosen so that the lexer lets the
placeholder through and the parse tree decides.
"""

from __future__ import annotations

import subprocess

import pytest

from .conftest import errors

PARAMS = (
    "  x:\n    type: string\n  y:\n    type: string\n  n:\n    type: integer\n"
    "  f:\n    type: number\n"
    "  xs:\n    type: array\n    items: {type: string}\n"
)


def problems(load, body: str, shell: str | None = None) -> list[str]:
    return errors(load, body, PARAMS, shell)


@pytest.mark.parametrize(
    ("body", "shell"),
    [
        pytest.param("if a; then :; elif cmd {{ x }}; then :; fi", None, id="elif"),
        pytest.param("if a; then :; else cmd {{ x }}; fi", None, id="else"),
        pytest.param("if :; then A=1 B={{ x }}; fi", None, id="two-assignments"),
        pytest.param("cat <<EOF > {{ x }}\nhi\nEOF", None, id="heredoc-redirect-target"),
        pytest.param("[[ ( {{ x }} == a ) ]]", "bash", id="parenthesized-test"),
        pytest.param("[[ {{ x }} ]]", "bash", id="lone-word-test"),
        pytest.param("[ {{ x }} ]", None, id="lone-word-bracket"),
        pytest.param("[[ {{ f }} -gt 0 ]]", "bash", id="number-compared"),
        pytest.param("export {{ n }}", None, id="integer-to-export"),
        pytest.param("local {{ f }}", None, id="number-to-local"),
        pytest.param("for (( i=0; i<3; i++ )); do echo {{ x }}; done", "bash", id="c-for-body"),
        # declare's options, and only they, mark names evaluated
        pytest.param("declare -r k\nk={{ x }}", None, id="readonly-flag"),
        pytest.param("declare Xa\nXa={{ x }}", None, id="plain-name-with-a"),
        pytest.param("declare -X k\nk={{ x }}", None, id="invalid-option"),
    ],
)
def test_accepted(load, body: str, shell: str | None) -> None:
    assert problems(load, body, shell) == []


WHY = "which is not one of the places where bash and sh pass a value on as data"
SH_LACKS = "which sh (dash) does not have; write shell: bash in the frontmatter"


@pytest.mark.parametrize(
    ("body", "shell", "phrase"),
    [
        # [[ … ]] compares these as arithmetic, evaluating a[$(…)]
        *(
            pytest.param(
                f"[[ {{{{ x }}}} {op} 1 ]]", "bash", f"is compared with {op} in [[ … ]]", id=op
            )
            for op in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge")
        ),
        # bash-only forms under sh
        pytest.param(
            "diff <(sort {{ x }}) f",
            "sh",
            "stands in a process substitution <( … ), " + SH_LACKS,
            id="sh-process-substitution",
        ),
        pytest.param("a=({{ x }})", "sh", "stands in an array ( … ), " + SH_LACKS, id="sh-array"),
        pytest.param(
            "cat <<< {{ x }}", "sh", "stands in a here-string <<<, " + SH_LACKS, id="sh-here-string"
        ),
        pytest.param("[[ {{ x }} == a ]]", "sh", "stands in [[ … ]], " + SH_LACKS, id="sh-test"),
        # places that are not data
        pytest.param(
            "a[{{ x }}]=1", "bash", "stands in an array subscript, " + WHY, id="subscript"
        ),
        pytest.param(
            "a[{{ n }}]=1", "bash", "stands in an array subscript, " + WHY, id="subscript-integer"
        ),
        pytest.param(
            "a[{{ x }}]=1",
            "bash",
            '(x={{ x }} on a line of its own) and use "$x" there',
            id="subscript-advice",
        ),
        pytest.param(
            "echo $[ {{ x }} ]", "bash", "stands inside arithmetic, " + WHY, id="old-arithmetic"
        ),
        pytest.param(
            "echo $[ 1 + {{ n }} ]",
            "bash",
            "stands inside arithmetic; values stay out",
            id="old-arithmetic-integer",
        ),
        pytest.param(
            "unset {{ n }}",
            None,
            "stands in a unset command; values stay out of it",
            id="unset-integer",
        ),
        # builtins that read names
        pytest.param(
            "unset {{ x }}",
            None,
            "is given to unset, which reads its arguments as variable names",
            id="unset",
        ),
        pytest.param("command -p read {{ x }}", None, "is given to read,", id="command-p"),
        pytest.param("command builtin read {{ x }}", None, "is given to read,", id="two-prefixes"),
        pytest.param("[ -R {{ x }} ]", None, "is given to [ -v,", id="bracket-R"),
        pytest.param("[[ -R {{ x }} ]]", "bash", "is given to [[ -v,", id="double-R"),
        pytest.param("[ a = b -o -v {{ x }} ]", None, "is given to [ -v,", id="bracket-or-v"),
        pytest.param("[ a = b -o -R {{ x }} ]", None, "is given to [ -v,", id="bracket-or-R"),
        # assignments bash evaluates
        pytest.param(
            "declare -i k\nk[1]={{ x }}",
            "bash",
            "is assigned to k, whose assignments",
            id="integer-element",
        ),
        pytest.param(
            "declare -i k[0]=1\nk={{ x }}",
            "bash",
            "is assigned to k, whose assignments",
            id="integer-array-declared-with-element",
        ),
        pytest.param(
            "declare -i k={{ x }}",
            None,
            "is assigned to k, whose assignments",
            id="declare-i-value",
        ),
        pytest.param(
            "if :; then X={{ xs }}; fi",
            None,
            "array placeholder {{ xs }} right after X= assigns the first element",
            id="array-assigned",
        ),
        pytest.param(
            "if :; then X+={{ xs }}; fi",
            None,
            "array placeholder {{ xs }} right after X+= assigns the first element",
            id="array-appended",
        ),
    ],
)
def test_refused(load, body: str, shell: str | None, phrase: str) -> None:
    found = problems(load, body, shell)
    assert any(phrase in text for text in found), found


def test_old_arithmetic_asks_for_an_integer(load) -> None:
    (message,) = problems(load, "echo $[ 1 + {{ x }} ]", "bash")
    assert message.endswith("evaluates the value as an expression; make x an integer parameter")
    # a number is no expression, but $[ … ] is no place for a value either
    (message,) = problems(load, "echo $[ 1 + {{ f }} ]", "bash")
    assert "make f an integer parameter" not in message


@pytest.mark.parametrize(
    ("body", "message"),
    [
        # tree-sitter-bash files these words as more targets of the redirection; bash reads
        # them as arguments of the command (test_values_never_code shows the danger)
        ("declare 2>/dev/null -i k\nk={{ x }}", "is assigned to k, whose assignments bash"),
        ("read <f -r {{ x }}", "is given to read,"),
        ("command <f read {{ x }}", "is given to read,"),
        ("declare >f {{ x }}=1", "is given to declare,"),
        ("{ echo; } >f {{ x }}", "stands after a redirection's target, where the checks"),
        ("echo <f a | read <g {{ x }}", "is given to read,"),
        # names and options bash works out from the text: globs, braces, quotes
        ("rea? {{ x }}", "is given to a command whose name bash works out from the text"),
        ("echo a; rea* {{ x }}", "is given to a command whose name bash works out from the text"),
        ("command [ {{ x }} {{ y }} ]", "is given to [ right after another value, which may"),
        ("printf {{ x }}{{ y }}", "is given to printf where it reads its options"),
        ("printf -x{{ x }} %s", "is given to printf where it reads its options"),
        ("printf 'a'* {{ x }}", "is given to printf after 'a'*, which bash works out"),
        # a section left out may leave the value where printf reads its options
        ("printf {{# b }}%s {{/ b }}{{ x }}", "is given to printf where it reads its options"),
        # the advice names the fix for each command
        ("printf {{ x }} %s", "put the format first (printf %s {{ x }}), or -- before the"),
        ("test {{ x }} {{ y }}", "write the operator in the file (test -n {{ x }}, test {{"),
        ("command [ {{ x }} {{ y }} ]", "file ([ -n {{ x }} ], [ {{ x }} = {{ y }} ])"),
        ("unset 2>f {{ x }}", "is given to unset,"),
        ("declare 2>/dev/null -i Xk\nXk={{ x }}", "is assigned to Xk, whose assignments bash"),
        ("declare 2>/dev/null -i k+=1\nk={{ x }}", "is assigned to k, whose assignments bash"),
    ],
)
def test_a_commands_words_are_read_as_bash_reads_them(load, body, message) -> None:
    found = problems(load, body, "bash")
    assert any(message in text for text in found), found


@pytest.mark.parametrize(
    "body", ["echo >f {{ x }}", "cat <f {{ x }} >g", "echo a | cat 2>/dev/null {{ x }}"]
)
def test_data_words_after_a_redirection_are_allowed(load, body) -> None:
    assert problems(load, body, "bash") == []


@pytest.mark.parametrize(
    "body",
    [
        "printf %s {{ x }}",
        "printf -- {{ x }}",
        'printf "$fmt" {{ x }}',
        "printf '%s\\n' {{ x }} {{ y }}",
        "printf -v out %s {{ x }}",
        "test {{ x }} = {{ y }}",
        "test -n {{ x }}",
        "ls *.txt {{ x }}",
        "'rea?' {{ x }}",
        "echo {a,b} {{ x }}",
        '"$PYTHON" script.py {{ x }}',
        "${EDITOR:-vi} {{ x }}",
    ],
)
def test_values_after_words_read_as_written_are_allowed(load, body) -> None:
    assert problems(load, body, "bash") == []


@pytest.mark.parametrize(
    ("body", "advice"),
    [
        ("printf {{ x }} %s", "; put the format first (printf %s {{ x }}), or -- before the value"),
        (
            "test {{ x }} {{ y }}",
            "; write the operator in the file (test -n {{ x }}, test {{ x }} = {{ y }})",
        ),
        (
            "command [ {{ x }} {{ y }} ]",
            "; write the operator in the file ([ -n {{ x }} ], [ {{ x }} = {{ y }} ])",
        ),
    ],
)
def test_an_option_refusal_ends_with_its_fix(load, body, advice) -> None:
    (message,) = problems(load, body, "bash")
    assert message.endswith(advice), message


# A command name that may expand to nothing: bash then runs the next word, the value, as the
# command (shown in real bash first, with the value touch and a PWNED word after it).
VANISHING = ["$v", "${v:-}", "$(true)", "`true`", "$@", '"$@"', '"${a[@]}"', "$v $w", "$v$w"]
STAYING = ['"$v"', '"$*"', "$((0))", "$v a", '$v""', "${#v}", "${v:?}", "${v:=ls}"]


@pytest.mark.parametrize("first", [*VANISHING, "command $v"])
def test_a_value_after_a_name_that_may_vanish_is_refused(tmp_path, load, first: str) -> None:
    body = f"{first} {{{{ x }}}} PWNED"
    script = body.replace("{{ x }}", "touch")
    subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, check=False)
    assert (tmp_path / "PWNED").exists()
    [message] = problems(load, body, "bash")
    name = first.removeprefix("command ").split()[0]  # the word the message quotes
    assert f"placeholder {{{{ x }}}} follows only {name}, which may expand to nothing (unset, " in (
        message
    )
    assert "empty, or no words): then the value is the command name" in message


@pytest.mark.parametrize("first", STAYING)
def test_a_value_after_a_name_that_stays_a_word_loads(tmp_path, load, first: str) -> None:
    body = f"{first} {{{{ x }}}} PWNED"
    script = body.replace("{{ x }}", "touch")
    subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, check=False)
    assert not (tmp_path / "PWNED").exists()
    assert problems(load, body, "bash") == []


def test_the_fix_quotes_the_name(load) -> None:
    [message] = problems(load, "$v {{ x }}", "bash")
    assert 'quote it ("$v" stays one word) or name the program in the file' in message
    [message] = problems(load, '"$@" {{ x }}', "bash")
    assert "; name the program in the file" in message


# [[ … -eq … ]] evaluates each side as arithmetic, a unary -, ~ or ! around the value too.
@pytest.mark.parametrize(
    "body",
    ["[[ ~{{ x }} -eq 1 ]]", "[[ -{{ x }} -eq 1 ]]", "[[ 1 -lt !{{ x }} ]]",
     "[[ ! {{ x }} -eq 1 ]]", "[[ ( {{ x }} -ge 1 ) ]]"],
)  # fmt: skip
def test_a_value_under_a_unary_operator_in_an_arithmetic_test(tmp_path, load, body) -> None:
    script = body.replace("{{ x }}", "'a[$(touch PWNED)]'")
    subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, check=False)
    assert (tmp_path / "PWNED").exists()
    [message] = problems(load, body, "bash")
    assert "in [[ … ]], which evaluates both sides as arithmetic" in message


@pytest.mark.parametrize("body", ["[[ -n ~{{ x }} ]]", "[[ {{ x }} == 1 && 1 -eq 1 ]]"])
def test_a_value_in_a_string_test_beside_arithmetic_loads(load, body) -> None:
    assert problems(load, body, "bash") == []
