"""The process the backend spawns: its own session, no leaked descriptors, no strays on Ctrl-C."""

from __future__ import annotations

import gc
import os
import signal
import threading
from pathlib import Path

import pytest

import tooldrop_shell
from tooldrop_shell._waker import thread_waker as _thread_waker


def test_each_call_runs_in_its_own_session_and_group(run):
    result = run('echo "$$ $(ps -o pgid= -p $$) $(ps -o sid= -p $$)"')
    pid, pgid, sid = (int(x) for x in result.text.split("\n", 1)[1].split())
    assert pid == pgid == sid
    assert pgid != os.getpgid(0)


def test_spawns_without_preexec_fn(run, monkeypatch):
    # preexec_fn disables the vfork fast path and is not thread-safe: never use it.
    seen = {}
    real = tooldrop_shell._process.subprocess.Popen

    def spy(*args, **kwargs):
        seen.update(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(tooldrop_shell._process.subprocess, "Popen", spy)
    assert run("echo ok").text == "EXIT_CODE: 0\nok"
    assert seen.get("preexec_fn") is None
    assert seen["start_new_session"] is True


def test_a_stale_wake_up_does_not_cancel_the_next_call(run):
    # The self-pipe is reused per thread; a byte left by an earlier call's late cancel
    # must not stop an unrelated call.
    _thread_waker().wake()
    assert run("sleep 0.1; echo fine").text == "EXIT_CODE: 0\nfine"


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_no_descriptor_leaks_across_calls_and_threads(run, pack, host):
    pack.add("hello", "echo hi; echo err >&2")
    host.reload()
    host.call("hello", {})  # the first call opens what is opened once (/dev/null, the waker)
    before = _open_fds()
    for _ in range(30):
        host.call("hello", {})
    threads = [threading.Thread(target=host.call, args=("hello", {})) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    gc.collect()
    assert _open_fds() == before


def test_keyboard_interrupt_kills_the_group(pack, host, procs, tmp_path):
    pidfile = tmp_path / "pid"
    pack.add("long", f"echo $$ > {pidfile}; sleep 1000 & sleep 1000", timeout_ms=60_000)
    host.reload()

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            host.call("long", {})
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    pgid = int(Path(pidfile).read_text())
    assert procs.wait_gone(pgid) == []
    assert procs.zombies() == []
