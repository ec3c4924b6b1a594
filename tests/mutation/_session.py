"""The mutation runner's fast worker: one pytest session that collects the tests once, then
runs each mutant in a forked child that patches the mutated function in memory.

A child of :mod:`_worker` starts pytest, imports the project and collects the test files
anew for every mutant (a third of a second or more before the first test runs). Here the
session has done all of that once; a child only swaps the code of the function the mutant
changed (``function.__code__``, found by the code object it had: every live function made from
it, closures and methods included, and the caches wrapping them emptied) and runs the chosen
test items. The file on disk holds the mutant too (the runner writes it), so subprocesses a
test starts run it as well.

What this cannot do, it declines (``{"fallback": why}``) and the runner uses :mod:`_worker`: a
change to code run at import time (a constant, a default, a class body), a code object it
cannot swap, a test it did not collect. A survivor here is run there again too: a value the
session computed from the original code before any mutant (a cached probe, a parametrization)
could hide the mutant from the tests, never the other way round.

Started by ``run.py`` as ``python -m pytest -p _session ... <test paths>`` in one copy of the
repository, with ``TOOLDROP_MUTATION_FDS`` naming the pipe it reads requests from and the one it
answers on (a JSON object per line): ``{"ready": true, "collected": n}`` once, then for each
``{"path", "source", "tests", "timeout", "limits"}`` an answer ``{"code", "seconds", "cpu"}``
(code 1: a test failed, 0: all passed, -9: out of time) or ``{"fallback": why}``.
"""

from __future__ import annotations

import ast
import gc
import json
import os
import signal
import sys
import types
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import pytest
from _forking import Limits, run_forked, stop

_FDS = "TOOLDROP_MUTATION_FDS"


class _Fallback(Exception):
    """The mutant cannot be run here; the message says why."""


class _ModuleCode(_Fallback):
    """The mutant changes the module's own code: a statement run at import time."""


def _without_nested(code: types.CodeType) -> types.CodeType:
    """``code`` less what a change inside a nested function can alter: the nested code, and
    the positions (a ``def`` statement's span ends where its last line ends)."""
    consts = tuple(None if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_consts=consts, co_linetable=b"")


def _nested(code: types.CodeType) -> list[types.CodeType]:
    return [c for c in code.co_consts if isinstance(c, types.CodeType)]


def _changed_functions(
    old: types.CodeType, new: types.CodeType, *, module: bool = True
) -> list[tuple[types.CodeType, types.CodeType]]:
    """The ``(old, new)`` code of every function the mutant changed, outermost first.

    :raises _ModuleCode: the mutant changes the module's own code.
    :raises _Fallback: the mutant changes a class body, or adds or removes a function.
    """
    if _without_nested(old) != _without_nested(new):
        if module:
            raise _ModuleCode("the module's own code changed")
        raise _Fallback(f"a class body changed ({old.co_qualname})")
    inner_old, inner_new = _nested(old), _nested(new)
    if len(inner_old) != len(inner_new):
        raise _Fallback(f"a function or class appeared or went ({old.co_qualname})")
    pairs = []
    for a, b in zip(inner_old, inner_new, strict=True):
        if a == b:
            continue
        if a.co_flags & _FUNCTION:
            pairs.append((a, b))
            pairs.extend(_nested_pairs(a, b))
        else:  # a class body runs at import time: look inside it
            pairs.extend(_changed_functions(a, b, module=False))
    return pairs


#: Flags only a function's code has (a class body's and a module's have neither).
_FUNCTION = 0x02 | 0x01  # CO_NEWLOCALS | CO_OPTIMIZED


def _nested_pairs(
    old: types.CodeType, new: types.CodeType
) -> list[tuple[types.CodeType, types.CodeType]]:
    """Changed code nested in a changed function: closures already made from it are live too."""
    inner_old, inner_new = _nested(old), _nested(new)
    if len(inner_old) != len(inner_new):
        return []  # closures made before could not be matched; new ones come from ``new``
    pairs = []
    for a, b in zip(inner_old, inner_new, strict=True):
        if a != b:
            pairs.append((a, b))
            pairs.extend(_nested_pairs(a, b))
    return pairs


def _assigned(stmt: ast.stmt) -> list[str] | None:
    """The names a plain top-level assignment binds; ``None`` for any other statement."""
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        targets = [stmt.target]
    else:
        return None
    if not all(isinstance(t, ast.Name) for t in targets):
        return None
    return [t.id for t in targets if isinstance(t, ast.Name)]


def _assignment(source: str, line: int, path: str) -> tuple[types.CodeType, list[str]]:
    """The top-level assignment holding ``line`` and every later plain assignment that reads
    what it binds (``_X = re.compile(_PART)``), compiled together, and the names they bind.

    :raises _Fallback: the line is in another kind of statement (a class, an ``if``, ...):
        running that again would make new classes, or run more than the one statement.
    """
    body = ast.parse(source).body
    holding = [i for i, s in enumerate(body) if s.lineno <= line <= (s.end_lineno or s.lineno)]
    if not holding:
        raise _Fallback(f"no statement at line {line}")
    index = holding[0]
    stmt = body[index]
    names = _assigned(stmt)
    if not names:
        raise _Fallback(f"line {line} is not a plain assignment")
    chosen, bound = [stmt], list(names)
    for later in body[index + 1 :]:
        targets = _assigned(later)
        if targets is None:
            continue  # a function reads the new value when called; a class keeps the old
        read = {n.id for n in ast.walk(later) if isinstance(n, ast.Name)}
        if read & set(bound):
            chosen.append(later)
            bound.extend(t for t in targets if t not in bound)
    code = compile(ast.Module(body=chosen, type_ignores=[]), path, "exec", dont_inherit=True)
    return code, bound


@dataclass
class _Plan:
    """How a child runs one mutant: functions to give new code, caches to empty, and an
    assignment to run again in its module (its names rebound wherever they were imported)."""

    functions: list[tuple[types.FunctionType, types.CodeType]] = field(default_factory=list)
    caches: list[Any] = field(default_factory=list)
    module: types.ModuleType | None = None
    assignment: types.CodeType | None = None
    names: list[str] = field(default_factory=list)

    def apply(self) -> None:
        for function, code in self.functions:
            function.__code__ = code
        if self.module is not None and self.assignment is not None:
            namespace = vars(self.module)
            before = {name: namespace.get(name, _MISSING) for name in self.names}
            exec(self.assignment, namespace)
            short = self.module.__name__.rpartition(".")[2]
            for name, old in before.items():
                new = namespace[name]
                for other in list(sys.modules.values()):
                    theirs = getattr(other, "__dict__", None)
                    if (
                        isinstance(theirs, dict)
                        and other is not self.module
                        and theirs.get(name, _MISSING) is old
                        and _imports_from(other, short)
                    ):
                        theirs[name] = new  # ``from .module import name`` elsewhere
        for cache in self.caches:
            cache.cache_clear()


_MISSING = object()


def _imports_from(module: types.ModuleType, short: str) -> bool:
    """Whether ``module``'s source imports from a module named ``short``: an equal string or
    small number bound to the same name elsewhere is the same object, and must stay as it is."""
    try:
        with open(module.__file__ or "", encoding="utf-8") as f:
            source = f.read()
    except (OSError, ValueError):
        return False
    return f"{short} import" in source


class Session:
    """pytest plugin: collects, then serves mutants until its request pipe closes."""

    def __init__(self) -> None:
        read, write = (int(fd) for fd in os.environ[_FDS].split(","))
        self.requests = os.fdopen(read, "r", encoding="utf-8")
        self.answers = os.fdopen(write, "w", encoding="utf-8")
        self.limits = Limits()

    # -- the pytest side ----------------------------------------------------------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        items = {item.nodeid: item for item in session.items}
        sources = {}
        for path in os.environ["TOOLDROP_MUTATION_TARGETS"].split(os.pathsep):
            with open(path, encoding="utf-8") as f:
                sources[path] = f.read()
        self.modules = {
            getattr(m, "__file__", None): m for m in list(sys.modules.values()) if m is not None
        }
        self.functions, self.caches = self._index(set(sources))
        # What is loaded now stays: pytest's gc.collect() after each test would otherwise
        # walk all of it again in every child.
        gc.freeze()
        signal.signal(signal.SIGTERM, stop)
        self._answer({"ready": True, "collected": len(items)})
        for line in self.requests:
            request = json.loads(line)
            try:
                chosen = [items[t] for t in request["tests"]]
            except KeyError as missing:
                self._answer({"fallback": f"not collected here: {missing}"})
                continue
            path = request["path"]
            try:
                plan = self._plan(path, sources[path], request["source"], request["line"])
            except _Fallback as why:
                self._answer({"fallback": str(why)})
                continue
            self.limits.limits = request.get("limits", {})
            self.limits.default = request.get("limit", 60.0)
            code, seconds, failed = self._fork(plan, chosen, request["timeout"])
            times = os.times()
            cpu = times.user + times.system + times.children_user + times.children_system
            self._answer({"code": code, "seconds": seconds, "cpu": cpu, "failed": failed})
        return True

    # -- the mutants ---------------------------------------------------------------------------

    @staticmethod
    def _index(
        paths: set[str],
    ) -> tuple[dict[types.CodeType, list[types.FunctionType]], dict[str, list[Any]]]:
        """Every live function made from the targets' code, by its code object; and per
        target, the caches wrapping its functions (``functools.cache`` and the like)."""
        functions: dict[types.CodeType, list[types.FunctionType]] = defaultdict(list)
        caches: dict[str, list[Any]] = defaultdict(list)
        for obj in gc.get_objects():
            if isinstance(obj, types.FunctionType):
                if obj.__code__.co_filename in paths:
                    functions[obj.__code__].append(obj)
            elif "cache_clear" in dir(type(obj)):  # not getattr: some objects make up names
                wrapped = getattr(obj, "__wrapped__", None)
                code = getattr(wrapped, "__code__", None)
                if code is not None and code.co_filename in paths:
                    caches[code.co_filename].append(obj)
        return functions, caches

    def _plan(self, path: str, original: str, source: str, line: int) -> _Plan:
        """How to run ``source`` instead of ``original`` in a child.

        :raises _Fallback: when this session cannot.
        """
        module = self.modules.get(path)
        if module is None:
            return _Plan()  # the session never imported it: the child imports it from disk
        try:
            new = compile(source, path, "exec", dont_inherit=True)
        except SyntaxError as exc:
            raise _Fallback(f"does not compile: {exc}") from None
        old = compile(original, path, "exec", dont_inherit=True)
        plan = _Plan(caches=self.caches.get(path, []))
        try:
            changed = _changed_functions(old, new)
        except _ModuleCode:
            plan.module = module
            plan.assignment, plan.names = _assignment(source, line, path)
            return plan
        for old_code, new_code in changed:
            for function in self.functions.get(old_code, ()):
                if len(function.__code__.co_freevars) != len(new_code.co_freevars):
                    raise _Fallback(f"{old_code.co_qualname} closes over other names")
                plan.functions.append((function, new_code))
        return plan

    def _fork(
        self, plan: _Plan, items: list[pytest.Item], timeout: float
    ) -> tuple[int, float, str | None]:
        """Run ``items`` in a child with ``plan`` applied: its exit code (1: a test failed,
        0: none did, -9: out of time), the seconds it took and the test that failed."""
        read, write = os.pipe()

        def child() -> int:
            os.close(read)
            plan.apply()
            for index, item in enumerate(items):
                following = items[index + 1] if index + 1 < len(items) else None
                item.ihook.pytest_runtest_protocol(item=item, nextitem=following)
                if self.limits.failed is not None:
                    os.write(write, self.limits.failed.encode())
                    return 1
            return 0

        try:
            code, seconds = run_forked(child, timeout, ".mutant.log")
        finally:
            os.close(write)
        with os.fdopen(read, "rb") as said:
            failed = said.read().decode() or None
        return code, seconds, failed

    def _answer(self, answer: dict[str, object]) -> None:
        self.answers.write(json.dumps(answer) + "\n")
        self.answers.flush()


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get(_FDS):
        session = Session()
        config.pluginmanager.register(session, "tooldrop_mutation_session")
        config.pluginmanager.register(session.limits, "tooldrop_mutation_limits")
