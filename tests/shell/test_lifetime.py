"""No orphan, ever (issue 13, items 5 and 6): a real ``tooldrop call``, real signals, real shells.

Each test runs the installed ``tooldrop`` as a subprocess with a personal markdown tool whose
body sleeps with a unique marker, stops it the way the world does (``timeout``, ``kill -TERM``,
a closed terminal's SIGHUP, Ctrl-C's SIGINT, SIGKILL), and then looks for any process that
still carries the marker, wherever it was reparented to.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .lifetime import TIMEOUT, describe, kill_all, marker, wait_for, wait_gone

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.name != "posix", reason="POSIX signals and process groups"),
]

TOOLDROP = str(Path(sys.executable).parent / "tooldrop")


class Home:
    def __init__(self, root: Path) -> None:
        self.project = root / "project"
        self.config = root / "config"
        (self.config / "tools").mkdir(parents=True)
        self.project.mkdir()

    def tool(self, name: str, body: str, **front: object) -> None:
        extra = "".join(f"{key}: {value}\n" for key, value in front.items())
        text = f"---\nname: {name}\ndescription: A test tool.\napproval: never\n{extra}---\n"
        (self.config / "tools" / f"{name}.md").write_text(text + textwrap.dedent(body))

    def env(self) -> dict[str, str]:
        return {**os.environ, "TOOLDROP_CONFIG_DIR": str(self.config)}

    def argv(self, name: str) -> list[str]:
        return [TOOLDROP, "--project", str(self.project), "call", name]

    def start(self, name: str, *, prefix: tuple[str, ...] = ()) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [*prefix, *self.argv(name)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=self.env(), text=True,
        )  # fmt: skip

    def run(self, name: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            self.argv(name), stdin=subprocess.DEVNULL, capture_output=True, text=True,
            env=self.env(), timeout=TIMEOUT, check=False,
        )  # fmt: skip


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return Home(tmp_path)


def assert_none_left(mark: str) -> None:
    left = wait_gone(mark)
    kill_all(left)
    assert left == [], f"processes survived: {describe(left)}"


# A grandchild (not the shell's last command, which bash would exec in place of itself),
# and a shell that ignores SIGTERM so the group must be SIGKILLed after the grace period.
BODIES = {
    "exec": "sleep {m}",
    "grandchild": "sleep {m}; echo done",
    "stubborn": "trap '' TERM; sleep {m}; echo done",
}


@pytest.mark.parametrize("body", sorted(BODIES))
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_stop_signal_kills_the_tool_and_exits_128_plus_n(home, signum, body):
    mark = marker()
    home.tool("sleeper", BODIES[body].format(m=mark))
    proc = home.start("sleeper")
    try:
        wait_for(mark)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signum, err
    assert f"stopped by {signal.Signals(signum).name}" in err
    assert_none_left(mark)


@pytest.mark.skipif(shutil.which("timeout") is None, reason="coreutils timeout")
def test_timeout_the_command_leaves_no_tool_behind(home):
    mark = marker()
    home.tool("sleeper", f"sleep {mark}; echo done")
    proc = home.start("sleeper", prefix=("timeout", "3"))
    _, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 124, err  # timeout's own status when it had to stop the command
    assert_none_left(mark)


@pytest.mark.parametrize("body", ["exec", "grandchild"])
def test_sigkill_of_tooldrop_takes_its_tools_with_it(home, body):
    mark = marker()
    home.tool("sleeper", BODIES[body].format(m=mark))
    proc = home.start("sleeper")
    try:
        wait_for(mark)
        proc.kill()
        proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    assert_none_left(mark)


def test_sigkill_of_tooldrops_whole_process_group_still_ends_the_tool(home):
    # `kill -9 -PGID` hits tooldrop and everything in its group at once: the guardian leads
    # its own session, so it survives that, sees the pipe close, and kills the tool's group.
    mark = marker()
    home.tool("sleeper", f"sleep {mark}; echo done")
    proc = subprocess.Popen(
        home.argv("sleeper"), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, env=home.env(), start_new_session=True,
    )  # fmt: skip
    try:
        wait_for(mark)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert_none_left(mark)


def test_what_a_call_leaves_in_the_background_is_ended_when_it_returns(home):
    mark = marker()
    home.tool("bg", f"sleep {mark} >/dev/null 2>&1 &\necho started\n")
    done = home.run("bg")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "EXIT_CODE: 0\nstarted"
    assert_none_left(mark)


@pytest.mark.parametrize("redirect", [" >/dev/null 2>&1", ""])
def test_keep_background_leaves_a_service_running_and_returns_when_the_shell_exits(home, redirect):
    # Without the redirect the service holds the output pipe: the call still ends when the
    # shell does (plus a short drain), not at the timeout.
    mark = marker()
    home.tool("serve_it", f"sleep {mark}{redirect} &\necho started\n", keep_background="true",
              timeout_ms=60000)  # fmt: skip
    done = home.run("serve_it")
    try:
        assert done.returncode == 0, done.stderr
        assert done.stdout == "EXIT_CODE: 0\nstarted"
        survivors = wait_for(mark)  # after tooldrop exited, too: the guardian let it be
        assert len(survivors) == 1
    finally:
        kill_all(wait_gone(mark, within=0))


def test_keep_background_is_still_stopped_by_the_timeout(home):
    mark = marker()
    home.tool("slow", f"sleep {mark} &\nsleep {mark}\n", keep_background="true", timeout_ms=500)
    done = home.run("slow")
    assert done.returncode == 1
    assert "timed out after 500ms" in done.stdout
    assert_none_left(mark)


def cgroups_available() -> bool:
    from tooldrop_shell._cgroup import call_cgroups

    maker = call_cgroups()
    group = maker.make() if maker is not None else None
    if group is None:
        return False
    group.remove()
    return True


@pytest.mark.skipif(
    not cgroups_available(),
    reason="no writable cgroup v2 here: a setsid escape is not contained (docs/security.md)",
)
@pytest.mark.parametrize(
    "body",
    [
        "setsid sleep {m} >/dev/null 2>&1 &\necho started\n",
        # setsid -f forks first, so the escapee's parent is gone before the call ends.
        "setsid -f sleep {m} >/dev/null 2>&1\necho started\n",
        # An escapee that starts children of its own, in a session of its own.
        "setsid sh -c 'sleep {m} & sleep {m}' >/dev/null 2>&1 &\necho started\n",
    ],
)
def test_a_setsid_escape_is_ended_when_the_call_returns(home, body):
    mark = marker()
    home.tool("escape", body.format(m=mark))
    done = home.run("escape")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "EXIT_CODE: 0\nstarted"
    assert_none_left(mark)


@pytest.mark.skipif(not cgroups_available(), reason="no writable cgroup v2 here")
def test_a_setsid_escape_is_ended_by_the_timeout(home):
    mark = marker()
    home.tool("escape", f"setsid sleep {mark} >/dev/null 2>&1 &\nsleep {mark}\n", timeout_ms=500)
    done = home.run("escape")
    assert "timed out after 500ms" in done.stdout
    assert_none_left(mark)
