"""Builtins that read an argument as a variable name, a subscript or code, and variables
whose assignment bash evaluates: a placeholder given to any of them is refused at load.

The words are listed here, not imported from the plugin, so that dropping one from the
plugin's lists fails a test. Where bash shows the danger, the row is first run unchecked in
the real bash and must create the marker file; the others (``export``, ``getopts``, ``bind``…)
read names or code only in some forms or some bash versions and are refused all the same.
"""

from __future__ import annotations

import pytest

from .conftest import frontmatter
from .test_values_never_code import ALL_PARAMS, MARKER, TOUCH, problems, run_unchecked

SUBSCRIPT = f"a[$({TOUCH})]"

# (body, value of x, the builtin the message names): shown to run the value in real bash
DANGEROUS = [
    ("read {{ x }} <<< 1", SUBSCRIPT, "read"),
    ("mapfile -C {{ x }} -c 1 arr <<< a", f"{TOUCH} #", "mapfile"),
    ("readarray -C {{ x }} -c 1 arr <<< a", f"{TOUCH} #", "readarray"),
    ("let {{ x }}", SUBSCRIPT, "let"),
    ("declare {{ x }}=1", SUBSCRIPT, "declare"),
    ("typeset {{ x }}=1", SUBSCRIPT, "typeset"),
    ("f() { local {{ x }}=1; }; f", SUBSCRIPT, "local"),
    ("declare -a a; unset {{ x }}", SUBSCRIPT, "unset"),
    ("sleep 0 & wait -n -p {{ x }}", SUBSCRIPT, "wait"),
    ("compgen -W {{ x }} a", f"$({TOUCH})", "compgen"),
    ("shopt -s expand_aliases; alias {{ x }}\nx", f"x={TOUCH}", "alias"),
    ("hash -p {{ x }} ls; ls " + MARKER, "/usr/bin/touch", "hash"),
    ("printf -v {{ x }} %s 1", SUBSCRIPT, "printf -v"),
    ("test -v {{ x }}", SUBSCRIPT, "test -v"),
    ("command read {{ x }} <<< 1", SUBSCRIPT, "read"),
    ("builtin read {{ x }} <<< 1", SUBSCRIPT, "read"),
    ("time read {{ x }} <<< 1", SUBSCRIPT, "read"),
    ("command [ -v {{ x }} ]", SUBSCRIPT, "[ -v"),
]
# (body, the builtin the message names): refused though this bash does not show the danger
REFUSED_TOO = [
    ("export {{ x }}", "export"),
    ("readonly {{ x }}", "readonly"),
    ("getopts ab {{ x }}", "getopts"),
    ("complete -C {{ x }} cmd", "complete"),
    ("compopt -o {{ x }}", "compopt"),
    ("bind -x {{ x }}", "bind"),
    ("enable -f {{ x }} name", "enable"),
    ("mapfile {{ x }}", "mapfile"),
    ("local {{ x }}", "local"),
    ("unset {{ x }}", "unset"),
    ("test -R {{ x }}", "test -R"),
    ("command [ -R {{ x }} ]", "[ -R"),
    ("printf -v{{ x }} %s 1", "printf -v"),
]
# Where those builtins take data, the value may stand: an option decides.
ALLOWED = [
    "printf %s {{ x }}",
    "printf -- {{ x }}",
    "test {{ x }} = a",
    "test -n {{ x }}",
    "command [ {{ x }} = a ]",
    "command ls {{ x }}",
    "time ls {{ x }}",
    "builtin echo {{ x }}",
    "read -r line <<< {{ x }}",
    "let {{ n }}",
]


@pytest.mark.parametrize(("body", "value", "builtin"), DANGEROUS, ids=[r[0] for r in DANGEROUS])
def test_the_builtin_really_runs_the_value(tmp_path, body: str, value: str, builtin: str) -> None:
    assert run_unchecked(tmp_path, "bash", body, {"x": value}), body


@pytest.mark.parametrize(
    ("body", "builtin"),
    [(body, builtin) for body, _, builtin in DANGEROUS] + REFUSED_TOO,
    ids=[r[0] for r in DANGEROUS] + [r[0] for r in REFUSED_TOO],
)
@pytest.mark.parametrize("before", ["", "echo a; "], ids=["alone", "second"])
def test_a_value_given_to_the_builtin_is_refused(
    load, body: str, builtin: str, before: str
) -> None:
    found = problems(load, before + body, "bash")
    assert any(f"{{{{ x }}}} is given to {builtin}," in text for text in found), found


@pytest.mark.parametrize("body", ALLOWED)
def test_data_arguments_of_those_builtins_are_allowed(load, body: str) -> None:
    result = load(frontmatter(body, ALL_PARAMS, "shell: bash\n"))
    assert [p.format() for p in result.problems] == []


# Variables bash evaluates when assigned (arithmetic, a command search path), and the value
# each must be refused for; BASH_ARGV0 sets $0 and is refused as it changes what the script is.
SPECIAL = ["RANDOM", "SRANDOM", "OPTIND", "HISTCMD", "PATH", "BASH_ARGV0"]


@pytest.mark.parametrize("variable", ["RANDOM", "SRANDOM", "OPTIND", "HISTCMD"])
def test_an_arithmetic_variable_really_runs_the_value(tmp_path, variable: str) -> None:
    assert run_unchecked(tmp_path, "bash", f"{variable}={{{{ x }}}}", {"x": SUBSCRIPT})


@pytest.mark.parametrize("variable", SPECIAL)
@pytest.mark.parametrize("template", ["{var}={{{{ x }}}}", "echo a; {var}={{{{ x }}}} ls"])
def test_a_value_assigned_to_an_evaluated_variable_is_refused(
    load, variable: str, template: str
) -> None:
    found = problems(load, template.format(var=variable), "bash")
    assert any(f"is assigned to {variable}, whose assignments" in text for text in found), found
