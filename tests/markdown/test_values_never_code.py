"""Issue 12: every body that let a value run a command, refused at load.

Each row is first *shown* to be dangerous: rendered with no checks (as the reference renders)
and run by the real shell it names in a scratch directory, the hostile value creates the
marker file. Then the same body, in a tool file, must not load.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tooldrop_markdown import posix_quote, render
from tooldrop_markdown._template import parse, tokenize

from .conftest import errors, frontmatter

MARKER = "PWNED"
TOUCH = f"touch {MARKER}"
SHELLS = {"bash": "/bin/bash", "sh": "/usr/bin/dash"}

PARAMS = (
    "  x:\n    type: string\n  y:\n    type: string\n  n:\n    type: integer\n"
    "  xs:\n    type: array\n    items: {type: string}\n"
)

# (body, shells it runs under, arguments)
ROWS = [
    pytest.param("echo $'\\'' {{ x }} ' $'\\'''", ("sh",), {"x": f";{TOUCH};"}, id="ansi-in-dash"),
    pytest.param("echo $$'\\''{{ x }}'", ("bash",), {"x": f"$({TOUCH})"}, id="dollar-dollar"),
    pytest.param("echo $[ {{ x }} ]", ("bash",), {"x": f"a[$({TOUCH})]"}, id="old-arith"),
    pytest.param("echo hi >&{{ x }}", ("bash",), {"x": f"out$({TOUCH}).log"}, id="dup-redirect"),
    pytest.param(
        "echo \\\n#{{ x }}", ("bash", "sh"), {"x": f"a\n{TOUCH} #"}, id="continued-comment"
    ),
    pytest.param("x=(( {{ x }} ))", ("bash",), {"x": f"a\n{TOUCH} #"}, id="array-arith"),
    pytest.param("echo $(( 1) {{ x }} ))", ("sh",), {"x": f"a$({TOUCH})"}, id="arith-paren"),
    pytest.param("X=a{{ xs }}", ("bash",), {"xs": ["b", "touch", MARKER]}, id="array-glued"),
    pytest.param("[[ {{ x }} -gt 0 ]]", ("bash",), {"x": f"a[$({TOUCH})]"}, id="test-arith"),
    pytest.param("test -v {{ x }}", ("bash",), {"x": f"a[$({TOUCH})]"}, id="test-v"),
    pytest.param("[ -v {{ x }} ]", ("bash",), {"x": f"a[$({TOUCH})]"}, id="bracket-v"),
    pytest.param("printf -v {{ x }} %s 1", ("bash",), {"x": f"a[$({TOUCH})]"}, id="printf-v"),
    pytest.param("read {{ x }} <<< 1", ("bash",), {"x": f"a[$({TOUCH})]"}, id="read"),
    pytest.param("declare {{ x }}=1", ("bash",), {"x": f"a[$({TOUCH})]"}, id="declare"),
    pytest.param("let {{ x }}", ("bash",), {"x": f"a[$({TOUCH})]"}, id="let"),
    pytest.param("declare -n r={{ x }}; echo $r", ("bash",), {"x": f"a[$({TOUCH})]"}, id="nameref"),
    # tree-sitter-bash files the words after a redirection in the middle of a command as
    # more targets of it; bash reads them as the command's arguments
    pytest.param("read </dev/null {{ x }}", ("bash",), {"x": f"a[$({TOUCH})]"}, id="read-after-<"),
    pytest.param(
        "printf 2>/dev/null -v {{ x }} %s 1",
        ("bash",),
        {"x": f"a[$({TOUCH})]"},
        id="printf-after-2>",
    ),
    pytest.param(
        "echo a | read 2>/dev/null {{ x }}",
        ("bash",),
        {"x": f"a[$({TOUCH})]"},
        id="piped-read-after-2>",
    ),
    pytest.param(
        "declare 2>/dev/null -i k\nk={{ x }}",
        ("bash",),
        {"x": f"a[$({TOUCH})]"},
        id="declare-i-after-2>",
    ),
    pytest.param(
        "declare -a a; unset 2>/dev/null {{ x }}",
        ("bash",),
        {"x": f"a[$({TOUCH})]"},
        id="unset-after-2>",
    ),
    # printf and test read options from what comes first: a value there may be -vNAME
    pytest.param("printf {{ x }} %s 1", ("bash",), {"x": f"-va[$({TOUCH})]"}, id="printf-first"),
    pytest.param(
        "printf -v v {{ x }} 1", ("bash",), {"x": f"-va[$({TOUCH})]"}, id="printf-after-v-name"
    ),
    pytest.param(
        "printf $fmt {{ x }} %s 1", ("bash",), {"x": f"-va[$({TOUCH})]"}, id="printf-vanish"
    ),
    pytest.param(
        "test {{ x }} {{ y }}", ("bash",), {"x": "-v", "y": f"a[$({TOUCH})]"}, id="test-two-values"
    ),
    # words the checks must read as bash does: braces, quotes, $'…' spell -v or a builtin
    pytest.param(
        "printf {-v,} {{ x }} %s 1", ("bash",), {"x": f"a[$({TOUCH})]"}, id="printf-braces"
    ),
    pytest.param(
        'printf "-v" {{ x }} %s 1', ("bash",), {"x": f"a[$({TOUCH})]"}, id="printf-quoted-v"
    ),
    pytest.param("test {-v,} {{ x }}", ("bash",), {"x": f"a[$({TOUCH})]"}, id="test-braces"),
    pytest.param("re{a,}d {{ x }} <<< 1", ("bash",), {"x": f"a[$({TOUCH})]"}, id="read-braces"),
    pytest.param("$'read' {{ x }} <<< 1", ("bash",), {"x": f"a[$({TOUCH})]"}, id="read-ansi"),
    pytest.param('$"read" {{ x }} <<< 1', ("bash",), {"x": f"a[$({TOUCH})]"}, id="read-translated"),
    pytest.param("r$'e'ad {{ x }} <<< 1", ("bash",), {"x": f"a[$({TOUCH})]"}, id="read-ansi-piece"),
]


def run_unchecked(tmp_path: Path, shell: str, body: str, args: dict[str, object]) -> bool:
    """Render ``body`` with no checks, run it under ``shell`` in a fresh directory; whether
    the marker appeared."""
    template, _ = parse(body, tokenize(body))
    script = render(template, args, posix_quote)
    where = tmp_path / shell
    where.mkdir()
    subprocess.run(
        [SHELLS[shell], "-c", script], cwd=where, capture_output=True, timeout=10, check=False
    )
    return (where / MARKER).exists()


@pytest.mark.parametrize(("body", "shells", "args"), ROWS)
def test_the_row_really_runs_the_value(
    tmp_path: Path, body: str, shells: tuple[str, ...], args: dict[str, object]
) -> None:
    for shell in shells:
        assert run_unchecked(tmp_path, shell, body, args), (shell, body)


@pytest.mark.parametrize(("body", "shells", "args"), ROWS)
def test_the_row_is_refused_at_load(load, body: str, shells: tuple[str, ...], args: object) -> None:
    for shell in (*shells, None):
        extra = "" if shell is None else f"shell: {shell}\n"
        result = load(frontmatter(body, PARAMS, extra))
        assert result.tools == (), (shell, [p.format() for p in result.problems])
        assert any(p.field == "body" and p.severity == "error" for p in result.problems)


ALL_PARAMS = PARAMS + "  b:\n    type: boolean\n"


def problems(load, body: str, shell: str | None = None) -> list[str]:
    return errors(load, body, ALL_PARAMS, shell)


@pytest.mark.parametrize(
    ("body", "shell"),
    [
        ("V={{ x }} cmd -- {{ x }} a{{ x }}b > {{ x }} 2>&1 < {{ x }} &>> {{ x }}", None),
        ('f() { local v={{ x }}; echo "$v"; }\nf', None),
        ("export V={{ x }}; readonly W={{ x }}", None),
        ("case {{ x }} in {{ x }}|b) ;; esac", None),
        ('for v in {{ xs }} {{ x }}; do echo "$v"; done', None),
        ("[[ {{ x }} == a* && -n {{ x }} || {{ x }} =~ b ]] && echo", "bash"),
        ("[[ {{ n }} -gt 0 ]] && declare -i k={{ n }} && let {{ n }}", "bash"),
        ("[ {{ x }} -eq 1 ] && test {{ x }} = b", None),
        ("read -r line <<< {{ x }}", "bash"),
        ("printf -v out %s {{ x }} && printf '%s\\n' {{ xs }}", None),
        ("a=({{ xs }} {{ x }})", "bash"),
        ("echo $'a' {{ x }}", "bash"),
        ("if grep -q {{ x }} f; then ! cmd {{ x }} | sort; fi", None),
        ("while read -r l; do echo {{ x }}; done < f", None),
        ("( cd d && ls {{ x }} ) && { echo {{ x }}; }", None),
        ("diff <(sort {{ x }}) f", "bash"),
        ("a[1]={{ x }}", "bash"),
    ],
)
def test_allowed_positions(load, body: str, shell: str | None) -> None:
    assert problems(load, body, shell) == []


@pytest.mark.parametrize(
    ("body", "shell", "message"),
    [
        ("{{ x }} --help", None, "stands where the command name goes"),
        ("RANDOM={{ x }}", None, "is assigned to RANDOM, whose assignments bash evaluates"),
        ("declare -i k\nk={{ x }}", None, "is assigned to k, whose assignments bash evaluates"),
        ("PATH={{ x }} ls", None, "is assigned to PATH"),
        ("LD_PRELOAD={{ x }} ls", None, "is assigned to LD_PRELOAD, which makes the shell"),
        ("declare -a a={{ x }}", None, "is assigned to a, whose assignments bash evaluates"),
        ("export {{ x }}", None, "is given to export, which reads its arguments as variable"),
        ("echo hi 2>&{{ x }}", None, "stands after >&"),
        ("cat <&{{ x }}", None, "stands after <&"),
        ("echo $[ {{ x }} ]", "bash", "inside arithmetic"),
        ("[[ {{ x }} == a ]]", "sh", "stands in [[ … ]], which sh (dash) does not have"),
        ("a=({{ x }})", "sh", "which sh (dash) does not have"),
        ("cat <<< {{ x }}", "sh", "which sh (dash) does not have"),
        ("echo $'a' {{ x }}", "sh", "comes after a $'…' string"),
        ("echo $'a' {{ x }}", None, "comes after a $'…' string"),
        ("compgen -W {{ x }}", None, "is given to compgen"),
        ("printf -v {{ x }} %s 1", None, "is given to printf -v"),
        ("printf -v{{ x }} %s 1", None, "is given to printf -v"),
        ("command read {{ x }}", None, "is given to read"),
        ("builtin let {{ x }}", None, "is given to let"),
        ("[[ {{ x }} -lt 1 ]]", "bash", "is compared with -lt in [[ … ]]"),
        ("[[ -v {{ x }} ]]", "bash", "is given to [[ -v"),
        ("(( {{ n }} > 1 ))", "bash", "inside arithmetic"),
        ("echo ${x:-{{ x }}}", None, "inside ${ … }"),
        ("a[{{ x }}]=1", "bash", None),
        ("echo {{ xs }}x", None, "array placeholder {{ xs }} is glued to other text"),
        ("cat > {{ xs }}", None, "array placeholder {{ xs }} stands in a file redirect"),
        ("case {{ xs }} in a) ;; esac", None, "array placeholder"),
        ("{{# b }}ls {{/ b }}{{ x }} a", None, "stands where the command name goes"),
        ("{{^ b }}ls {{/ b }}{{ x }} a", None, "stands where the command name goes"),
        # sections whose absence is not a plain argument dropped: each shape is parsed
        ("echo a{{# b }} \\{{/ b }}\n{{ x }} --help", None, "stands where the command name goes"),
        ("echo b{{# b }}c {{/ b }}{{ xs }}", None, "array placeholder {{ xs }} is glued to other"),
        ("echo {{ xs }}{{# b }} c{{/ b }}d", None, "array placeholder {{ xs }} is glued to other"),
        ("echo a; x=(( {{ x }} ))", "bash", "a script that the checks cannot parse"),
        (";V={{ x }}", None, "a script that the checks cannot parse"),  # plain, but broken
        ("echo a | ;V={{ x }}", None, "a script that the checks cannot parse"),
        ("echo $(( 1) {{ x }} ))", None, None),
        ("echo \\\n#{{ x }}", None, None),
    ],
)
def test_refused_positions(load, body: str, shell: str | None, message: str | None) -> None:
    found = problems(load, body, shell)
    if message is None:
        result = load(frontmatter(body, ALL_PARAMS, "" if shell is None else f"shell: {shell}\n"))
        assert result.problems, body
        return
    assert any(message in text for text in found), found


@pytest.mark.parametrize(
    ("body", "program"),
    [
        ("if eval {{ x }}; then :; fi", "eval"),
        ("\\eval {{ x }}", "eval"),
        ("bash -ec {{ x }}", "bash"),
        ("sudo -u me bash -c {{ x }}", "bash"),
        ("xargs sh -c {{ x }} < f", "sh"),
        ("timeout 5 bash -c {{ x }}", "bash"),
        ("find . -name a -exec sh -c {{ x }} \\;", "sh"),
        ("python3 -c {{ x }}", "python3"),
        ("perl -e {{ x }}", "perl"),
        ("node -e {{ x }}", "node"),
        ("ruby -e {{ x }}", "ruby"),
        ("awk {{ x }} file", "awk"),
        ("sed -e {{ x }} file", "sed"),
        ("! command env A=1 nice -n 5 bash -lc {{ x }}", "bash"),
        (". {{ x }}", "."),
        ("watch {{ x }}", "watch"),
        ("git -c {{ x }} status", "git"),
        ("sudo {{ x }}", "a wrapper that runs its arguments as a command"),
        # found by the property test with a larger budget: $(( )) and $( ) are words, not
        # separators, and an unquoted expansion before the value may vanish
        ("eval $((x)) {{ x }}", "eval"),
        ("eval $(date) {{ x }} & echo", "eval"),
        ("sh -c $script {{ x }}", "sh"),
        ("bash -c ${cmd}$(true) {{ x }}", "bash"),
        # a redirection is no separator, and its target no argument (found by the property
        # test once it put redirections anywhere in a command)
        ("eval a 2>& 1 {{ x }}*.md", "eval"),
        ("sh -c 2>&1 {{ x }}", "sh"),
        ("eval >f {{ x }}", "eval"),
        ("echo a >& 2; eval b {{ x }}", "eval"),
        # a substitution with blanks inside is one word, and may vanish (seed 5)
        ("bash -c `sort ${!x}` {{ x }} $1", "bash"),
        ("bash -c $(date +%s) {{ x }}", "bash"),
        ("bash -c ${x:-a b} {{ x }}", "bash"),
        ("eval `true; echo` {{ x }}", "eval"),
        # a line continuation, a quoted or an escaped separator ends no command (seed 9191)
        ("sh -c \\\n {{ x }}", "sh"),
        ("eval 'a;b' {{ x }}", "eval"),
        ('eval "a|b" {{ x }}', "eval"),
        ("eval a\\; {{ x }}", "eval"),
    ],
)
def test_values_given_to_code_runners_warn(load, body: str, program: str) -> None:
    result = load(frontmatter(body, ALL_PARAMS))
    assert len(result.tools) == 1, [p.format() for p in result.problems]
    (warning,) = result.problems
    assert warning.severity == "warning"
    assert f"{{{{ x }}}} is given to {program}" in warning.message


@pytest.mark.parametrize(
    "body",
    [
        "bash -c 'printf %s \"$1\"' _ {{ x }}",  # the value is $1: data
        'bash -c "$script" {{ x }}',  # a quoted expansion never vanishes: the value is $0
        "echo $((1 + 2)) {{ x }}",
        "awk '{ print $1 }' {{ x }}",
        "awk -v v={{ x }} 'BEGIN { print v }'",
        "python3 script.py {{ x }}",
        "perl -ne 'print' {{ x }}",
        "sudo -u me ls {{ x }}",
        "git log -- {{ x }}",
        "find . -name {{ x }}",
        "eval a > {{ x }}",  # the value is a file name
        "sh -c 'echo' 2>&1 {{ x }}",
    ],
)
def test_data_arguments_of_those_programs_do_not_warn(load, body: str) -> None:
    assert load(frontmatter(body, ALL_PARAMS)).problems == ()


def test_an_env_that_makes_git_status_run_a_command_is_refused(load, tmp_path: Path) -> None:
    env = {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "core.fsmonitor",
        "GIT_CONFIG_VALUE_0": f"{TOUCH}; false",
    }
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "f").write_text("x")
    subprocess.run(
        ["git", "status", "--short"], cwd=repo, env={**os.environ, **env}, capture_output=True,
        timeout=30, check=False,
    )  # fmt: skip
    assert (repo / MARKER).exists()  # the danger is real
    extra = "env:\n" + "".join(f"  {k}: '{v}'\n" for k, v in env.items())
    result = load(frontmatter("git status --short", "", extra))
    assert result.tools == ()
    assert any(
        p.field.startswith("env.GIT_CONFIG") and "GIT_CONFIG*" in p.message for p in result.problems
    )


@pytest.mark.parametrize(
    "body",
    [
        "awk {{# b }}'{ print }'{{/ b }} {{ x }}",  # without b, the value is the program
        "awk {{# b }}-f prog.awk {{/ b }}{{ x }}",  # the placeholder right after the section
    ],
)
def test_a_runner_is_found_in_every_shape_of_the_sections(load, body: str) -> None:
    (warning,) = load(frontmatter(body, ALL_PARAMS)).problems
    assert "{{ x }} is given to awk" in warning.message


@pytest.mark.parametrize(
    "body",
    [
        "printf -v {{# b }}name {{/ b }}{{ x }} %s",  # without b, the value is the name
        "echo {{# b }}a; read{{/ b }} {{ x }}",
        "X=1 {{# b }}ls {{/ b }}{{ x }}",
    ],
)
def test_a_position_is_judged_in_every_shape_of_the_sections(load, body: str) -> None:
    assert problems(load, body, "bash"), body


@pytest.mark.parametrize("body", ['e"va"l {{ x }}', "'eval' {{ x }}", "ev\\al {{ x }}"])
def test_a_quoted_or_escaped_runner_name_still_warns(load, body: str) -> None:
    (warning,) = load(frontmatter(body, ALL_PARAMS)).problems
    assert "{{ x }} is given to eval" in warning.message
