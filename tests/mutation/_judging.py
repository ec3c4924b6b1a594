"""Step 2 of the mutation runner: each mutant judged by the tests covering its line, in a
job's session (``_session.py``) when it can, else in a fresh pytest (``_worker.py``)."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import os
import resource
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import attrs
from _coverage import Selector
from _layout import HERE, PYTEST, env_for
from mutants import Mutant

_T = TypeVar("_T")
_R = TypeVar("_R")

LIVE: list[Worker] = []


class Worker:
    """One job: a copy of the tree and a forking pytest worker (``_worker.py``) running in it."""

    def __init__(
        self, copy: Path, modules: list[str], targets: list[str] | None, files: list[str]
    ) -> None:
        self.copy = copy
        self.cpu = 0.0  # as the worker last said
        self.modules = list(modules)
        self.left_out: list[str] = []
        self.session: _Session | None = None
        self._start()
        if targets:
            self.session = _Session(copy, targets, files)

    def _start(self) -> None:
        while True:
            self.proc = subprocess.Popen(
                [sys.executable, str(HERE / "_worker.py")],
                cwd=self.copy,
                env=env_for(self.copy),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            answer = self._ask({"modules": self.modules})
            if answer.get("ready"):
                LIVE.append(self)
                return
            self.close()  # that module imports tooldrop itself: the children must do it
            self.left_out.append(answer["pulls_in"])
            self.modules.remove(answer["pulls_in"])

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the mutation worker in {self.copy} died")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def pytest(
        self, tests: list[str], timeout: float, limits: dict[str, float] | None = None
    ) -> tuple[int, float, str | None]:
        """Exit code, seconds, and the first test that failed."""
        # --basetemp: pytest's default one is shared with every other pytest on the machine,
        # and its clean-up of old runs there can take longer than the tests.
        args = [*PYTEST, "-x", "-n0", f"--basetemp={self.copy / '.tmp'}", *tests]
        answer = self._ask({"args": args, "timeout": timeout, "limits": limits or {}})
        self.cpu = answer["cpu"]
        return answer["code"], answer["seconds"], answer["failed"]

    def close(self, *, now: bool = False) -> None:
        """Stop the worker: when it has finished its run, or ``now`` (with its run)."""
        assert self.proc.stdin is not None
        if self.session is not None:
            self.session.close(now=now)
        if now:
            self.proc.terminate()
        self.proc.stdin.close()
        self.proc.wait()
        if self in LIVE:
            LIVE.remove(self)


class _Session:
    """One job's fast worker (``_session.py``): a pytest session that has collected the
    targets' tests and runs each mutant in a forked child, the mutated function patched."""

    def __init__(self, copy: Path, targets: list[str], files: list[str]) -> None:
        requests_read, self._requests = os.pipe()
        self._answers, answers_write = os.pipe()
        env = env_for(
            copy,
            TOOLDROP_MUTATION_FDS=f"{requests_read},{answers_write}",
            TOOLDROP_MUTATION_TARGETS=os.pathsep.join(str(copy / t) for t in targets),
        )
        env["PYTHONPATH"] = os.pathsep.join([str(HERE), env["PYTHONPATH"]])
        paths = [*files, f"--basetemp={copy / '.tmp'}"]
        with open(copy / ".session.log", "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "pytest", *PYTEST, "-s", "-n0", "-p", "_session", *paths],
                cwd=copy,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                pass_fds=(requests_read, answers_write),
            )
        os.close(requests_read)
        os.close(answers_write)
        self.requests = os.fdopen(self._requests, "w", encoding="utf-8")
        self.answers = os.fdopen(self._answers, "r", encoding="utf-8")
        self.cpu = 0.0
        line = self.answers.readline()
        if not line:
            said = (copy / ".session.log").read_text(encoding="utf-8", errors="replace")
            raise RuntimeError(f"the mutation session did not start:\n{said[-3000:]}")
        self.collected: int = json.loads(line)["collected"]

    def run(
        self, mutant: Mutant, path: Path, tests: list[str], timeout: float, limits: dict[str, float]
    ) -> tuple[int, float, str | None] | None:
        """Exit code, seconds and the test that failed; ``None`` when this mutant must run in
        a fresh pytest."""
        request = {
            "line": mutant.line,
            "path": str(path),
            "source": mutant.source,
            "tests": tests,
            "timeout": timeout,
            "limits": limits,
        }
        self.requests.write(json.dumps(request) + "\n")
        self.requests.flush()
        line = self.answers.readline()
        if not line:
            raise RuntimeError("the mutation session died")
        answer = json.loads(line)
        if "fallback" in answer:
            HOW[f"fresh pytest ({answer['fallback'].split(':')[0]})"] += 1
            return None
        self.cpu = answer["cpu"]
        return answer["code"], answer["seconds"], answer["failed"]

    def close(self, *, now: bool = False) -> None:
        if now:
            self.proc.terminate()
        with contextlib.suppress(OSError):
            self.requests.close()
        self.proc.wait()
        self.answers.close()


#: How each mutant was judged, for the summary: in the session, or by a fresh pytest.
HOW: dict[str, int] = defaultdict(int)


def _judge(
    worker: Worker, mutant: Mutant, selector: Selector, fast: bool, confirm: bool
) -> Verdict:
    """``mutant``'s verdict in ``worker``: ``killed``, ``survived``, ``uncovered``,
    ``slow-only`` or ``error: ...``. ``fast``: try the worker's session first; what it cannot
    patch (and, with ``confirm``, what survives it) runs in a fresh pytest: the tests that
    killed other mutants of the module alone first (collecting every test file costs
    seconds), then all of them."""
    tests, known = selector.tests(mutant.line)
    if not tests:
        # Only slow tests reach it (--max-test-seconds): a gap of the quick pass, not a line
        # no test runs.
        return Verdict("slow-only" if selector.left_out(mutant.line) else "uncovered", 0.0, 0)
    durations = selector.durations
    path = worker.copy / mutant.path
    original = path.read_text(encoding="utf-8")
    path.write_text(mutant.source, encoding="utf-8")
    seconds = 0.0
    try:
        # A test that takes far longer than it did under coverage (itself slower) hangs: five
        # times as long and five seconds more (a mutant that blocks on a FIFO is judged by
        # this limit, so it sets the cost of each such kill).
        limits = {t: 5 + 5 * durations.get(t, 0.0) for t in tests}
        budget = sum(durations.get(t, 0.0) for t in tests)
        timeout = 60 + 4 * budget if budget else 1800  # (--recheck: whole test directories)
        if fast and worker.session is not None:
            done = worker.session.run(mutant, path, tests, timeout, limits)
            if done is not None:
                code, seconds, failed = done
                HOW["session"] += 1
                if code == 0 and not confirm:
                    # A false survivor (the session computed something from the original
                    # code while collecting) only makes the report stricter, never hides a
                    # gap; without --no-confirm survivors run again in a fresh pytest.
                    return Verdict("survived", seconds, len(tests))
                if code in (1, -9):
                    return _killed(selector, mutant, seconds, tests, failed)
        HOW["fresh pytest"] += 1
        stages = [tests[:known], tests] if 0 < known < len(tests) else [tests]
        for stage in stages:
            code, more, failed = _fresh(worker, stage, timeout, limits)
            seconds += more
            if code != 0:
                break
    finally:
        path.write_text(original, encoding="utf-8")
    if code == 0:
        return Verdict("survived", seconds, len(tests))
    if code == 5 or (code == 4 and not _conftest_broken(worker)):
        # no test collected, or a usage error: the runner's fault, not the mutant's
        error = f"error: pytest exit {code}, see {worker.copy / '.mutant.log'}"
        return Verdict(error, seconds, len(tests))
    # failed (1), errors while collecting (2), a conftest the mutant keeps from importing (4),
    # timed out (-9)
    return _killed(selector, mutant, seconds, tests, failed)


def _killed(
    selector: Selector, mutant: Mutant, seconds: float, tests: list[str], failed: str | None
) -> Verdict:
    """The verdict of a kill; the test that failed goes first for the mutants after it."""
    if failed:
        selector.killed_by(mutant.line, failed)
    rank = tests.index(failed) + 1 if failed in tests else 0
    return Verdict("killed", seconds, len(tests), failed, rank)


@attrs.frozen
class Verdict:
    verdict: str
    seconds: float
    tests: int
    by: str | None = None  # the test that killed it
    rank: int = 0  # its place among the tests run (they stop there)


def _fresh(
    worker: Worker, tests: list[str], timeout: float, limits: dict[str, float]
) -> tuple[int, float, str | None]:
    code, seconds, failed = worker.pytest(tests, timeout=timeout, limits=limits)
    if code in (4, 5) and _ids_not_found(worker):
        # The mutant renamed a parametrized test (its ids come from the module's values):
        # run the whole files those tests are in, a superset that holds the renamed ones.
        files = list(dict.fromkeys(t.partition("::")[0] for t in tests))
        code, more, failed = worker.pytest(files, timeout=timeout, limits=limits)
        seconds += more
    return code, seconds, failed


def _log(worker: Worker) -> str:
    return (worker.copy / ".mutant.log").read_text(encoding="utf-8", errors="replace")


def _conftest_broken(worker: Worker) -> bool:
    return "while loading conftest" in _log(worker)


def _ids_not_found(worker: Worker) -> bool:
    log = _log(worker)
    return "ERROR: not found:" in log or "ERROR: found no collectors" in log


def cpu_seconds() -> float:
    """CPU seconds of this process and of every process it has waited for (their children
    too): the coverage run, the workers once closed, the forked runs and the tests'
    subprocesses."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), os.times()
    # A worker's counts above once it is waited for.
    live = sum(w.cpu + (w.session.cpu if w.session else 0.0) for w in LIVE)
    return own.ru_utime + own.ru_stime + children.children_user + children.children_system + live


class Pool:
    """The workers, lent out one per thread."""

    def __init__(self, workers: list[Worker], *, confirm: bool = False) -> None:
        self._free = list(workers)
        self._lock = threading.Lock()
        self.confirm = confirm  # run the session's survivors again in a fresh pytest

    def judge(self, mutant: Mutant, selector: Selector, *, fast: bool = False) -> Verdict:
        with self._lock:
            worker = self._free.pop()
        try:
            return _judge(worker, mutant, selector, fast, self.confirm)
        finally:
            with self._lock:
                self._free.append(worker)


def each(fn: Callable[[_T], _R], items: list[_T], jobs: int) -> Iterator[_R]:
    """``fn`` over ``items`` in ``jobs`` threads, results in order. ^C or SIGTERM cancels what
    has not started: leaving the executor's ``with`` would first run every queued item."""
    threads = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    try:
        yield from threads.map(fn, items)
    except BaseException:
        threads.shutdown(wait=False, cancel_futures=True)
        raise
    threads.shutdown()


def mutate(
    mutants: list[Mutant], selectors: dict[str, Selector], pool: Pool, jobs: int, verbose: bool
) -> dict[str, str]:
    """Each mutant's verdict, from the tests covering its line."""

    def run(mutant: Mutant) -> tuple[Mutant, Verdict]:
        selector = selectors[mutant.path]
        # A mutant of a line run at import time is patched in the session only when it is a
        # plain assignment; anything else there needs a fresh import.
        return mutant, pool.judge(mutant, selector, fast=True)

    outcome: dict[str, str] = {}
    start = time.monotonic()
    for done, (mutant, verdict) in enumerate(each(run, mutants, jobs), 1):
        outcome[mutant.id] = verdict.verdict
        if verbose:
            print(
                f"  {verdict.verdict:8} {verdict.seconds:5.1f} s {verdict.tests:4} tests  "
                f"{mutant.id}  L{mutant.line} {mutant.what}"
                + (f"  by #{verdict.rank} {verdict.by}" if verdict.by else ""),
                flush=True,
            )
        elif done % 100 == 0:
            print(f"  {done}/{len(mutants)} in {time.monotonic() - start:.0f} s", flush=True)
    return outcome


def recheck(mutants: list[Mutant], pool: Pool, jobs: int) -> list[Mutant]:
    """The survivors that their module's whole test paths kill (coverage missed the test)."""

    def again(mutant: Mutant) -> tuple[Mutant, str]:
        whole = Selector.whole(mutant.path)
        return mutant, pool.judge(mutant, whole).verdict

    return [m for m, verdict in each(again, mutants, jobs) if verdict == "killed"]
