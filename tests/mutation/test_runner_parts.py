"""The mutation runner's pure parts: which mutants a module has, which tests run for each and
in what order, and what the session can patch in place. (The whole runner is run on demand,
not in CI: `CONTRIBUTING.md`.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _session
from _coverage import Selector, _import_time_uses, summary
from mutants import mutants_of

TARGET = "core/src/tooldrop/_registry.py"  # its test paths: tests/core alone
OWN = "tests/core/test_output.py::test_own"
OTHER_FAST = "tests/shell/test_cli.py::test_quick"
OTHER_SLOW = "tests/shell/test_big_output.py::test_a_gigabyte"


def _info(lines: dict[int, list[str]], durations: dict[str, float]) -> dict:
    return summary(TARGET, lines, durations, set(), [])


def test_a_test_of_another_folder_that_reaches_a_line_keeps_its_duration() -> None:
    # The regression that made the whole pass take 70 minutes: only the target's own test
    # paths had durations, so a slow test of another folder counted as 0 s and ran first.
    durations = {OWN: 0.01, OTHER_FAST: 0.02, OTHER_SLOW: 5.0}
    info = _info({10: [OTHER_SLOW, OWN, OTHER_FAST]}, durations)
    assert info["durations"][OTHER_SLOW] == 5.0
    assert info["every"] == [OWN]  # the tests of its own paths
    selector = Selector(TARGET, info)
    tests, known = selector.tests(10)
    assert (tests, known) == ([OWN, OTHER_FAST, OTHER_SLOW], 0)
    selector.slowest = 2.0
    assert selector.tests(10) == ([OWN, OTHER_FAST], 0)
    assert selector.left_out(10)


def test_a_test_failing_without_a_mutant_is_never_chosen() -> None:
    info = summary(TARGET, {10: [OWN, OTHER_FAST]}, {OWN: 0.1, OTHER_FAST: 0.1}, {OWN}, [])
    assert info["lines"] == {"10": [OTHER_FAST]}
    assert OWN not in info["every"]


def test_the_tests_that_killed_come_first_those_of_the_line_before_the_module() -> None:
    durations = {OWN: 0.01, OTHER_FAST: 0.02, OTHER_SLOW: 0.03}
    selector = Selector(TARGET, _info({10: [OWN, OTHER_FAST, OTHER_SLOW], 11: [OWN]}, durations))
    selector.killed_by(11, OTHER_FAST)  # a kill elsewhere in the module
    assert selector.tests(10) == ([OTHER_FAST, OWN, OTHER_SLOW], 1)
    selector.killed_by(10, OTHER_SLOW)
    assert selector.tests(10) == ([OTHER_SLOW, OTHER_FAST, OWN], 2)


def test_a_line_run_at_import_time_gets_the_tests_of_what_reads_it() -> None:
    source = "import re\n_PRIVATE = 1\nPUBLIC = 2\n\n\ndef f():\n    return _PRIVATE\n"
    uses = _import_time_uses(source)
    assert uses[2] == {7}  # the private constant: the line that reads it
    assert uses[3] is None  # a public one: any module may read it, every test of the paths
    assert 7 not in uses  # a function's body runs when called, not at import


def test_a_constant_read_by_another_gets_the_tests_of_what_reads_that_one() -> None:
    # _CONTAINER's mutants once ran only the tests that happened to import the module: its
    # reader, the _WRAPPERS table, runs at import time and no test is credited with it.
    source = "_PART = 1\n_TABLE = {'x': _PART}\n\n\ndef f():\n    return _TABLE\n"
    assert _import_time_uses(source)[1] == {2, 6}
    public = "_PART = 1\nTABLE = [_PART]\n"
    assert _import_time_uses(public)[1] is None  # read through a public name: every test


SOURCE = '''"""A docstring is no mutant."""

__all__ = ["f"]


def f(a):
    if a == 1:  # the comparison, the constant, the condition
        return "one"
    return None
'''


def test_mutants_are_the_classic_operators_each_with_a_stable_id() -> None:
    found = {m.what for m in mutants_of("m.py", SOURCE)}
    assert found == {"condition negated", "== → !=", "1 → 2", "'one' → 'XX…XX'",
                     "return value → None"}  # fmt: skip
    ids = [m.id for m in mutants_of("m.py", SOURCE)]
    assert len(set(ids)) == len(ids)
    # An unrelated line above moves every mutant down a line, and changes no id.
    moved = mutants_of("m.py", SOURCE.replace("\n\ndef f", "\nX = None\n\ndef f"))
    assert [m.id for m in moved if m.line > 5] == ids


def test_a_line_marked_no_mutate_has_none() -> None:
    source = SOURCE.replace("if a == 1:", "if a == 1:  # pragma: no mutate")
    assert {m.what for m in mutants_of("m.py", source)} == {
        "'one' → 'XX…XX'",
        "return value → None",
    }


def _changed(old: str, new: str) -> list[str]:
    compiled = [compile(text, "m.py", "exec", dont_inherit=True) for text in (old, new)]
    return [a.co_qualname for a, _ in _session._changed_functions(*compiled)]


MODULE = "LIMIT = 1\n\n\nclass C:\n    size = 2\n\n    def g(self):\n        return 3\n"


def test_the_session_swaps_a_changed_function_and_declines_a_class_body() -> None:
    assert _changed(MODULE, MODULE.replace("return 3", "return 4")) == ["C.g"]
    with pytest.raises(_session._ModuleCode):
        _changed(MODULE, MODULE.replace("LIMIT = 1", "LIMIT = 2"))
    with pytest.raises(_session._Fallback, match=r"a class body changed \(C\)"):
        _changed(MODULE, MODULE.replace("size = 2", "size = 3"))


def test_a_changed_assignment_runs_again_with_the_later_ones_that_read_it() -> None:
    source = "A = 1\nB = A + 1\nC = 5\nD = [B]\n"
    code, names = _session._assignment(source, 1, "m.py")
    assert names == ["A", "B", "D"]
    namespace: dict[str, object] = {}
    exec(code, namespace)
    assert namespace["D"] == [2]
    assert "C" not in namespace
    with pytest.raises(_session._Fallback, match="not a plain assignment"):
        _session._assignment("for i in range(2):\n    pass\n", 1, "m.py")
