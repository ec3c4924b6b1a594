"""pytest plugin of the mutation runner's coverage step (loaded with ``-p``).

Before each test: empties the measured modules' caches (``functools.cache`` and the like),
switches this process's coverage to the test's context and exports the test's id, so the
subprocesses it starts record their lines under it too (see ``sitecustomize.py``). At the
end, writes what the runner needs next to the coverage data: each test's duration and
outcome, and the third-party modules the tests imported (the mutant worker imports them
once, before it forks a run per mutant).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import coverage
import pytest

_CONTEXT = "TOOLDROP_MUTATION_CONTEXT"
_durations: dict[str, float] = {}
_failed: set[str] = set()
_MEASURED = frozenset(os.environ.get("TOOLDROP_MUTATION_INCLUDE", "").split(os.pathsep))
_caches: list[Any] = []
_scanned: set[str] = set()  # the measured modules whose caches are in _caches


def _measured_caches() -> list[Any]:
    """The caches wrapping the measured modules' functions, module-level or in a class, of
    each such module imported so far (a module is read once). Only theirs: a mutant's run
    empties the mutated module's caches, and emptying every cache of the project (the
    plugins' entry points, the parsers) made this step twice as slow."""
    for name, module in list(sys.modules.items()):
        if name in _scanned or getattr(module, "__file__", None) not in _MEASURED:
            continue
        _scanned.add(name)
        places = [vars(module)]
        places.extend(vars(v) for v in vars(module).values() if isinstance(v, type))
        for place in places:
            for value in list(place.values()):
                wrapped = getattr(value, "__wrapped__", None)
                if callable(getattr(value, "cache_clear", None)) and wrapped is not None:
                    _caches.append(value)
    return _caches


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    # A value an earlier test left in a cache would credit the line computing it to that
    # test alone; the mutant's run empties the mutated module's caches, so the test that
    # reads the value would compute it there, and must be among those chosen for the line.
    for cache in _measured_caches():
        cache.cache_clear()
    current = coverage.Coverage.current()
    os.environ[_CONTEXT] = item.nodeid
    if current is not None:
        current.switch_context(item.nodeid)
    try:
        yield
    finally:
        os.environ.pop(_CONTEXT, None)
        if current is not None:
            current.switch_context("")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration
    if report.failed:
        _failed.add(report.nodeid)


def _third_party() -> list[str]:
    """Modules imported from outside the repository (site-packages, the stdlib), in the order
    they were first imported."""
    root = Path(os.environ["TOOLDROP_MUTATION_ROOT"]).resolve()
    venv = Path(sys.prefix).resolve()
    found = []
    for name, module in list(sys.modules.items()):
        where = getattr(module, "__file__", None)
        if not where or name.startswith(("tooldrop", "llm_tools_tooldrop", "coverage")):
            continue
        path = Path(where).resolve()
        if path.is_relative_to(root) and not path.is_relative_to(venv):
            continue
        found.append(name)
    skip = {"__main__", "__mp_main__", "sitecustomize", "tooldrop_mutation_plugin"}
    return [name for name in found if name not in skip]


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not _durations:  # the xdist controller runs no tests; its workers report
        return
    out = Path(os.environ["TOOLDROP_MUTATION_COVERAGE"]) / f"tests.{os.getpid()}.json"
    record = {"durations": _durations, "failed": sorted(_failed), "modules": _third_party()}
    out.write_text(json.dumps(record), encoding="utf-8")
