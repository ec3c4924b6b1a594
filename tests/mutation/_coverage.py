"""Step 1 of the mutation runner: which tests run each line of the mutated modules, and, per
mutant, the tests to run and their order."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from _layout import CACHE, HERE, PYTEST, ROOT, TARGETS, env_for


def cache_keys(files: list[str], targets: list[str]) -> dict[str, str]:
    """Per target, a digest of what its coverage depends on: the sources, the project's
    configuration, the test directories it runs and the coverage hook."""
    shared = (
        "core/",
        "plugins/",
        "docs/examples/",
        "tests/mutation/_hook/",
        "tests/mutation/_coverage.py",
    )
    top = ("pyproject.toml", "uv.lock", "tests/conftest.py")
    digests = {}
    for name in files:
        if (ROOT / name).is_file() and (name.startswith(("tests/", *shared)) or name in top):
            digests[name] = hashlib.sha256((ROOT / name).read_bytes()).hexdigest()
    keys = {}
    for target in targets:
        dirs = tuple(p if (ROOT / p).is_dir() else str(Path(p).parent) for p in TARGETS[target])
        h = hashlib.sha256(f"{target}\n{TARGETS[target]}\n".encode())
        for name in sorted(digests):
            if name.startswith((*shared, *(f"{d}/" for d in dirs))) or name in top:
                h.update(f"{name} {digests[name]}\n".encode())
        keys[target] = h.hexdigest()[:16]
    return keys


def _cache_file(keys: dict[str, str], target: str) -> Path:
    return CACHE / f"{Path(target).stem}-{keys[target]}.json"


def tests_per_line(
    copy: Path, targets: list[str], keys: dict[str, str], jobs: int
) -> dict[str, dict[str, Any]]:
    """Per target: ``lines`` (line → test ids), ``durations``, ``failed`` and ``modules``."""
    found: dict[str, dict[str, Any]] = {}
    for target in targets:
        cached = _cache_file(keys, target)
        if cached.exists():
            found[target] = json.loads(cached.read_text(encoding="utf-8"))
    missing = [t for t in targets if t not in found]
    if not missing:
        return found
    paths = sorted({p for t in missing for p in TARGETS[t]})
    print(f"coverage: {' '.join(paths)}", flush=True)
    with tempfile.TemporaryDirectory(prefix="tooldrop-coverage-") as data:
        env = env_for(
            copy,
            TOOLDROP_MUTATION_COVERAGE=data,
            TOOLDROP_MUTATION_ROOT=str(copy),
            TOOLDROP_MUTATION_INCLUDE=os.pathsep.join(str(copy / t) for t in missing),
        )
        env["PYTHONPATH"] = os.pathsep.join([str(HERE / "_hook"), env["PYTHONPATH"]])
        command = [
            sys.executable,
            "-m",
            "pytest",
            *PYTEST,
            "-n",
            str(jobs),
            f"--basetemp={copy / '.tmp'}",
            "-p",
            "tooldrop_mutation_plugin",
            *paths,
        ]
        done = subprocess.run(
            command, cwd=copy, env=env, capture_output=True, text=True, check=False
        )
        last = done.stdout.strip().splitlines()[-1:] or ["(no output)"]
        print(f"coverage: {last[0]}", flush=True)
        import coverage

        merged = coverage.Coverage(data_file=str(Path(data) / ".coverage"), config_file=False)
        merged.combine([data], keep=True)
        covered = merged.get_data()
        by_target = {t: covered.contexts_by_lineno(str(copy / t)) for t in missing}
        durations: dict[str, float] = {}
        failed: set[str] = set()
        modules: dict[str, None] = {}  # in import order: a module's parents come first
        for record_file in Path(data).glob("tests.*.json"):
            record = json.loads(record_file.read_text(encoding="utf-8"))
            durations.update(record["durations"])
            failed.update(record["failed"])
            modules.update(dict.fromkeys(record["modules"]))
    if failed:
        print(f"coverage: {len(failed)} tests fail without any mutant; they are left out:")
        for name in sorted(failed):
            print(f"  {name}")
    CACHE.mkdir(exist_ok=True)
    for target in missing:
        found[target] = summary(target, by_target[target], durations, failed, list(modules))
        _cache_file(keys, target).write_text(json.dumps(found[target]), encoding="utf-8")
    return found


def summary(
    target: str,
    contexts: dict[int, list[str]],
    durations: dict[str, float],
    failed: set[str],
    modules: list[str],
) -> dict[str, Any]:
    """What the runner keeps of one target's coverage: ``lines`` (line → the tests that ran
    it, those failing without a mutant left out), ``every`` test of its test paths,
    ``durations`` of all of them, ``failed`` and ``modules``."""
    lines = {
        str(line): sorted({c for c in tests if c and c not in failed})
        for line, tests in contexts.items()
    }
    # Every test of its test paths: a public constant, set at import time while the tests
    # were collected, is read by code anywhere that any of them may reach.
    dirs = tuple(f"{p}/" if (ROOT / p).is_dir() else p for p in TARGETS[target])
    every = sorted(t for t in durations if t.startswith(dirs) and t not in failed)
    # The duration of every test that may run for a mutant, its module's and any other that
    # reaches a line (a test of another folder, often a slow one that starts the CLI): a
    # test without one would count as the fastest, run first and escape --max-test-seconds.
    reaching = {t for tests in lines.values() for t in tests}
    return {
        "lines": lines,
        "every": every,
        "durations": {t: durations.get(t, 0.0) for t in sorted(reaching.union(every))},
        "failed": sorted(failed),
        "modules": modules,
    }


def _import_time_uses(source: str) -> dict[int, set[int] | None]:
    """For each line run at import time (outside any function body), the lines that use what
    its top-level statement defines: a private constant's readers, a function's body. ``None``
    where other modules may read it too (a public constant, a class's attributes): every test
    of the module. Coverage credits such a line to no test (it ran while tests were collected).
    """
    tree = ast.parse(source)
    runtime: set[int] = set()
    loads: dict[str, set[int]] = defaultdict(set)
    exported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for stmt in node.body:
                runtime.update(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
        elif isinstance(node, ast.Lambda):
            runtime.update(range(node.body.lineno, (node.body.end_lineno or 0) + 1))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loads[node.id].add(node.lineno)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            exported.add(node.value)  # names in __all__ (and other strings: harmless)
    spans: list[range] = []
    reads: list[set[int] | None] = []  # per statement: the lines reading what it defines
    inners: list[set[int]] = []
    for stmt in tree.body:
        span = range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1)
        names: set[str] = set()
        inner: set[int] = set()
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(stmt.name)
            inner = {line for line in span if line in runtime}
        elif isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        public = isinstance(stmt, ast.ClassDef) or any(
            not name.startswith("_") or name in exported for name in names
        )
        spans.append(span)
        inners.append(inner)
        reads.append(None if public else {line for name in names for line in loads[name]})
    owner = {line: i for i, span in enumerate(spans) for line in span if line not in runtime}

    def used(index: int, seen: set[int]) -> set[int] | None:
        # A reader run at import time is itself a definition (``_TABLE = {"x": _PART}``):
        # what reads it uses this too, down to the function bodies that read the last one.
        found = set(inners[index])
        direct = reads[index]
        if direct is None:
            return None
        for line in direct - set(spans[index]):
            found.add(line)
            other = owner.get(line)
            if other is not None and other not in seen:
                seen.add(other)
                further = used(other, seen)
                if further is None:
                    return None  # read by something public: any test may reach it
                found |= further
        return found

    uses: dict[int, set[int] | None] = {}
    for index, span in enumerate(spans):
        lines = used(index, {index})
        for line in span:
            if line not in runtime:
                uses[line] = lines
    return uses


def _statement_heads(source: str) -> dict[int, set[int]]:
    """For each line, the other lines of the same statement outside any statement nested in
    it (a compound statement's header). Python folds a literal spread over several lines
    (a tuple of constants) into one instruction on its first line, so coverage never sees
    the rest; their tests are those of the lines around them in the statement."""
    owner: dict[int, ast.stmt] = {}
    for node in ast.walk(ast.parse(source)):  # outer statements first: inner ones overwrite
        if isinstance(node, ast.stmt):
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                owner[line] = node
    heads: dict[int, set[int]] = defaultdict(set)
    for line, node in owner.items():
        heads[id(node)].add(line)
    return {line: heads[id(node)] - {line} for line, node in owner.items()}


class Selector:
    """The tests to run for a mutant of one module: those that killed a mutant of the same
    line, then of the module, first (most recent first); the rest fastest first. The set is
    the same whatever the order; the order makes a kill come early."""

    def __init__(self, target: str, info: dict[str, Any], *, every_line: bool = False) -> None:
        self.every_line = every_line
        self.lines: dict[int, list[str]] = {int(k): v for k, v in info["lines"].items()}
        self.durations: dict[str, float] = info["durations"]
        source = (ROOT / target).read_text(encoding="utf-8")
        self.uses = _import_time_uses(source)
        self.heads = _statement_heads(source)
        #: The tests that reach the module, and every test of its test paths.
        self.everything = sorted({t for tests in self.lines.values() for t in tests})
        self.every: list[str] = info.get("every", self.everything)
        self._killers: dict[int | None, list[str]] = defaultdict(list)  # None: the module's
        #: Leave out tests that took longer than this under coverage (``--max-test-seconds``).
        self.slowest: float | None = None

    @classmethod
    def whole(cls, target: str) -> Selector:
        """Every test path of ``target``, whatever its coverage says (``--recheck``)."""
        paths = list(TARGETS[target])
        return cls(target, {"lines": {"0": paths}, "durations": {}}, every_line=True)

    def _covering(self, line: int) -> set[str]:
        """Every test that reaches ``line`` (or, for a line run at import time, what uses it)."""
        chosen = set(self.lines.get(line, ()))
        if not chosen and line not in self.uses:
            for other in self.heads.get(line, ()):
                chosen.update(self.lines.get(other, ()))
        if line in self.uses:
            uses = self.uses[line]
            if uses is None:
                # Public: read by other modules too, maybe only at their import (a test
                # reaching this module in a subprocess is no sign of which tests read it).
                return set(self.every)
            for used in uses:
                chosen.update(self.lines.get(used, ()))
            if not chosen:  # a private name no covered line reads: every test reaching it
                chosen = set(self.everything)
        return chosen

    def tests(self, line: int) -> tuple[list[str], int]:
        """The tests, and how many at the front have killed a mutant of this module."""
        if self.every_line:
            return self.everything, 0
        chosen = self._covering(line)
        if self.slowest is not None:
            chosen = {t for t in chosen if self.durations.get(t, 0.0) <= self.slowest}
        known = list(dict.fromkeys([*self._killers[line], *self._killers[None]]))
        first = [t for t in known if t in chosen]
        rest = sorted(chosen.difference(first), key=lambda t: (self.durations.get(t, 0.0), t))
        return first + rest, len(first)

    def left_out(self, line: int) -> bool:
        """Whether ``--max-test-seconds`` left out tests of ``line``."""
        return self.slowest is not None and bool(self._covering(line))

    def killed_by(self, line: int, test: str) -> None:
        for key in (line, None):
            killers = self._killers[key]
            if test in killers:
                killers.remove(test)
            killers.insert(0, test)
            del killers[20:]  # a long tail of killers would only run the tests in another order
