"""A variable that a declaration makes evaluate its assignments (``declare -i k``, ``-n``,
arrays): a value assigned to it runs ``a[$(…)]``. The declaration is found however bash would
run it, and words the checks cannot read keep them wary.

Each refused row is first run by the real bash with a hostile value (the marker file
appears), then refused at load with the message the author reads; each accepted row is run
too, and leaves no marker."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import bash_runs, errors

MARKER = "PWNED"
HOSTILE = f"a[$(touch {MARKER})]"
PARAMS = "  x:\n    type: string\n"
EVALUATED = "is assigned to k, whose assignments bash evaluates"
UNREADABLE = "is assigned to k, and the script declares names the checks cannot read"

# (body, what the message says)
REFUSED = [
    pytest.param("declare -i k; k={{ x }}", EVALUATED, id="keyword"),
    pytest.param("2>/dev/null declare -i k; k={{ x }}", EVALUATED, id="redirection-first"),
    pytest.param("declare 2>/dev/null -i k\nk={{ x }}", EVALUATED, id="redirection-between"),
    pytest.param(
        "shopt -s lastpipe; echo a | declare 2>/dev/null -i k; k={{ x }}",
        EVALUATED,
        id="last-of-a-pipeline",
    ),
    pytest.param("y=1 declare -i k; k={{ x }}", EVALUATED, id="assignment-first"),
    pytest.param("command declare -i k; k={{ x }}", EVALUATED, id="command-prefix"),
    pytest.param("builtin typeset -i k; k={{ x }}", EVALUATED, id="builtin-prefix"),
    pytest.param("command -p declare -i k; k={{ x }}", EVALUATED, id="prefix-option"),
    pytest.param("\\declare -i k; k={{ x }}", EVALUATED, id="backslash"),
    pytest.param('"declare" -n k; k={{ x }}; echo "$k"', EVALUATED, id="quoted-name"),
    pytest.param("de''clare -i k; k={{ x }}", EVALUATED, id="name-in-pieces"),
    pytest.param('declare "-i" k; k={{ x }}', EVALUATED, id="quoted-option"),
    pytest.param("declare -{i,} k; k={{ x }}", EVALUATED, id="option-in-braces"),
    pytest.param("o=-i; declare $o k; k={{ x }}", EVALUATED, id="option-from-variable"),
    pytest.param("declare -i k=1; k+={{ x }}", EVALUATED, id="declared-with-value"),
    pytest.param("declare -i k[1]=2; k={{ x }}", EVALUATED, id="declared-element"),
    pytest.param("$'declare' -i k; k={{ x }}", EVALUATED, id="ansi-c-name"),
    pytest.param("d=declare; $d -i k; k={{ x }}", EVALUATED, id="name-chosen-when-run"),
    pytest.param("eval 'declare -i k'; k={{ x }}", EVALUATED, id="eval-single"),
    pytest.param('eval "typeset -n k"; k={{ x }}; echo "$k"', EVALUATED, id="eval-double"),
    pytest.param("eval eval \"'declare -i k'\"; k={{ x }}", EVALUATED, id="eval-eval"),
    pytest.param("eval eval eval declare -i k; k={{ x }}", EVALUATED, id="eval-three-deep"),
    pytest.param(
        "shopt -s expand_aliases\nalias d='declare -i'\nd k\nk={{ x }}", EVALUATED, id="alias"
    ),
    pytest.param(
        "shopt -s expand_aliases\nalias eval='declare -i'\neval k\nk={{ x }}",
        EVALUATED,
        id="alias-named-eval",
    ),
    pytest.param('d="declare -i"; $d k; k={{ x }}', EVALUATED, id="chosen-with-its-option"),
    pytest.param("$(echo declare -i) k; k={{ x }}", EVALUATED, id="chosen-by-substitution"),
    pytest.param("f() { command local -i k; k={{ x }}; }; f", EVALUATED, id="command-local"),
    pytest.param("f() { 2>/dev/null local -i k; k={{ x }}; }; f", EVALUATED, id="local"),
    pytest.param('v=k; declare -i "$v"; k={{ x }}', UNREADABLE, id="name-from-variable"),
    pytest.param('v=k; eval "declare -i $v"; k={{ x }}', UNREADABLE, id="eval-of-variable"),
    pytest.param("eval eval eval eval declare -i k; k={{ x }}", UNREADABLE, id="eval-too-deep"),
]

WRITTEN = "whose assignments bash evaluates (declared integer, name reference or array)"
# The value written into the declared variable by the command it stands in.
WRITTEN_INTO = [
    pytest.param("declare -i k; for k in a {{ x }}; do :; done", id="for-variable"),
    pytest.param('declare -n k; for k in {{ x }}; do echo "$k"; done', id="for-nameref"),
    pytest.param("declare -i k; read k <<< {{ x }}", id="read-here-string"),
    pytest.param("declare -i k; read -r a k <<< {{ x }}", id="read-second-name"),
    pytest.param("declare -i k; read k b <<< {{ x }}", id="read-first-of-two"),
    pytest.param("declare -i k; mapfile -t k <<< {{ x }}", id="mapfile"),
    pytest.param("declare -i k; printf -v k %s {{ x }}", id="printf-v"),
    pytest.param("declare -i k; printf -vk %s {{ x }}", id="printf-v-glued"),
    pytest.param("declare -ai k; k=(1 {{ x }})", id="integer-array-elements"),
    pytest.param("declare -ia k; k+=({{ x }})", id="integer-array-appended"),
    pytest.param("declare -i k; printf -v k {{ x }}", id="printf-v-format"),
    pytest.param("declare -ai k; printf -v 'k[1]' %s {{ x }}", id="printf-v-element"),
    pytest.param("declare -ai k; printf -v'k[1]' %s {{ x }}", id="printf-v-glued-element"),
    pytest.param("declare -ai k; readarray -t k <<< {{ x }}", id="readarray"),
    pytest.param("declare -ai MAPFILE; mapfile <<< {{ x }}", id="mapfile-default"),
    pytest.param("declare -i REPLY; read -r <<< {{ x }}", id="read-default"),
    pytest.param("declare -i k; command read k <<< {{ x }}", id="read-behind-command"),
    pytest.param("declare -i k; while read k; do :; done <<< {{ x }}", id="while-read-loop"),
    pytest.param("declare -i k; f() { read k; }; f <<< {{ x }}", id="function-reading"),
]

ACCEPTED = [
    pytest.param('local k; k={{ x }}; echo "$k"', id="plain-local"),
    pytest.param('declare k; k={{ x }}; echo "$k"', id="plain-declare"),
    pytest.param('declare -x k; k={{ x }}; echo "$k"', id="exported"),
    pytest.param('declare -i n; k={{ x }}; echo "$k"', id="another-name"),
    pytest.param("bash -c 'declare -i k'; k={{ x }}", id="another-process"),
    pytest.param('eval "$(echo true)"; k={{ x }}', id="eval-of-output"),
    pytest.param('p=80; eval "echo localhost:$p"; k={{ x }}', id="eval-naming-no-declaration"),
    pytest.param('"$EDITOR" --version; k={{ x }}', id="command-chosen-when-run"),
    pytest.param("export -n k; k={{ x }}", id="unexported"),
    pytest.param("command export -n k; k={{ x }}", id="unexported-behind-command"),
    pytest.param('readonly "$v"; k={{ x }}', id="readonly-gives-no-attribute"),
    pytest.param("$'declare' k; k={{ x }}", id="ansi-c-name-without-attribute"),
    pytest.param('"echo" -i k; k={{ x }}', id="quoted-other-command"),
    pytest.param("printf %s $(date) {{ x }}; k={{ x }}", id="substitution-before-a-value"),
    pytest.param("printf %s $((1 + 1)) {{ x }}", id="arithmetic-before-a-value"),
    pytest.param('"$(echo cat)" {{ x }}', id="command-chosen-by-substitution"),
    pytest.param("declare -i n; for k in {{ x }}; do :; done", id="for-another-variable"),
    pytest.param("declare -i n; read -r k <<< {{ x }}", id="read-another-variable"),
    pytest.param("declare -i n; printf -v k %s {{ x }}", id="printf-another-variable"),
    pytest.param("declare -i n; k=(1 {{ x }})", id="another-array"),
    pytest.param("declare -i n; cat <<< {{ x }}", id="here-string-to-another-program"),
    pytest.param("declare -i k; read k < f; cat <<< {{ x }}", id="here-string-to-cat"),
    pytest.param("declare -i k; while read -r l; do :; done <<< {{ x }}", id="loop-reading-l"),
    pytest.param("<<< {{ x }}", id="here-string-alone"),
]


def run_bash(tmp_path: Path, body: str, value: str = HOSTILE) -> bool:
    return bash_runs(tmp_path, body, value, MARKER)


@pytest.mark.parametrize(("body", "phrase"), REFUSED)
def test_bash_runs_the_value(tmp_path: Path, body: str, phrase: str) -> None:
    assert run_bash(tmp_path, body)


@pytest.mark.parametrize(("body", "phrase"), REFUSED)
def test_the_load_refuses_it(load, body: str, phrase: str) -> None:
    found = errors(load, body, PARAMS, "bash")
    assert any(phrase in m for m in found), found
    assert all("make the parameter an integer" in m for m in found), found


@pytest.mark.parametrize("body", WRITTEN_INTO)
def test_bash_runs_the_value_written_into_it(tmp_path: Path, body: str) -> None:
    # read splits its input into one field per name: the code goes in k's field, unsplit
    code = f"a[$(touch${{IFS}}{MARKER})]"
    value = {"read -r a k": f"b {code}", "read k b": f"{code} b"}
    chosen = next((v for key, v in value.items() if key in body), HOSTILE)
    assert run_bash(tmp_path, body, chosen)


@pytest.mark.parametrize("body", WRITTEN_INTO)
def test_a_value_written_into_it_is_refused(load, body: str) -> None:
    found = errors(load, body, PARAMS, "bash")
    assert any("is written into" in m and WRITTEN in m for m in found), found
    assert all("make the parameter an integer" in m for m in found), found


@pytest.mark.parametrize(
    "body",
    ['declare -i k; n=k; printf -v "$n" %s {{ x }}', 'declare -i k; n=k; read "$n" <<< {{ x }}'],
    ids=["printf-v", "read"],
)
def test_a_value_written_into_a_name_chosen_when_run(tmp_path: Path, load, body: str) -> None:
    assert run_bash(tmp_path, body)
    [message] = errors(load, body, PARAMS, "bash")
    assert "is written into a variable whose name the checks cannot read, which may be k" in (
        message
    )
    assert errors(load, body.replace("declare -i k; ", ""), PARAMS, "bash") == []


def test_a_value_written_into_a_variable_after_an_unreadable_declaration(load) -> None:
    [message] = errors(load, 'declare -i "$v"; read k <<< {{ x }}', PARAMS, "bash")
    assert "is written into k, and the script declares names the checks cannot read" in message
    [message] = errors(load, 'declare -i "$v"; read "$n" <<< {{ x }}', PARAMS, "bash")
    assert "is written into a variable, and the script declares names the checks" in message


def test_a_value_as_printfs_variable_is_given_to_printf_v(load) -> None:
    # the value names the variable: refused as a name, not as written into one
    [message] = errors(load, "declare -i n; printf -v {{ x }} %s 1", PARAMS, "bash")
    assert "is given to printf -v" in message


@pytest.mark.parametrize("body", ACCEPTED)
def test_a_declaration_of_nothing_evaluated_loads(tmp_path: Path, load, body: str) -> None:
    assert not run_bash(tmp_path, body)
    assert errors(load, body, PARAMS, "bash") == []


def test_the_unreadable_declaration_is_quoted(load) -> None:
    [message] = errors(load, 'v=k; declare -i "$v"; k={{ x }}', PARAMS, "bash")
    assert "cannot read 'declare -i \"$v\"', which may give k an attribute" in message


@pytest.mark.parametrize(
    ("body", "loads"),
    [("echo {{ x }}; echo $'a'", True), ("echo $'a' {{ x }}", False)],
    ids=["before", "after"],
)
def test_only_a_value_after_ansi_c_quotes_is_refused_under_sh(load, body: str, loads: bool) -> None:
    # dash reads $'a' as $ and 'a': what follows may be misquoted, not what comes before
    found = errors(load, body, PARAMS, "sh")
    assert found == [] if loads else any("comes after a $'…' string" in m for m in found)


@pytest.mark.parametrize(
    ("body", "variable"),
    [
        ("declare -i kk; printf -vkk %s {{ x }}", "kk"),
        ("declare -i kk; printf -v kk %s {{ x }}", "kk"),
        ("declare -ai kk; printf -v'kk[1]' %s {{ x }}", "kk"),
    ],
)
def test_the_message_names_the_variable_printf_writes(load, body: str, variable: str) -> None:
    [message] = errors(load, body, PARAMS, "bash")
    assert f"is written into {variable}, whose assignments bash evaluates" in message


def test_a_variable_named_like_a_reader_reads_nothing(tmp_path: Path, load) -> None:
    # read=1 assigns a variable named read; the function reads nothing into REPLY
    body = "declare -i REPLY; read=1; f() { cat; }; f <<< {{ x }}"
    assert not run_bash(tmp_path, body)
    assert errors(load, body, PARAMS, "bash") == []
