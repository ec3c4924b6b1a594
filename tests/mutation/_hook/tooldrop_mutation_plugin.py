"""pytest plugin of the mutation runner's coverage step (loaded with ``-p``).

Before each test: switches this process's coverage to the test's context and exports the
test's id, so the subprocesses it starts record their lines under it too (see
``sitecustomize.py``). At the end, writes what the runner needs next to the coverage data:
each test's duration and outcome, and the third-party modules the tests imported (the mutant
worker imports them once, before it forks a run per mutant).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import coverage
import pytest

_CONTEXT = "TOOLDROP_MUTATION_CONTEXT"
_durations: dict[str, float] = {}
_failed: set[str] = set()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
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
