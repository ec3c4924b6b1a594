"""Mutation testing of the modules tooldrop's safety promises rest on. On demand, not in CI:

    uv run --group mutation python tests/mutation/run.py              # every safety module
    uv run --group mutation python tests/mutation/run.py approval _grants
    uv run --group mutation python tests/mutation/run.py --list        # the mutants only

How it works, and why this way: mutmut puts only its own ``mutants/`` copy on the import path,
which the workspace's editable installs (``core/src`` and ``plugins/*/src``) defeat. So this
runner copies the repository once per job, puts the copy's source directories first on
``PYTHONPATH`` (ahead of the editable installs' ``.pth`` entries), and mutates files in the
copies only; your tree is never touched.

1. Coverage: one run of the targets' tests (``TARGETS``, in parallel with xdist) records which
   test runs each line, in the pytest process and in every subprocess a test starts
   (``_hook/``). It is cached by the content of the sources and tests: a second run with
   nothing changed skips it.
2. Mutants: a worker per job (``_worker.py``) imports pytest and the tests' libraries once and
   forks a fresh child per mutant, which runs the tests covering the mutated line, fastest
   first, stopping at the first failure. A line run at import time (a constant, a default)
   runs the tests covering the lines that use what it defines.
3. A mutant that survives its tests runs once more against its module's test paths, in case a
   test reaches the line where coverage cannot see it.
4. Survivors listed in ``tests/mutation/equivalents.txt`` with a reason are *equivalent*
   (no test could tell them apart); the rest are *real gaps*.

The last line totals it: ``mutation: N mutants, K killed, E equivalent, G real gaps``.
"""

from __future__ import annotations

import argparse
import ast
import compileall
import concurrent.futures
import contextlib
import difflib
import hashlib
import json
import os
import py_compile
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutants import Mutant, mutants_of

_T = TypeVar("_T")
_R = TypeVar("_R")

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
EQUIVALENTS = HERE / "equivalents.txt"
CACHE = ROOT / ".mutation-cache"

#: The safety modules, each with the tests that exercise it: the coverage step runs these,
#: and a survivor runs them all once more before it counts.
_CORE = "core/src/tooldrop"
_MARKDOWN = "plugins/markdown/src/tooldrop_markdown"
_SHELL = "plugins/shell/src/tooldrop_shell"
_SANDBOX = "plugins/sandbox/src/tooldrop_sandbox"
TARGETS: dict[str, tuple[str, ...]] = {
    # who may run what: the approval decision, its invariants, trust, grants
    f"{_CORE}/approval.py": ("tests/core", "tests/integration", "tests/python", "tests/sandbox"),
    f"{_CORE}/policy/_invariants.py": ("tests/core", "tests/integration", "tests/sandbox"),
    f"{_CORE}/policy/_trust.py": ("tests/core", "tests/integration"),
    f"{_CORE}/policy/_grants.py": ("tests/core", "tests/integration"),
    f"{_CORE}/_files.py": ("tests/core", "tests/integration"),
    f"{_CORE}/_registry.py": ("tests/core",),
    f"{_CORE}/host/_speccheck.py": ("tests/core",),
    # what a tool's process gets: its environment, its directory, its sandbox
    f"{_CORE}/policy/_envrules.py": ("tests/core", "tests/shell", "tests/markdown"),
    f"{_SHELL}/_env.py": ("tests/shell",),
    f"{_SHELL}/_cwd.py": ("tests/shell",),
    f"{_CORE}/calls/_sandbox.py": ("tests/core", "tests/sandbox", "tests/shell"),
    f"{_SANDBOX}/_bwrap.py": ("tests/sandbox",),
    f"{_SANDBOX}/_policy.py": ("tests/sandbox",),
    # what the model sees of its output
    f"{_CORE}/calls/_output.py": ("tests/core", "tests/shell"),
    f"{_SHELL}/_capture.py": ("tests/shell",),
    # arguments: patterns run on RE2 as ECMA-262 means them
    f"{_CORE}/schemas/_pattern.py": ("tests/core",),
    f"{_CORE}/schemas/_ecma.py": ("tests/core",),
    # values never become code: placeholders, the shell's parse, quoting
    f"{_MARKDOWN}/_template.py": ("tests/markdown",),
    f"{_MARKDOWN}/_shell.py": ("tests/markdown",),
    f"{_MARKDOWN}/_tagcheck.py": ("tests/markdown",),
    f"{_MARKDOWN}/_bashtree.py": ("tests/markdown",),
    f"{_MARKDOWN}/_bashwords.py": ("tests/markdown",),
    f"{_MARKDOWN}/_positions.py": ("tests/markdown",),
    f"{_MARKDOWN}/_placement.py": ("tests/markdown",),
    f"{_MARKDOWN}/_shapes.py": ("tests/markdown",),
    f"{_MARKDOWN}/_plainbody.py": ("tests/markdown",),
    f"{_MARKDOWN}/_lint.py": ("tests/markdown",),
    f"{_MARKDOWN}/_quote.py": ("tests/markdown",),
}
SOURCE_DIRS = ["core/src", *sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("plugins/*/src"))]
#: Every pytest run here: no cache, no plugins that only cost start-up time.
PYTEST = [
    "-q",
    "--no-header",
    "-p",
    "no:cacheprovider",
    "-p",
    "no:langsmith_plugin",
    "-p",
    "no:pytest_cov",
]


def _tracked() -> list[str]:
    return subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()


def _copy_tree(files: list[str], dest: Path) -> Path:
    for name in files:
        src = ROOT / name
        if src.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    # Bytecode checked by the source's hash, not its time stamp: every import of an unchanged
    # module skips compiling it, and a mutant (same size, same second) never loads stale code.
    for directory in SOURCE_DIRS:
        compileall.compile_dir(
            dest / directory, quiet=1, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH
        )
    return dest


def _env(copy: Path, **extra: str) -> dict[str, str]:
    paths = [str(copy / d) for d in SOURCE_DIRS]
    inherited = os.environ.get("PYTHONPATH")
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([*paths, *([inherited] if inherited else [])]),
        "PYTHONDONTWRITEBYTECODE": "1",  # a mutant's bytecode must never outlive it
        "HYPOTHESIS_PROFILE": "mutation",  # the same examples in every run (tests/conftest.py)
        **extra,
    }


# -- step 1: which tests run each line ---------------------------------------------------------


def _cache_keys(files: list[str], targets: list[str]) -> dict[str, str]:
    """Per target, a digest of what its coverage depends on: the sources, the project's
    configuration, the test directories it runs and the coverage hook."""
    shared = ("core/", "plugins/", "docs/examples/", "tests/mutation/_hook/")
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


def _coverage(
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
        env = _env(
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
        summary = done.stdout.strip().splitlines()[-1:] or ["(no output)"]
        print(f"coverage: {summary[0]}", flush=True)
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
        lines = {
            str(line): sorted({c for c in contexts if c and c not in failed})
            for line, contexts in by_target[target].items()
        }
        used = {t for tests in lines.values() for t in tests}
        found[target] = {
            "lines": lines,
            "durations": {t: durations.get(t, 0.0) for t in used},
            "failed": sorted(failed),
            "modules": list(modules),
        }
        _cache_file(keys, target).write_text(json.dumps(found[target]), encoding="utf-8")
    return found


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
    uses: dict[int, set[int] | None] = {}
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
        used = None if public else inner | {line for name in names for line in loads[name]}
        for line in span:
            if line not in runtime:
                uses[line] = None if used is None else used - set(span) | inner
    return uses


class _Selector:
    """The tests to run for a mutant of one module: those that killed a mutant of the same
    line, then of the module, first (most recent first); the rest fastest first. The set is
    the same whatever the order; the order makes a kill come early."""

    def __init__(self, target: str, info: dict[str, Any], *, every_line: bool = False) -> None:
        self.every_line = every_line
        self.lines: dict[int, list[str]] = {int(k): v for k, v in info["lines"].items()}
        self.durations: dict[str, float] = info["durations"]
        self.uses = _import_time_uses((ROOT / target).read_text(encoding="utf-8"))
        self.everything = sorted({t for tests in self.lines.values() for t in tests})
        self._killers: dict[int | None, list[str]] = defaultdict(list)  # None: the module's

    @classmethod
    def whole(cls, target: str) -> _Selector:
        """Every test path of ``target``, whatever its coverage says (``--recheck``)."""
        paths = list(TARGETS[target])
        return cls(target, {"lines": {"0": paths}, "durations": {}}, every_line=True)

    def tests(self, line: int) -> tuple[list[str], int]:
        """The tests, and how many at the front have killed a mutant of this module."""
        if self.every_line:
            return self.everything, 0
        chosen = set(self.lines.get(line, ()))
        if line in self.uses:
            uses = self.uses[line]
            for used in uses or ():
                chosen.update(self.lines.get(used, ()))
            if uses is None or not chosen:  # read elsewhere too: every test reaching the module
                chosen = set(self.everything)
        known = list(dict.fromkeys([*self._killers[line], *self._killers[None]]))
        first = [t for t in known if t in chosen]
        rest = sorted(chosen.difference(first), key=lambda t: (self.durations.get(t, 0.0), t))
        return first + rest, len(first)

    def killed_by(self, line: int, test: str) -> None:
        for key in (line, None):
            killers = self._killers[key]
            if test in killers:
                killers.remove(test)
            killers.insert(0, test)
            del killers[20:]  # a long tail of killers would only run the tests in another order


# -- step 2: the mutants -----------------------------------------------------------------------


_LIVE: list[_Worker] = []


class _Worker:
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
                env=_env(self.copy),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            answer = self._ask({"modules": self.modules})
            if answer.get("ready"):
                _LIVE.append(self)
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
        if self in _LIVE:
            _LIVE.remove(self)


class _Session:
    """One job's fast worker (``_session.py``): a pytest session that has collected the
    targets' tests and runs each mutant in a forked child, the mutated function patched."""

    def __init__(self, copy: Path, targets: list[str], files: list[str]) -> None:
        requests_read, self._requests = os.pipe()
        self._answers, answers_write = os.pipe()
        env = _env(
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
            _HOW[f"fresh pytest ({answer['fallback'].split(':')[0]})"] += 1
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
_HOW: dict[str, int] = defaultdict(int)


def _judge(worker: _Worker, mutant: Mutant, selector: _Selector, fast: bool) -> _Verdict:
    """``mutant``'s verdict in ``worker``: ``killed``, ``survived``, ``uncovered`` or ``error:
    ...``. ``fast``: try the worker's session first; only its kills count, anything else runs
    again in a fresh pytest: the tests that killed other mutants of the module alone first
    (collecting every test file costs seconds), then all of them."""
    tests, known = selector.tests(mutant.line)
    if not tests:
        return _Verdict("uncovered", 0.0, 0)
    durations = selector.durations
    path = worker.copy / mutant.path
    original = path.read_text(encoding="utf-8")
    path.write_text(mutant.source, encoding="utf-8")
    seconds = 0.0
    try:
        # A test that takes far longer than it did under coverage (itself slower) hangs.
        limits = {t: 10 + 5 * durations.get(t, 0.0) for t in tests}
        budget = sum(durations.get(t, 0.0) for t in tests)
        timeout = 60 + 4 * budget if budget else 1800  # (--recheck: whole test directories)
        if fast and worker.session is not None:
            done = worker.session.run(mutant, path, tests, timeout, limits)
            if done is not None:
                code, seconds, failed = done
                _HOW["session"] += 1
                if code in (1, -9):
                    if failed:
                        selector.killed_by(mutant.line, failed)
                    return _Verdict("killed", seconds, len(tests))
        _HOW["fresh pytest"] += 1
        stages = [tests[:known], tests] if 0 < known < len(tests) else [tests]
        for stage in stages:
            code, more, failed = _fresh(worker, stage, timeout, limits)
            seconds += more
            if code != 0:
                break
    finally:
        path.write_text(original, encoding="utf-8")
    if code == 0:
        return _Verdict("survived", seconds, len(tests))
    if code == 5 or (code == 4 and not _conftest_broken(worker)):
        # no test collected, or a usage error: the runner's fault, not the mutant's
        error = f"error: pytest exit {code}, see {worker.copy / '.mutant.log'}"
        return _Verdict(error, seconds, len(tests))
    # failed (1), errors while collecting (2), a conftest the mutant keeps from importing (4),
    # timed out (-9)
    if failed:
        selector.killed_by(mutant.line, failed)
    return _Verdict("killed", seconds, len(tests))


@attrs.frozen
class _Verdict:
    verdict: str
    seconds: float
    tests: int


def _fresh(
    worker: _Worker, tests: list[str], timeout: float, limits: dict[str, float]
) -> tuple[int, float, str | None]:
    code, seconds, failed = worker.pytest(tests, timeout=timeout, limits=limits)
    if code in (4, 5) and _ids_not_found(worker):
        # The mutant renamed a parametrized test (its ids come from the module's values):
        # run the whole files those tests are in, a superset that holds the renamed ones.
        files = list(dict.fromkeys(t.partition("::")[0] for t in tests))
        code, more, failed = worker.pytest(files, timeout=timeout, limits=limits)
        seconds += more
    return code, seconds, failed


def _log(worker: _Worker) -> str:
    return (worker.copy / ".mutant.log").read_text(encoding="utf-8", errors="replace")


def _conftest_broken(worker: _Worker) -> bool:
    return "while loading conftest" in _log(worker)


def _ids_not_found(worker: _Worker) -> bool:
    log = _log(worker)
    return "ERROR: not found:" in log or "ERROR: found no collectors" in log


def _cpu() -> float:
    """CPU seconds of this process and of every process it has waited for (their children
    too): the coverage run, the workers once closed, the forked runs and the tests'
    subprocesses."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), os.times()
    # A worker's counts above once it is waited for.
    live = sum(w.cpu + (w.session.cpu if w.session else 0.0) for w in _LIVE)
    return own.ru_utime + own.ru_stime + children.children_user + children.children_system + live


def _equivalents() -> dict[str, str]:
    known: dict[str, str] = {}
    if EQUIVALENTS.exists():
        for raw in EQUIVALENTS.read_text(encoding="utf-8").splitlines():
            if raw.strip() and not raw.startswith("#"):
                mutant_id, _, reason = raw.partition(" ")
                known[mutant_id] = reason.strip()
    return known


class _Pool:
    """The workers, lent out one per thread."""

    def __init__(self, workers: list[_Worker]) -> None:
        self._free = list(workers)
        self._lock = threading.Lock()

    def judge(self, mutant: Mutant, selector: _Selector, *, fast: bool = False) -> _Verdict:
        with self._lock:
            worker = self._free.pop()
        try:
            return _judge(worker, mutant, selector, fast)
        finally:
            with self._lock:
                self._free.append(worker)


def _each(fn: Callable[[_T], _R], items: list[_T], jobs: int) -> Iterator[_R]:
    """``fn`` over ``items`` in ``jobs`` threads, results in order. ^C or SIGTERM cancels what
    has not started: leaving the executor's ``with`` would first run every queued item."""
    threads = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    try:
        yield from threads.map(fn, items)
    except BaseException:
        threads.shutdown(wait=False, cancel_futures=True)
        raise
    threads.shutdown()


def _mutate(
    mutants: list[Mutant], selectors: dict[str, _Selector], pool: _Pool, jobs: int, verbose: bool
) -> dict[str, str]:
    """Each mutant's verdict, from the tests covering its line."""

    def run(mutant: Mutant) -> tuple[Mutant, _Verdict]:
        selector = selectors[mutant.path]
        # A mutant of a line run at import time is patched in the session only when it is a
        # plain assignment; anything else there needs a fresh import.
        return mutant, pool.judge(mutant, selector, fast=True)

    outcome: dict[str, str] = {}
    start = time.monotonic()
    for done, (mutant, verdict) in enumerate(_each(run, mutants, jobs), 1):
        outcome[mutant.id] = verdict.verdict
        if verbose:
            print(
                f"  {verdict.verdict:8} {verdict.seconds:5.1f} s {verdict.tests:4} tests  "
                f"{mutant.id}  L{mutant.line} {mutant.what}",
                flush=True,
            )
        elif done % 100 == 0:
            print(f"  {done}/{len(mutants)} in {time.monotonic() - start:.0f} s", flush=True)
    return outcome


def _recheck(mutants: list[Mutant], pool: _Pool, jobs: int) -> list[Mutant]:
    """The survivors that their module's whole test paths kill (coverage missed the test)."""

    def again(mutant: Mutant) -> tuple[Mutant, str]:
        whole = _Selector.whole(mutant.path)
        return mutant, pool.judge(mutant, whole).verdict

    return [m for m, verdict in _each(again, mutants, jobs) if verdict == "killed"]


def _report(targets: list[str], mutants: list[Mutant], outcome: dict[str, str]) -> int:
    per_module: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for mutant in mutants:
        verdict = outcome[mutant.id]
        if verdict not in ("killed", "equivalent"):
            print(f"{verdict.upper()} {mutant.id}  L{mutant.line} {mutant.what}")
            verdict = "survived"
        per_module[mutant.path][verdict] += 1
    print(f"\n{'module':56} mutants killed equiv  gaps  score")
    for path in targets:
        counts = per_module[path]
        total = sum(counts.values())
        real = total - counts["equivalent"]
        score = 100 * counts["killed"] / real if real else 100.0
        print(
            f"{path:56} {total:7} {counts['killed']:6} {counts['equivalent']:5} "
            f"{counts['survived']:5} {score:5.1f}%"
        )
    total = len(mutants)
    killed = sum(v == "killed" for v in outcome.values())
    equivalent = sum(v == "equivalent" for v in outcome.values())
    return total - killed - equivalent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("modules", nargs="*", help="module names or paths (default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument(
        "--id", action="append", default=[], help="only the mutants whose id holds this (repeat)"
    )
    parser.add_argument(
        "--diff",
        action="store_true",
        help="print the mutants as a patch (git apply), run nothing",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="a line per mutant")
    parser.add_argument(
        "--coverage",
        action="store_true",
        help="run the coverage step only; list the test files per module",
    )
    parser.add_argument(
        "--recheck",
        action="store_true",
        help="run each survivor again against its module's test paths",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="also run the mutants equivalents.txt lists (they should survive)",
    )
    parser.add_argument(
        "--no-session",
        action="store_true",
        help="run every mutant in a fresh pytest (slower; to compare with the session's verdicts)",
    )
    args = parser.parse_args(argv)

    targets = [t for t in TARGETS if (ROOT / t).exists()]
    if args.modules:
        targets = [t for t in targets if any(m in t for m in args.modules)]
    mutants = [m for t in targets for m in mutants_of(t, (ROOT / t).read_text(encoding="utf-8"))]
    if args.id:
        mutants = [m for m in mutants if any(part in m.id for part in args.id)]
    if args.diff:
        for m in mutants:
            before = (ROOT / m.path).read_text(encoding="utf-8").splitlines(keepends=True)
            after = m.source.splitlines(keepends=True)
            sys.stdout.writelines(difflib.unified_diff(before, after, f"a/{m.path}", f"b/{m.path}"))
        return 0
    if args.list:
        for m in mutants:
            print(f"{m.id}  L{m.line} {m.what}")
        print(f"{len(mutants)} mutants in {len(targets)} modules")
        return 0

    equivalents = _equivalents()
    steps: dict[str, float] = {}
    cpu_steps: dict[str, float] = {}
    started = clock = time.monotonic()
    # A kill (SIGTERM) unwinds like ^C: the workers stop and the copies are removed.
    signal.signal(signal.SIGTERM, signal.default_int_handler)

    cpu = _cpu()

    def step(name: str) -> None:
        # Wall time, and the CPU time of everything the step ran (what two idle cores need).
        nonlocal clock, cpu
        now, used = time.monotonic(), _cpu()
        steps[name] = now - clock
        cpu_steps[name] = used - cpu
        clock, cpu = now, used

    jobs = max(args.jobs, 1)
    # A listed equivalent was judged by a person: it is not run again unless asked (--all).
    outcome = {m.id: "equivalent" for m in mutants if m.id in equivalents and not args.all}
    to_run = [m for m in mutants if m.id not in outcome]
    with tempfile.TemporaryDirectory(prefix="tooldrop-mutation-") as scratch:
        files = _tracked()
        copies = [_copy_tree(files, Path(scratch) / f"job{i}") for i in range(jobs)]
        keys = _cache_keys(files, targets)
        step("copies")
        info = _coverage(copies[0], targets, keys, jobs)
        step("coverage")
        if args.coverage:
            for target in targets:
                lines = info[target]["lines"]
                users = sorted({t.partition("::")[0] for tests in lines.values() for t in tests})
                print(f"{target}: {len(lines)} lines run, by {' '.join(users)}")
            return 0
        selectors = {t: _Selector(t, info[t]) for t in targets}
        modules = list(dict.fromkeys(m for t in targets for m in info[t]["modules"]))
        workers: list[_Worker] = []
        try:
            # Each worker's session collects the tests (half a minute): all at once.
            session = None if args.no_session else targets
            # The session collects every test file coverage names (tests of other modules'
            # folders too: a line can be run by any test).
            files = sorted({t.partition("::")[0] for s in selectors.values() for t in s.everything})
            with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as starting:
                workers.extend(starting.map(lambda c: _Worker(c, modules, session, files), copies))
            if workers[0].left_out:
                print(f"workers: left out {workers[0].left_out} (they import the project)")
            if workers[0].session is not None:
                print(f"workers: {workers[0].session.collected} tests collected per session")
            step("workers")
            print(
                f"{len(to_run)} mutants to run ({len(mutants) - len(to_run)} listed as "
                f"equivalent), {len(targets)} modules, {jobs} jobs",
                flush=True,
            )
            pool = _Pool(workers)
            outcome.update(_mutate(to_run, selectors, pool, jobs, args.verbose))
            step("mutants")
            for mutant in to_run:
                if outcome[mutant.id] == "killed" and mutant.id in equivalents:
                    print(f"note: {mutant.id} is listed as equivalent, and a test kills it")
                elif outcome[mutant.id] in ("survived", "uncovered") and mutant.id in equivalents:
                    outcome[mutant.id] = "equivalent"
            survivors = [m for m in to_run if outcome[m.id] == "survived"]
            if args.recheck and survivors:
                print(f"recheck: {len(survivors)} survivors against their modules' test paths")
                for mutant in _recheck(survivors, pool, jobs):
                    outcome[mutant.id] = "killed"
                    print(f"  killed only by its module's test paths: {mutant.id}")
                step("recheck")
        except BaseException:
            # One stop is enough: a second SIGTERM (uv passes its own on) must not cut the
            # clean-up short.
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            for worker in workers:
                worker.close(now=True)
            raise
        finally:
            for worker in workers:
                worker.close()

    gaps = _report(targets, mutants, outcome)
    mutated = {m.path for m in mutants}
    for mutant_id in sorted(set(equivalents) - {m.id for m in mutants} if not args.id else ()):
        if mutant_id.partition("::")[0] in mutated:
            print(f"note: {mutant_id} in equivalents.txt is no longer a mutant of its module")
    wall = ", ".join(f"{k} {v:.0f} s" for k, v in steps.items())
    print(f"time: {wall}, total {time.monotonic() - started:.0f} s")
    used = ", ".join(f"{k} {v:.0f} s" for k, v in cpu_steps.items())
    print(f"cpu:  {used}, total {sum(cpu_steps.values()):.0f} s")
    if _HOW:
        print("judged: " + ", ".join(f"{n} in {how}" for how, n in sorted(_HOW.items())))
    total, equivalent = len(mutants), sum(v == "equivalent" for v in outcome.values())
    killed = total - equivalent - gaps
    print(f"mutation: {total} mutants, {killed} killed, {equivalent} equivalent, {gaps} real gaps")
    return 1 if gaps else 0


if __name__ == "__main__":
    raise SystemExit(main())
