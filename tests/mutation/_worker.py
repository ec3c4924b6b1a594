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

import gc
import importlib
import json
import os
import signal
import sys
import warnings
from pathlib import Path

import pytest
from _forking import Limits, run_forked, stop

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


def _run(args: list[str], timeout: float, limits: Limits) -> tuple[int, float, str | None]:
    """Exit code, seconds and the first test that failed, of pytest run in a child."""
    failed = Path(".mutant.failed")
    failed.unlink(missing_ok=True)

    def child() -> int:
        code = int(pytest.main(args, plugins=[limits]))
        if limits.failed:
            failed.write_text(limits.failed, encoding="utf-8")
        return code

    code, seconds = run_forked(child, timeout, str(ROOT / ".mutant.log"))
    return code, seconds, failed.read_text(encoding="utf-8") if failed.exists() else None


def main() -> None:
    signal.signal(signal.SIGTERM, stop)
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
            limits = Limits(request.get("limits", {}), request.get("limit", 60.0))
            code, seconds, failed = _run(request["args"], request["timeout"], limits)
            times = os.times()  # this worker's CPU and its children's, for the runner's count
            cpu = times.user + times.system + times.children_user + times.children_system
            answer = {"code": code, "seconds": seconds, "cpu": cpu, "failed": failed}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
