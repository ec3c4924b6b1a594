"""What both mutation workers share: a run in a forked child with a deadline, and per-test time
limits.

The child gets a process group of its own (so a deadline kills what its tests started), its
output in a log file and no stdin; the parent waits on a pidfd with the deadline.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import time
from collections.abc import Callable, Iterator

import pytest

#: The child running now: a SIGTERM to the worker (the runner stopped) takes it down too.
RUNNING: list[int] = []


def run_forked(child: Callable[[], int], timeout: float, log: str) -> tuple[int, float]:
    """Run ``child()`` in a forked process: its exit code (-9 when it ran out of ``timeout``
    and was killed with its process group) and the seconds it took."""
    start = time.monotonic()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.setsid()
        out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        code = 70
        try:
            code = child()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    RUNNING[:] = [pid]
    handle = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([handle], [], [], timeout)
    finally:
        os.close(handle)
    if not ready:
        os.killpg(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    with contextlib.suppress(ProcessLookupError):  # what the tests left running goes too
        os.killpg(pid, signal.SIGKILL)
    RUNNING[:] = []
    code = -9 if not ready else os.waitstatus_to_exitcode(status)
    return code, time.monotonic() - start


def stop(signum: int, frame: object) -> None:
    """SIGTERM handler of a worker: the running child's process group goes with it."""
    for pid in RUNNING:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
    os._exit(1)


class OutOfTime(Exception):
    """A test ran far longer than it did without the mutant: it hangs, so the mutant is killed."""


class Limits:
    """pytest plugin: each test gets a time limit (SIGALRM), so a mutant that makes one hang
    (a FIFO opened without O_NONBLOCK waits forever) fails that test in seconds instead of
    holding the whole run until its deadline. Remembers the first test that failed."""

    def __init__(self, limits: dict[str, float] | None = None, default: float = 60.0) -> None:
        self.limits, self.default = limits or {}, default
        self.failed: str | None = None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed and self.failed is None:  # the runner tries the tests that kill first
            self.failed = report.nodeid

    def _alarm(self, signum: int, frame: object) -> None:
        raise OutOfTime("the test ran out of time")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        previous = signal.signal(signal.SIGALRM, self._alarm)
        signal.setitimer(signal.ITIMER_REAL, self.limits.get(item.nodeid, self.default))
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
