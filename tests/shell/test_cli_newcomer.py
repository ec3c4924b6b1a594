"""The real ``tooldrop`` on a terminal and in scripts (issue 20): newline, --json, exit codes."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

TOOLDROP = str(Path(sys.executable).parent / "tooldrop")

TOOL = """---
name: greet
description: Say hello.
approval: never
parameters:
  who:
    type: string
    description: whom
---
printf 'hello %s' {{who}}
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    tools = tmp_path / "p" / ".tooldrop" / "tools"
    tools.mkdir(parents=True)
    (tools / "greet.md").write_text(TOOL)
    (tmp_path / "u").mkdir()
    return tmp_path


def base(tree: Path) -> list[str]:
    return [TOOLDROP, "--project", str(tree / "p"), "--user-dir", str(tree / "u")]


def run(tree: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [*base(tree), *args], capture_output=True, text=True, env=env, input=stdin,
        check=False, timeout=60,
    )  # fmt: skip


def on_a_terminal(
    tree: Path, *args: str, stderr_too: bool = False, **env: str
) -> tuple[int, bytes]:
    """Run with stdout (and stdin) on a pseudo-terminal; everything it wrote, and its status."""
    master, slave = pty.openpty()
    environ = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {"TERM": "xterm"}
    proc = subprocess.Popen(
        [*base(tree), *args], stdin=slave, stdout=slave,
        stderr=slave if stderr_too else subprocess.DEVNULL,
        env=environ | env,
    )  # fmt: skip
    os.close(slave)
    out = b""
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # EIO: the other end closed
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
        code = proc.wait(timeout=30)
    finally:
        os.close(master)
    return code, out


def test_call_on_a_terminal_ends_with_a_newline_and_on_a_pipe_is_exact(tree: Path) -> None:
    code, out = on_a_terminal(tree, "call", "greet", "who=you", "--yes")
    assert code == 0
    assert out.endswith(b"hello you\r\n")
    done = run(tree, "call", "greet", "who=you", "--yes")
    assert done.stdout == "EXIT_CODE: 0\nhello you"


def test_call_json(tree: Path) -> None:
    done = run(tree, "call", "greet", "who=you", "--yes", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["text"] == "EXIT_CODE: 0\nhello you"
    assert (data["is_error"], data["denied"], data["exit_code"]) == (False, False, 0)
    denied = run(tree, "call", "greet", "who=you", "--json")  # no terminal, no --yes
    assert denied.returncode == 2
    assert json.loads(denied.stdout)["denied"] is True


def test_render_json(tree: Path) -> None:
    done = run(tree, "render", "greet", "who=a b", "--json")
    assert (done.returncode, json.loads(done.stdout)) == (0, {"script": "printf 'hello %s' 'a b'"})
    done = run(tree, "render", "greet", "who=1", "extra=2", "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["errors"]
    done = run(tree, "render", "nope", "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["errors"][0].startswith('tooldrop: no tool named "nope"')


def test_trust_status_exits_1_until_trusted_and_speaks_json(tree: Path) -> None:
    done = run(tree, "trust", "--status")
    assert done.returncode == 1
    assert "not trusted (1 project tool)" in done.stdout
    done = run(tree, "trust", "--status", "--json")
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert (data["trusted"], data["tools"]) == (False, ["greet"])
    assert data["project"].endswith(".tooldrop/tools")
    assert run(tree, "trust", stdin="y\n").returncode == 0
    done = run(tree, "trust", "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout)["trusted"] is True


LONG = "Say hello to someone, at length, " + "and on " * 20 + "the end."


def test_list_colours_a_terminal_unless_no_color_and_a_pipe_gets_whole_lines(tree: Path) -> None:
    tool = tree / "p" / ".tooldrop" / "tools" / "greet.md"
    tool.write_text(TOOL.replace("Say hello.", LONG))
    code, out = on_a_terminal(tree, "list", COLUMNS="80")
    assert code == 0
    assert b"\x1b[" in out
    assert LONG.encode() not in out  # cut to the terminal's width
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out.decode())
    (line,) = [line for line in plain.splitlines() if line.startswith("  greet")]
    assert "…" in line and len(line) <= 160, line
    code, out = on_a_terminal(tree, "list", NO_COLOR="1")
    assert code == 0 and b"\x1b[" not in out
    done = run(tree, "list")
    assert done.returncode == 0
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("  greet")]
    assert line == f"  greet  {LONG}  never · read-only"
    assert "\x1b[" not in done.stdout


def test_a_long_call_shows_its_elapsed_time_on_a_terminal_and_erases_it(tree: Path) -> None:
    tool = tree / "p" / ".tooldrop" / "tools" / "slow.md"
    tool.write_text(TOOL.replace("greet", "slow").replace("printf", "sleep 4; printf"))
    code, out = on_a_terminal(tree, "call", "slow", "who=you", "--yes", stderr_too=True)
    assert code == 0
    assert b"\xe2\x80\xa6 slow running " in out  # "… slow running 2s"
    # Erased, then the result: output that ends the call within half a second is not
    # streamed, and the terminal shows the model's text as a pipe would.
    assert out.endswith(b"\x1b[KEXIT_CODE: 0\r\nhello you\r\n")
    done = run(tree, "call", "slow", "who=you", "--yes")  # a pipe: nothing but the text
    assert (done.stdout, "running" in done.stderr) == ("EXIT_CODE: 0\nhello you", False)


WAITS = """---
name: waits
description: Print start, then wait for a file.
approval: never
timeout_ms: 120000
parameters:
  flag:
    type: string
---
echo start
echo warming up >&2
while [ ! -e {{flag}} ]; do sleep 0.05; done
printf 'done'
"""


class Terminal:
    """``tooldrop`` with stdin, stdout and stderr on one pseudo-terminal, read as it writes."""

    def __init__(self, tree: Path, *args: str) -> None:
        self.master, slave = pty.openpty()
        environ = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {"TERM": "xterm"}
        self.proc = subprocess.Popen(
            [*base(tree), *args], stdin=slave, stdout=slave, stderr=slave, env=environ
        )
        os.close(slave)
        self.seen = b""

    def wait_for(self, text: bytes, timeout: float = 60) -> bool:
        """Read until ``text`` has been written (``True``) or the terminal closes."""
        deadline = time.monotonic() + timeout
        while text not in self.seen and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # EIO: the other end closed
                chunk = b""
            if not chunk:
                break
            self.seen += chunk
        return text in self.seen

    def close(self) -> int:
        self.wait_for(b"\0")  # to the end: nothing writes a NUL
        os.close(self.master)
        return self.proc.wait(timeout=30)


def test_a_call_on_a_terminal_streams_its_output_as_it_comes(tree: Path) -> None:
    (tree / "p" / ".tooldrop" / "tools" / "waits.md").write_text(WAITS)
    flag = tree / "flag"
    term = Terminal(tree, "call", "waits", f"flag={flag}", "--yes")
    try:
        # The tool is blocked until the flag exists: what the terminal shows now was streamed.
        assert term.wait_for(b"start\r\n"), term.seen
        assert term.wait_for(b"warming up\r\n"), term.seen
        assert term.proc.poll() is None
        assert b"EXIT_CODE" not in term.seen
        flag.touch()
    finally:
        flag.touch()
        code = term.close()
    assert code == 0
    # The rest of the output, a newline the tool did not print, then only what the model's
    # text adds to what was shown: not the output a second time.
    assert term.seen.endswith(b"done\r\n\x1b[2mEXIT_CODE: 0\x1b[0m\r\n"), term.seen
    assert term.seen.count(b"start") == 1
    # A pipe and --json are unchanged: the model's text alone, framed.
    model = "EXIT_CODE: 0\nSTDERR:\nwarming up\nSTDOUT:\nstart\ndone"
    done = run(tree, "call", "waits", f"flag={flag}", "--yes")
    assert (done.stdout, done.stderr) == (model, "")
    done = run(tree, "call", "waits", f"flag={flag}", "--yes", "--json")
    assert json.loads(done.stdout)["text"] == model
