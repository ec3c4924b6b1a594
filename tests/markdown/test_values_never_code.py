"""Issue 12: every body that let a value run a command, refused at load.

Each row is first *shown* to be dangerous: rendered with no checks (as the reference renders)
and run by the real shell it names in a scratch directory, the hostile value creates the
marker file. Then the same body, in a tool file, must not load.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tooldrop_markdown import posix_quote, render
from tooldrop_markdown._template import parse, tokenize

from .conftest import frontmatter

MARKER = "PWNED"
TOUCH = f"touch {MARKER}"
SHELLS = {"bash": "/bin/bash", "sh": "/usr/bin/dash"}

PARAMS = (
    "  x:\n    type: string\n  n:\n    type: integer\n"
    "  xs:\n    type: array\n    items: {type: string}\n"
)

# (body, shells it runs under, arguments)
ROWS = [
    pytest.param("echo $'\\'' {{ x }} ' $'\\'''", ("sh",), {"x": f";{TOUCH};"}, id="ansi-in-dash"),
    pytest.param("echo $$'\\''{{ x }}'", ("bash",), {"x": f"$({TOUCH})"}, id="dollar-dollar"),
    pytest.param("echo $[ {{ x }} ]", ("bash",), {"x": f"a[$({TOUCH})]"}, id="old-arith"),
    pytest.param(
        "echo hi >&{{ x }}", ("bash",), {"x": f"out$({TOUCH}).log"}, id="dup-redirect"
    ),
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
    pytest.param(
        "declare -n r={{ x }}; echo $r", ("bash",), {"x": f"a[$({TOUCH})]"}, id="nameref"
    ),
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
