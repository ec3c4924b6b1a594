"""The mutation runner's worker: imports pytest and the tests' third-party modules once, then
forks a fresh child per request that runs ``pytest.main`` on the tests it is given.

Started by ``run.py`` in one copy of the repository, with that copy's source directories first
on ``PYTHONPATH``. The worker itself never imports tooldrop: each child imports it anew, from the
copy, where the runner has just written the mutant. That saves every run the interpreter's
start and a few seconds of imports (pytest's plugins, hypothesis, mcp, pydantic, ...).

Protocol, a JSON object per line: ``{"modules": [...]}`` first (answered with ``{"ready":
true}`` or ``{"pulls_in": name}`` when a module imports the project itself and must be left out),
then ``{"args": [...], "timeout": seconds}``, answered with ``{"code": exit code, "seconds":
wall time, "failed": the first test that failed}``; code -9 means the child ran out of time and
was killed with its process group.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import select
import signal
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path.cwd().resolve()


def _ours(module: object) -> bool:
    where = getattr(module, "__file__", None)
    if not where:
        return False
    path = Path(where).resolve()
    return path.is_relative_to(ROOT) and not path.is_relative_to(Path(sys.prefix).resolve())


def _preload(names: list[str]) -> str | None:
    """Import ``names``; the first one that brings in a module of this repository, if any."""
    for name in names:
        before = set(sys.modules)
        try:
            with warnings.catch_warnings():  # hypothesis warns of work done while pytest starts
                warnings.simplefilter("ignore")
                importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a module the tests import lazily may fail alone
            continue
        new = set(sys.modules) - before - {"__mp_main__"}  # multiprocessing's alias of this file
        if any(_ours(sys.modules[n]) for n in new):
            return name
    return None


class _OutOfTime(Exception):
    """A test ran far longer than it did without the mutant: it hangs, so the mutant is killed."""


class _Limits:
    """pytest plugin: each test gets a time limit (SIGALRM), so a mutant that makes one hang
    (a FIFO opened without O_NONBLOCK waits forever) fails that test in seconds instead of
    holding the whole run until its timeout."""

    def __init__(self, limits: dict[str, float], default: float) -> None:
        self.limits, self.default = limits, default
        self.failed = ""

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed and not self.failed:  # the runner tries the tests that kill first
            self.failed = report.nodeid
            Path(".mutant.failed").write_text(report.nodeid, encoding="utf-8")

    def _alarm(self, signum: int, frame: object) -> None:
        raise _OutOfTime("the test ran out of time")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        previous = signal.signal(signal.SIGALRM, self._alarm)
        signal.setitimer(signal.ITIMER_REAL, self.limits.get(item.nodeid, self.default))
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def _run(args: list[str], timeout: float, log: str, limits: _Limits) -> tuple[int, float]:
    start = time.monotonic()
    Path(".mutant.failed").unlink(missing_ok=True)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    _RUNNING[:] = [pid]
    if pid == 0:  # the child: a process group of its own, so a timeout kills what it started
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.setsid()
        out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        code = 70
        try:
            code = int(pytest.main(args, plugins=[limits]))
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
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
    code = -9 if not ready else os.waitstatus_to_exitcode(status)
    return code, time.monotonic() - start


#: The child running now: a SIGTERM to the worker (the runner stopped) takes it down too.
_RUNNING: list[int] = []


def _stop(signum: int, frame: object) -> None:
    for pid in _RUNNING:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
    os._exit(1)


def main() -> None:
    signal.signal(signal.SIGTERM, _stop)
    log = str(ROOT / ".mutant.log")
    for line in sys.stdin:
        request = json.loads(line)
        if "modules" in request:
            bad = _preload(request["modules"])
            # The children may cache bytecode: the copy's own is checked by the source's hash
            # (run.py compiles it so), and pytest's rewritten test modules never change.
            sys.dont_write_bytecode = False
            # What is loaded now stays: pytest's gc.collect() at the end of each run would
            # otherwise walk all of it again (a third of a short run's time).
            gc.freeze()
            answer: dict[str, object] = {"pulls_in": bad} if bad else {"ready": True}
        else:
            limits = _Limits(request.get("limits", {}), request.get("limit", 60.0))
            code, seconds = _run(request["args"], request["timeout"], log, limits)
            times = os.times()  # this worker's CPU and its children's, for the runner's count
            cpu = times.user + times.system + times.children_user + times.children_system
            failed = Path(".mutant.failed")
            answer = {
                "code": code,
                "seconds": seconds,
                "cpu": cpu,
                "failed": failed.read_text(encoding="utf-8") if failed.exists() else None,
            }
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
