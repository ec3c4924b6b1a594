"""The run-again warnings, program by program and option by option.

A value handed to a program that reads it as code again (``eval``, ``sh -c``, ``perl -e``,
``ssh host``...) loads with a warning that names that program. The tables below are written
out by hand: every program, every option that takes the program text, every wrapper the
command is found past (and every wrapper option that takes a value, so the word after it is
skipped), each with a near miss that must stay quiet.
"""

from __future__ import annotations

import pytest

from tooldrop_markdown._template import tokenize

from .conftest import SHELL_CODE, TELL, frontmatter
from .conftest import warnings as loaded_warnings

PARAMS = "  x:\n    type: string\n  b:\n    type: boolean\n"

PROGRAM = "which runs it as a program: the quotes around the value do not protect it there"


def warnings(load, body: str) -> list[str]:
    """The warning messages of a tool whose body is ``body`` (the tool must load)."""
    return loaded_warnings(load, body, PARAMS)


def run_again(load, body: str) -> list[str]:
    """The run-again warnings of ``body`` (whether or not the tool loads)."""
    result = load(frontmatter(body, PARAMS))
    return [
        m.message for m in result.problems if "is given to" in m.message and m.severity == "warning"
    ]


def one_warning(load, body: str) -> str:
    (message,) = warnings(load, body)
    return message


# ---------------------------------------------------------------- shells and eval
SHELLS = ["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "su", "fish", "csh",
          "tcsh"]  # fmt: skip


@pytest.mark.parametrize("shell", SHELLS)
def test_a_shell_given_the_value_after_c_runs_it_as_shell_code(load, shell: str) -> None:
    message = one_warning(load, f"{shell} -c {{{{ x }}}}")
    assert message.startswith(f"{{{{ x }}}} is given to {shell}, {SHELL_CODE}")
    assert message.endswith(TELL)


@pytest.mark.parametrize("shell", SHELLS)
def test_a_shell_given_the_value_as_a_script_argument_is_quiet(load, shell: str) -> None:
    assert warnings(load, f"{shell} ./script.sh {{{{ x }}}}") == []


@pytest.mark.parametrize(
    ("body", "shell"),
    [
        ("bash --command {{ x }}", "bash"),
        ("sh -ec {{ x }}", "sh"),  # -c in a bundle of options
        ("sh -c -e {{ x }}", "sh"),  # an option after -c: the program is the next operand
        ("sh -c -- {{ x }}", "sh"),
        ("su - root -c {{ x }}", "su"),
        ("sh -c $unset {{ x }}", "sh"),  # $unset may vanish: the value becomes the program
        ("sh -c ${a:-} {{ x }}", "sh"),
        ("sh -c $(true) {{ x }}", "sh"),
        ("sh -c `true` {{ x }}", "sh"),
        ("/bin/sh -c {{ x }}", "sh"),
        ("su -c{{ x }}", "su"),  # su and fish read a value glued to -c (su -c'id' runs id)
        ("fish -c{{ x }}", "fish"),
        ("su --command={{ x }}", "su"),
        ("\\bash -c {{ x }}", "bash"),
    ],
)
def test_the_program_operand_of_c_is_found(load, body: str, shell: str) -> None:
    assert one_warning(load, body).startswith(f"{{{{ x }}}} is given to {shell}, {SHELL_CODE}")


@pytest.mark.parametrize(
    "body",
    ["sh -c 'echo \"$1\"' sh {{ x }}", "sh -c ./run {{ x }}", "bash -x ./script.sh {{ x }}"],
)
def test_a_shell_given_the_value_after_its_program_is_quiet(load, body: str) -> None:
    assert warnings(load, body) == []


@pytest.mark.parametrize(
    ("body", "command"),
    [
        ("eval {{ x }}", "eval"),
        ("trap {{ x }} EXIT", "trap"),
        ("source {{ x }}", "source"),
        (". {{ x }}", "."),
        ("e'va'l {{ x }}", "eval"),  # quotes in a command name are removed
        ('e"va"l {{ x }}', "eval"),
        ("\\eval {{ x }}", "eval"),
    ],
)
def test_eval_and_its_kin_run_the_value_as_shell_code(load, body: str, command: str) -> None:
    message = one_warning(load, body)
    assert message.startswith(f"{{{{ x }}}} is given to {command}, {SHELL_CODE}")


@pytest.mark.parametrize("body", ["alias a={{ x }}", "builtin alias a={{ x }}", "alias {{ x }}"])
def test_a_value_given_to_alias_is_refused_before_any_warning(load, body: str) -> None:
    # alias reads its arguments as names: that refusal is what guards it, and a refused
    # placeholder gets no run-again warning on top
    result = load(frontmatter(body, PARAMS))
    assert not result.tools
    assert [p.severity for p in result.problems] == ["error"]
    assert "is given to alias, which reads its arguments as variable names" in (
        result.problems[0].message
    )


def test_each_placeholder_gets_its_own_warning(load) -> None:
    assert len(warnings(load, "eval {{ x }}\neval {{ x }}")) == 2


# ---------------------------------------------------------------- interpreters
CODE_OPTIONS = [
    ("perl", "-e"), ("perl", "-E"), ("ruby", "-e"),
    ("node", "-e"), ("node", "-p"), ("node", "--eval"), ("node", "--print"),
    ("nodejs", "-e"), ("nodejs", "-p"), ("nodejs", "--eval"), ("nodejs", "--print"),
    ("bun", "-e"), ("bun", "-p"), ("bun", "--eval"), ("bun", "--print"),
    ("deno", "eval"), ("php", "-r"), ("lua", "-e"), ("luajit", "-e"), ("Rscript", "-e"),
    ("R", "-e"), ("osascript", "-e"), ("git", "-c"), ("sed", "-e"), ("sed", "--expression"),
    ("awk", "-e"), ("awk", "--source"), ("gawk", "-e"), ("gawk", "--source"),
    ("python", "-c"), ("python3", "-c"), ("python3.12", "-c"), ("pypy3", "-c"),
]  # fmt: skip


@pytest.mark.parametrize(("program", "option"), CODE_OPTIONS)
def test_an_interpreter_given_the_value_after_its_code_option_warns(
    load, program: str, option: str
) -> None:
    message = one_warning(load, f"{program} {option} {{{{ x }}}}")
    assert message.startswith(f"{{{{ x }}}} is given to {program}, {PROGRAM}")


@pytest.mark.parametrize(("program", "option"), CODE_OPTIONS)
def test_the_code_option_glued_to_the_value_warns(load, program: str, option: str) -> None:
    glue = "=" if option.startswith("--") else ""
    message = one_warning(load, f"{program} {option}{glue}{{{{ x }}}}")
    assert message.startswith(f"{{{{ x }}}} is given to {program}, {PROGRAM}")


@pytest.mark.parametrize(
    ("body", "program"),
    [
        ("perl -ne {{ x }}", "perl"),  # perl -wnle 'BEGIN{print 1}' runs the code
        ("perl -lne {{ x }}", "perl"),
        ("perl -pe {{ x }}", "perl"),
        ("perl -pi -e {{ x }}", "perl"),
        ("perl -0777 -ne {{ x }}", "perl"),
        ("ruby -ne {{ x }}", "ruby"),
        ("python3 -Ic {{ x }}", "python3"),  # python3 -Ic 'print(1)' runs the code
        ("python -uBc {{ x }}", "python"),
    ],
)
def test_a_code_option_bundled_with_others_warns(load, body: str, program: str) -> None:
    assert one_warning(load, body).startswith(f"{{{{ x }}}} is given to {program}, {PROGRAM}")


@pytest.mark.parametrize(
    "body",
    [
        "perl -pie {{ x }}",  # -i takes "e" as the backup suffix: the value is a file
        "perl -Mstrict script.pl {{ x }}",
        "perl -Mmodule {{ x }}",
        "python3 -Wignore {{ x }}",
        "python3 -Xdev {{ x }}",
        "ruby -rsecure {{ x }}",
        "perl script.pl {{ x }}",
        "perl -w script.pl {{ x }}",
        "perl -c {{ x }}",  # -c checks the syntax of the script file the value names
        "perl -e 'print @ARGV' {{ x }}",  # the value is an argument of the program
        "ruby -c {{ x }}",
        "node -c {{ x }}",
        "node app.js {{ x }}",
        "python3 script.py {{ x }}",
        "python3 -m http.server {{ x }}",
        "deno run {{ x }}",
        "git -c core.pager=cat log {{ x }}",
        "git log {{ x }}",
        "php -f {{ x }}",
        "Rscript script.R {{ x }}",
        "tclsh script.tcl {{ x }}",
    ],
)
def test_an_interpreter_given_the_value_as_data_is_quiet(load, body: str) -> None:
    assert warnings(load, body) == []


# ---------------------------------------------------------------- awk and sed
AWK_OR_SED = [
    f"{program} {before}"
    for program in ["awk", "gawk", "mawk", "nawk"]
    for before in ["", "-n ", "-F : ", "-v a=1 ", "-v a=1 -F , "]
] + ["sed ", "sed -n ", "sed -E -n "]


@pytest.mark.parametrize("command", AWK_OR_SED)
def test_the_value_as_the_program_of_awk_or_sed_warns(load, command: str) -> None:
    program = command.split()[0]
    message = one_warning(load, f"{command}{{{{ x }}}}")
    assert message.startswith(
        f"{{{{ x }}}} is given to {program}, which runs it as a program "
        f"(a {program} program can run commands): the quotes"
    )


@pytest.mark.parametrize(
    "body",
    [
        "awk -f prog.awk {{ x }}",
        "awk -fprog.awk {{ x }}",
        "gawk --file {{ x }}",  # the value names the program file
        "awk -f {{ x }}",
        "awk '{ print }' {{ x }}",  # the value is an input file
        "awk -F : '{ print $1 }' {{ x }}",
        "sed -f script.sed {{ x }}",
        "sed -e p {{ x }}",
        "sed --expression p {{ x }}",
        "sed -n p {{ x }}",
        "mawk -e {{ x }}",  # mawk and nawk have no -e: they refuse the line
        "nawk --expression {{ x }}",
    ],
)
def test_awk_or_sed_given_the_value_as_data_is_quiet(load, body: str) -> None:
    assert warnings(load, body) == []


# ---------------------------------------------------------------- ssh, watch, parallel
@pytest.mark.parametrize(
    ("body", "program"),
    [("ssh host {{ x }}", "ssh"), ("watch {{ x }}", "watch"), ("parallel {{ x }}", "parallel"),
     ("watch -n 5 ls {{ x }}", "watch")],
)  # fmt: skip
def test_a_program_that_joins_its_arguments_for_a_shell_warns(load, body, program) -> None:
    message = one_warning(load, body)
    assert message == (
        f"{{{{ x }}}} is given to {program}, which joins its arguments into a command line "
        "for a shell: the value would run there as code. Pass it on stdin, or quote it for "
        "that shell too"
    )


# ---------------------------------------------------------------- the reading budget
def test_a_body_one_token_past_the_budget_is_read_once_and_says_so(load) -> None:
    # The check reads each shape while sections x tokens stays within 200,000; this body is
    # 163 sections x 1,227 tokens = 200,001 (the 572 placeholders glued in one word pad it)
    body = (
        "echo " + "{{ x }}" * 572 + "\necho" + " {{#b}} w {{/b}}" * 162
        + "\nawk {{#b}}'{print}'{{/b}} {{ x }}"
    )  # fmt: skip
    assert len(tokenize(body)) * 163 == 200_001
    result = load(frontmatter(body, PARAMS))
    said = [p.message for p in result.problems if "too many for the check" in p.message]
    assert len(said) == 1
    assert said[0].startswith("this body has 163 sections, too many for the check")
