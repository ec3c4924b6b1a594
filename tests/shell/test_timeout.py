"""Timeouts and cancellation stop the whole process group, in bounded time, leaving nothing.

Time bounds here are the behaviour under test, so they are asserted, with margins far above
what the machine needs (several seconds), never as a speed measurement.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from tooldrop import CancelToken
from tooldrop_shell import DRAIN_PERIOD, GRACE_PERIOD

MARGIN = 4.0  # seconds of slack for a loaded 2-core machine


@pytest.fixture(autouse=True)
def _no_zombies(procs):
    yield
    assert procs.zombies() == []


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _wait_for_file(path: Path, within: float = 10.0) -> str:
    end = time.monotonic() + within
    while time.monotonic() < end:
        with contextlib.suppress(FileNotFoundError):
            text = path.read_text()
            if text.endswith("\n"):
                return text.strip()
        time.sleep(0.02)
    raise AssertionError(f"{path} never appeared")


@pytest.mark.slow
def test_trapped_sigterm_and_background_child_are_killed_within_timeout_plus_grace(run, procs):
    script = 'echo "pgid=$$"; trap "" TERM; sleep 1000 & sleep 1000; echo never'
    started = time.monotonic()
    result = run(script, timeout_ms=500)
    elapsed = time.monotonic() - started

    assert result.is_error
    assert result.timed_out
    assert result.text.startswith("Custom tool timed out after 500ms\n\nSTDOUT:\npgid=")
    assert "never" not in result.text
    # Nothing died on SIGTERM, so the call waited the grace period, then SIGKILLed the group.
    assert 0.5 + GRACE_PERIOD - DRAIN_PERIOD - 0.1 <= elapsed < 0.5 + GRACE_PERIOD + MARGIN
    pgid = procs.first_int(result.text, "pgid")
    assert procs.wait_gone(pgid) == []


def test_sigterm_that_is_handled_ends_the_call_early(run, procs):
    # The shell's trap runs, it exits, the background sleep dies of SIGTERM: no grace wait.
    script = 'echo "pgid=$$"; trap "echo got-term; exit 7" TERM; sleep 1000 & wait'
    started = time.monotonic()
    result = run(script, timeout_ms=300)
    elapsed = time.monotonic() - started
    assert result.timed_out
    assert result.text.endswith("got-term")
    assert elapsed < 0.3 + MARGIN
    assert procs.wait_gone(procs.first_int(result.text, "pgid")) == []


@pytest.mark.slow
def test_a_grandchild_that_escaped_the_group_cannot_hold_the_call(run, procs, tmp_path):
    # setsid puts the grandchild in a new session: the group kill cannot reach it, and it
    # keeps both pipes open. The call must still return in bounded time.
    pidfile = tmp_path / "escapee"
    script = f"setsid sh -c 'echo $$ > {pidfile}; exec sleep 60' & echo \"pgid=$$\"; sleep 1000"
    started = time.monotonic()
    try:
        result = run(script, timeout_ms=500)
        elapsed = time.monotonic() - started
    finally:
        escapee = int(_wait_for_file(pidfile))
    try:
        assert result.timed_out
        assert elapsed < 0.5 + GRACE_PERIOD + MARGIN
        assert procs.wait_gone(procs.first_int(result.text, "pgid")) == []
        assert Path(f"/proc/{escapee}").exists(), "the escapee is outside the group: it lives on"
    finally:
        _kill(escapee)


def test_shell_that_closes_its_pipes_still_times_out(run, procs, tmp_path):
    pidfile = tmp_path / "pid"
    result = run(f"echo $$ > {pidfile}; exec >/dev/null 2>&1; sleep 1000", timeout_ms=300)
    assert result.timed_out
    assert result.text == "Custom tool timed out after 300ms"
    assert procs.wait_gone(int(_wait_for_file(pidfile))) == []


@pytest.mark.slow
def test_background_grandchild_holding_the_pipes_is_waited_for(run):
    # The shell exits at once; the subshell still holds stdout. Like the reference, we read
    # until every holder is gone (or the deadline).
    started = time.monotonic()
    result = run("(sleep 1; echo late) & echo early", timeout_ms=20_000)
    assert result.text == "EXIT_CODE: 0\nearly\nlate"
    assert time.monotonic() - started >= 0.9


def test_detached_background_job_does_not_hold_the_call(run):
    result = run('sleep 30 >/dev/null 2>&1 & echo "bg=$!"', timeout_ms=20_000)
    try:
        assert result.text.startswith("EXIT_CODE: 0\nbg=")
        assert result.duration < 20
    finally:
        _kill(int(result.text.split("bg=")[1]))


def test_timeout_keeps_the_output_printed_so_far(run):
    result = run("seq 1 5000; echo warn >&2; sleep 1000", timeout_ms=300)
    assert result.timed_out
    assert result.truncated
    assert len(result.text) == 2000
    head = "Custom tool timed out after 300ms\n\nSTDERR:\nwarn\nSTDOUT:\n1\n2\n"
    assert result.text.startswith(head)
    assert result.text.endswith("\n4999\n5000")


def _call_in_thread(host, name, token):
    box = {}

    def target():
        box["result"] = host.call(name, {}, cancel=token)

    thread = threading.Thread(target=target)
    thread.start()
    return thread, box


@pytest.mark.parametrize(
    "script",
    [
        "echo $$ > {pidfile}; echo started; sleep 1000",
        # cancelled while the pipes are closed but the shell still runs
        "echo $$ > {pidfile}; exec >/dev/null 2>&1; sleep 1000",
    ],
)
def test_cancel_kills_the_group_and_returns_at_once(pack, host, procs, tmp_path, script):
    pidfile = tmp_path / "pid"
    pack.add("long", script.format(pidfile=pidfile), timeout_ms=60_000)
    token = CancelToken()
    thread, box = _call_in_thread(host, "long", token)
    pgid = int(_wait_for_file(pidfile))
    cancelled_at = time.monotonic()
    token.cancel()
    thread.join(GRACE_PERIOD + MARGIN)
    assert not thread.is_alive()
    result = box["result"]
    assert result.is_error
    assert not result.timed_out
    assert result.text.startswith("Tool call cancelled")
    assert time.monotonic() - cancelled_at < MARGIN
    assert procs.wait_gone(pgid) == []


def test_cancelling_acall_kills_the_process_tree(pack, host, procs, tmp_path):
    pidfile = tmp_path / "pid"
    pack.add("long", f"echo $$ > {pidfile}; sleep 1000 & sleep 1000", timeout_ms=60_000)

    async def main():
        task = asyncio.create_task(host.acall("long", {}))
        pgid = await asyncio.to_thread(_wait_for_file, pidfile)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return int(pgid)

    pgid = asyncio.run(main())
    assert procs.wait_gone(pgid) == []


def test_cancel_token_callbacks_are_removed_after_the_call(pack, host):
    pack.add("quick", "echo hi")
    token = CancelToken()
    for _ in range(3):
        assert host.call("quick", {}, cancel=token).text == "EXIT_CODE: 0\nhi"
    assert token._callbacks == []
