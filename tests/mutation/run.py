"""Mutation testing of the modules tooldrop's safety promises rest on. On demand, not in CI:

    uv run --group mutation python tests/mutation/run.py              # every safety module
    uv run --group mutation python tests/mutation/run.py approval _grants --jobs 2
    uv run --group mutation python tests/mutation/run.py --list        # the mutants only

How it works, and why this way: mutmut puts only its own ``mutants/`` copy on the import path,
which the workspace's editable installs (``core/src`` and ``plugins/*/src``) defeat. So this
runner copies the repository once per job, puts the copy's source directories first on
``PYTHONPATH`` (ahead of the editable installs' ``.pth`` entries), and mutates files in the
copies only; your tree is never touched.

1. One coverage run of the tests with per-test contexts (pytest-cov ``--cov-context=test``)
   tells which tests run each line.
2. Each mutant runs the tests covering its line (``-x``, fastest first). A mutant that
   survives them runs again against its package's whole test directories, which also reach
   code that only runs in subprocesses (the CLI, ``tooldrop serve``).
3. Survivors listed in ``tests/mutation/equivalents.txt`` with a reason are *equivalent*
   (no test could tell them apart); the rest are *real gaps*.

The last line totals it: ``mutation: N mutants, K killed, E equivalent, G real gaps``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutants import Mutant, mutants_of

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENTS = Path(__file__).resolve().parent / "equivalents.txt"

#: The safety modules, each with the test directories that exercise it (the fallback run).
TARGETS: dict[str, tuple[str, ...]] = {
    "core/src/tooldrop/approval.py": ("tests/core", "tests/integration", "tests/python"),
    "core/src/tooldrop/policy/_invariants.py": ("tests/core", "tests/integration"),
    "core/src/tooldrop/policy/_trust.py": ("tests/core", "tests/integration"),
    "core/src/tooldrop/policy/_grants.py": ("tests/core", "tests/integration"),
    "core/src/tooldrop/policy/_envrules.py": ("tests/core", "tests/shell", "tests/markdown"),
    "core/src/tooldrop/_files.py": ("tests/core", "tests/integration"),
    "core/src/tooldrop/_registry.py": ("tests/core",),
    "core/src/tooldrop/calls/_output.py": ("tests/core", "tests/shell"),
    "core/src/tooldrop/schemas/_pattern.py": ("tests/core",),
    "core/src/tooldrop/host/_speccheck.py": ("tests/core",),
    "plugins/markdown/src/tooldrop_markdown/_quote.py": ("tests/markdown",),
    "plugins/markdown/src/tooldrop_markdown/_lint.py": ("tests/markdown",),
    "plugins/markdown/src/tooldrop_markdown/_tagcheck.py": ("tests/markdown",),
    "plugins/markdown/src/tooldrop_markdown/_plainbody.py": ("tests/markdown",),
    "plugins/shell/src/tooldrop_shell/_capture.py": ("tests/shell",),
    "plugins/shell/src/tooldrop_shell/_cwd.py": ("tests/shell/test_cwd.py",),
    "plugins/shell/src/tooldrop_shell/_env.py": ("tests/shell",),
    "plugins/sandbox/src/tooldrop_sandbox/_bwrap.py": ("tests/sandbox",),
    "plugins/sandbox/src/tooldrop_sandbox/_policy.py": ("tests/sandbox",),
}
SOURCE_DIRS = ["core/src", *sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("plugins/*/src"))]


def _copy_tree(dest: Path) -> Path:
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    for name in files:
        src = ROOT / name
        if src.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    return dest


def _env(copy: Path) -> dict[str, str]:
    paths = [str(copy / d) for d in SOURCE_DIRS]
    extra = os.environ.get("PYTHONPATH")
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([*paths, *([extra] if extra else [])]),
        "PYTHONDONTWRITEBYTECODE": "1",
        "HYPOTHESIS_PROFILE": "dev",
    }


def _pytest(copy: Path, args: list[str], timeout: float) -> tuple[bool, float]:
    """Run pytest in ``copy``: (passed, seconds); a timeout counts as a failure (killed)."""
    start = time.monotonic()
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-n0", "-p", "no:cacheprovider", *args]
    try:
        done = subprocess.run(
            command, cwd=copy, env=_env(copy), capture_output=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return False, time.monotonic() - start
    return done.returncode == 0, time.monotonic() - start


def _coverage(copy: Path, targets: list[str]) -> dict[str, dict[int, set[str]]]:
    """``{path: {line: test node ids}}`` from one run of the targets' test directories."""
    dirs = sorted({d for t in targets for d in TARGETS[t]})
    data_file = copy / ".coverage.mutation"
    sources = sorted({str((copy / t).parent) for t in targets})
    args = [
        *dirs, "-n0", "-q", "-p", "no:cacheprovider", "--cov-context=test", "--cov-report=",
        *(f"--cov={s}" for s in sources),
    ]  # fmt: skip
    env = {**_env(copy), "COVERAGE_FILE": str(data_file)}
    subprocess.run([sys.executable, "-m", "pytest", *args], cwd=copy, env=env, check=False,
                   capture_output=True)  # fmt: skip
    import coverage

    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    found: dict[str, dict[int, set[str]]] = {}
    for target in targets:
        by_line = data.contexts_by_lineno(str(copy / target))
        found[target] = {
            line: {c.rsplit("|", 1)[0] for c in contexts if c} for line, contexts in by_line.items()
        }
    return found


def _equivalents() -> dict[str, str]:
    known: dict[str, str] = {}
    if EQUIVALENTS.exists():
        for raw in EQUIVALENTS.read_text(encoding="utf-8").splitlines():
            if raw.strip() and not raw.startswith("#"):
                mutant_id, _, reason = raw.partition(" ")
                known[mutant_id] = reason.strip()
    return known


def _judge(copy: Path, mutant: Mutant, tests: list[str], fallback: tuple[str, ...]) -> str:
    """``killed`` or ``survived``, with ``mutant`` written into ``copy`` while it runs."""
    path = copy / mutant.path
    original = path.read_text(encoding="utf-8")
    path.write_text(mutant.source, encoding="utf-8")
    try:
        if tests:
            passed, _ = _pytest(copy, tests, timeout=300)
            if not passed:
                return "killed"
        passed, _ = _pytest(copy, list(fallback), timeout=900)
        return "survived" if passed else "killed"
    finally:
        path.write_text(original, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="module names or paths (default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    args = parser.parse_args(argv)

    targets = [t for t in TARGETS if (ROOT / t).exists()]
    if args.modules:
        targets = [t for t in targets if any(m in t for m in args.modules)]
    mutants = [m for t in targets for m in mutants_of(t, (ROOT / t).read_text(encoding="utf-8"))]
    if args.list:
        for m in mutants:
            print(f"{m.id}  L{m.line} {m.what}")
        print(f"{len(mutants)} mutants in {len(targets)} modules")
        return 0

    equivalents = _equivalents()
    with tempfile.TemporaryDirectory(prefix="tooldrop-mutation-") as scratch:
        copies = [_copy_tree(Path(scratch) / f"job{i}") for i in range(max(args.jobs, 1))]
        print(f"coverage of {len(targets)} modules ...", flush=True)
        lines = _coverage(copies[0], targets)
        free = list(copies)
        outcome: dict[str, str] = {}

        def run(mutant: Mutant) -> tuple[Mutant, str]:
            copy = free.pop()
            try:
                tests = sorted(lines.get(mutant.path, {}).get(mutant.line, ()))
                return mutant, _judge(copy, mutant, tests, TARGETS[mutant.path])
            finally:
                free.append(copy)

        with concurrent.futures.ThreadPoolExecutor(max_workers=len(copies)) as pool:
            for mutant, verdict in pool.map(run, mutants):
                if verdict == "survived" and mutant.id in equivalents:
                    verdict = "equivalent"
                outcome[mutant.id] = verdict
                if verdict == "survived":
                    print(f"SURVIVED {mutant.id}  L{mutant.line} {mutant.what}", flush=True)

    per_module: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for mutant in mutants:
        per_module[mutant.path][outcome[mutant.id]] += 1
    print(f"\n{'module':60} mutants killed equiv  gaps  score")
    for path in targets:
        counts = per_module[path]
        total = sum(counts.values())
        real = total - counts["equivalent"]
        score = 100 * counts["killed"] / real if real else 100.0
        print(
            f"{path:60} {total:7} {counts['killed']:6} {counts['equivalent']:5} "
            f"{counts['survived']:5} {score:5.1f}%"
        )
    total = len(mutants)
    killed = sum(v == "killed" for v in outcome.values())
    equivalent = sum(v == "equivalent" for v in outcome.values())
    gaps = sum(v == "survived" for v in outcome.values())
    print(f"mutation: {total} mutants, {killed} killed, {equivalent} equivalent, {gaps} real gaps")
    return 1 if gaps else 0


if __name__ == "__main__":
    raise SystemExit(main())
