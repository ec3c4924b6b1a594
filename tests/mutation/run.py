"""Mutation testing of the modules tooldrop's safety promises rest on. On demand, not in CI:

    uv run --group mutation python tests/mutation/run.py              # every safety module
    uv run --group mutation python tests/mutation/run.py approval _grants
    uv run --group mutation python tests/mutation/run.py --list        # the mutants only
    uv run --group mutation python tests/mutation/run.py --diff --id ID | git apply   # one, by hand

How it works, and why this way: mutmut puts only its own ``mutants/`` copy on the import path,
which the workspace's editable installs (``core/src`` and ``plugins/*/src``) defeat. So this
runner copies the repository once per job, puts the copy's source directories first on
``PYTHONPATH`` (ahead of the editable installs' ``.pth`` entries), and mutates files in the
copies only; your tree is never touched.

1. Coverage (``_coverage.py``): one run of the targets' tests (``TARGETS``, in parallel with
   xdist) records which test runs each line, in the pytest process and in every subprocess a
   test starts (``_hook/``). It is cached by the content of the sources and tests: a second
   run with nothing changed skips it.
2. Mutants (``_judging.py``): per job, a pytest session (``_session.py``) collects the tests
   once and runs each mutant in a forked child that swaps the mutated function's code in
   place (or runs a mutated top-level assignment again and rebinds the name where it was
   imported), against the tests covering the mutated line: first those that killed other
   mutants of the line or module, then the rest fastest first, stopping at the first
   failure. A line run at import time gets the tests covering the lines that use what it
   defines. Anything the session cannot patch (a class body, a default) runs in a fresh
   pytest (``_worker.py``), which imports the mutated file from disk as any user would; so do
   the session's survivors (a value the session computed from the original code while
   collecting could hide a mutant: a false survivor, never a false kill; ``--no-confirm``
   skips this).
3. Survivors listed in ``tests/mutation/equivalents.txt`` with a reason are *equivalent*
   (no test could tell them apart) and are not run again unless ``--all``; the rest are
   *real gaps*. ``--recheck`` runs each survivor once more against its module's whole test
   paths, in case a test reaches the line where coverage cannot see it.

The last line totals it: ``mutation: N mutants, K killed, E equivalent, G real gaps``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import difflib
import os
import signal
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _coverage import Selector, cache_keys, tests_per_line
from _judging import HOW, Pool, Worker, cpu_seconds, mutate, recheck
from _layout import EQUIVALENTS, ROOT, TARGETS, copy_tree, tracked
from mutants import Mutant, mutants_of


def _equivalents() -> dict[str, str]:
    known: dict[str, str] = {}
    if EQUIVALENTS.exists():
        for raw in EQUIVALENTS.read_text(encoding="utf-8").splitlines():
            if raw.strip() and not raw.startswith("#"):
                mutant_id, _, reason = raw.partition(" ")
                known[mutant_id] = reason.strip()
    return known


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


def _stop(signum: int, frame: object) -> None:
    # One stop is enough: a second SIGTERM (uv passes its own on) must not cut the clean-up
    # short.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("modules", nargs="*", help="module names or paths (default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument(
        "--id",
        action="append",
        default=[],
        help="only this mutant, or those whose id holds this (repeat)",
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
        "--max-test-seconds",
        type=float,
        help="leave out tests that took longer under coverage (a quick first pass: what only "
        "they would kill shows as a gap)",
    )
    parser.add_argument(
        "--no-confirm",
        action="store_true",
        help="do not run the session's survivors again in a fresh pytest (quicker; a value "
        "the session computed while collecting may then hide a kill)",
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
        # A whole id means that mutant only (``…::abc`` is also part of ``…::abc-2``).
        exact = {m.id for m in mutants} & set(args.id)
        mutants = [
            m
            for m in mutants
            if m.id in exact or any(part in m.id for part in args.id if part not in exact)
        ]
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
    signal.signal(signal.SIGTERM, _stop)

    cpu = cpu_seconds()

    def step(name: str) -> None:
        # Wall time, and the CPU time of everything the step ran (what two idle cores need).
        nonlocal clock, cpu
        now, used = time.monotonic(), cpu_seconds()
        steps[name] = now - clock
        cpu_steps[name] = used - cpu
        clock, cpu = now, used

    jobs = max(args.jobs, 1)
    # A listed equivalent was judged by a person: it is not run again unless asked (--all).
    outcome = {m.id: "equivalent" for m in mutants if m.id in equivalents and not args.all}
    to_run = [m for m in mutants if m.id not in outcome]
    with tempfile.TemporaryDirectory(prefix="tooldrop-mutation-") as scratch:
        files = tracked()
        copies = [copy_tree(files, Path(scratch) / f"job{i}") for i in range(jobs)]
        keys = cache_keys(files, targets)
        step("copies")
        info = tests_per_line(copies[0], targets, keys, jobs)
        step("coverage")
        if args.coverage:
            for target in targets:
                lines = info[target]["lines"]
                users = sorted({t.partition("::")[0] for tests in lines.values() for t in tests})
                print(f"{target}: {len(lines)} lines run, by {' '.join(users)}")
            return 0
        selectors = {t: Selector(t, info[t]) for t in targets}
        for selector in selectors.values():
            selector.slowest = args.max_test_seconds
        modules = list(dict.fromkeys(m for t in targets for m in info[t]["modules"]))
        workers: list[Worker] = []
        try:
            # Each worker's session collects the tests (half a minute): all at once.
            session = None if args.no_session else targets
            # The session collects every test file coverage names (tests of other modules'
            # folders too: a line can be run by any test).
            files = sorted({t.partition("::")[0] for s in selectors.values() for t in s.every})
            with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as starting:
                workers.extend(starting.map(lambda c: Worker(c, modules, session, files), copies))
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
            pool = Pool(workers, confirm=not args.no_confirm)
            outcome.update(mutate(to_run, selectors, pool, jobs, args.verbose))
            step("mutants")
            for mutant in to_run:
                if outcome[mutant.id] == "killed" and mutant.id in equivalents:
                    print(f"note: {mutant.id} is listed as equivalent, and a test kills it")
                elif (
                    outcome[mutant.id] in ("survived", "uncovered", "slow-only")
                    and mutant.id in equivalents
                ):
                    outcome[mutant.id] = "equivalent"
            survivors = [m for m in to_run if outcome[m.id] == "survived"]
            if args.recheck and survivors:
                print(f"recheck: {len(survivors)} survivors against their modules' test paths")
                for mutant in recheck(survivors, pool, jobs):
                    outcome[mutant.id] = "killed"
                    print(f"  killed only by its module's test paths: {mutant.id}")
                step("recheck")
        except BaseException:
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
    if HOW:
        print("judged: " + ", ".join(f"{n} in {how}" for how, n in sorted(HOW.items())))
    total, equivalent = len(mutants), sum(v == "equivalent" for v in outcome.values())
    killed = total - equivalent - gaps
    print(f"mutation: {total} mutants, {killed} killed, {equivalent} equivalent, {gaps} real gaps")
    return 1 if gaps else 0


if __name__ == "__main__":
    raise SystemExit(main())
