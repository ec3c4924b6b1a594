"""Discovery before and after a change: a git revision against the working tree, side by side.

    uv run python tests/bench/ab.py [REV] [--sizes 1000,10000] [--repeat 7] [--callgrind] [--public]

REV (default ``HEAD``) is exported with ``git archive`` and put first on ``PYTHONPATH`` of its
measured processes, so both sides run in this environment, on the same files (those of
``gen_tools.py``), in rotating order, each in a fresh process (``_worker.py``); the figure kept
is the best of ``--repeat``, as ``run.py`` does, with the floor measured in the same run.

Wall-clock time on a shared machine can swing by a third from one minute to the next.
``--callgrind`` counts the instructions each side executes per tool instead (valgrind must be
installed; the count of a one-tool run is subtracted, so imports and start-up drop out): a
deterministic figure for CPU work, blind to what memory and the kernel cost.

``--public`` measures the public path instead (``ToolHost(project_dir=...).tools()`` with the
installed entry-point plugins, imports included, against the floor with ``import yaml``, as
``run.py --public-sizes`` does); every plugin's sources come from REV. With ``--callgrind`` the
whole process is counted, less an interpreter that starts and exits: start-up is what this
path is about.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from run import age, environ  # noqa: E402 - the runner's helpers, from this folder

SOURCES = ("core/src", "plugins/markdown/src", "plugins/shell/src")
MODES = ("discovery-cold", "discovery-warm")
#: The public path loads every installed plugin: all of them come from the revision.
PUBLIC_SOURCES = tuple(
    str(src.relative_to(ROOT)) for src in sorted((ROOT / "plugins").glob("*/src"))
)
PUBLIC_MODES = ("public-cold", "public-warm")


def export(rev: str, into: Path, sources: tuple[str, ...] = SOURCES) -> str:
    """Unpack ``rev``'s sources under ``into``; the ``PYTHONPATH`` that imports them."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev, *sources],
        capture_output=True,
        check=True,
    ).stdout
    tar = into / "rev.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as handle:
        handle.extractall(into, filter="data")
    return os.pathsep.join(str(into / source) for source in sources)


def command(mode: str, project: Path, user: Path) -> list[str]:
    return [sys.executable, str(HERE / "_worker.py"), mode, str(project), str(user)]


def run(mode: str, project: Path, user: Path, cache: Path, path: str | None) -> float:
    env = environ(cache)
    if path:
        env["PYTHONPATH"] = path
    done = subprocess.run(
        command(mode, project, user), capture_output=True, text=True, env=env, check=True
    )
    return float(json.loads(done.stdout.strip().splitlines()[-1])["seconds"])


def instructions(mode: str, project: Path, user: Path, cache: Path, path: str | None) -> int:
    env = environ(cache)
    if path:
        env["PYTHONPATH"] = path
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            *command(mode, project, user),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    assert found, done.stderr[-500:]
    return int(found.group(1))


def tools(root: Path, size: int) -> Path:
    project = root / f"p{size}"
    subprocess.run(
        [sys.executable, str(HERE / "gen_tools.py"), str(project), str(size)], check=True
    )
    age(project / ".tooldrop" / "tools")
    return project


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", nargs="?", default="HEAD")
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--callgrind", action="store_true", help="count instructions instead")
    parser.add_argument("--public", action="store_true", help="the public path, imports included")
    opts = parser.parse_args()
    if opts.callgrind and not shutil.which("valgrind"):
        raise SystemExit("--callgrind needs valgrind")
    with tempfile.TemporaryDirectory(prefix="tooldrop-ab-") as tmp:
        root = Path(tmp)
        (root / "rev").mkdir()
        sources = (*SOURCES[:1], *PUBLIC_SOURCES) if opts.public else SOURCES
        sides = {opts.rev: export(opts.rev, root / "rev", sources), "worktree": None}
        user = root / "user"
        user.mkdir()
        print(f"{opts.rev} against the working tree, python {sys.version.split()[0]}")
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus")
        if opts.public:
            public(opts, sides, root, user)
            return
        one = tools(root, 1)
        for size in (int(s) for s in opts.sizes.split(",")):
            project = tools(root, size)
            caches = {side: root / f"cache-{i}" for i, side in enumerate(sides)}
            for side, path in sides.items():  # bytecode caches and the parse caches
                for where in (one, project):
                    run("discovery-warm", where, user, caches[side], path)
            if opts.callgrind:
                print(f"\n{size:,} tools: instructions per tool (minus a one-tool run)")
                floor = instructions("floor", project, user, caches["worktree"], None)
                floor -= instructions("floor", one, user, caches["worktree"], None)
                print(f"  {'floor':<14} {floor // (size - 1):>12,}")
                for mode in MODES:
                    for side, path in sides.items():
                        count = instructions(mode, project, user, caches[side], path)
                        count -= instructions(mode, one, user, caches[side], path)
                        print(
                            f"  {mode.removeprefix('discovery-')} {side:<9} "
                            f"{count // (size - 1):>12,}  {count / floor:5.2f}x floor"
                        )
                continue
            cases = [("floor", "floor", "worktree")] + [
                (f"{mode.removeprefix('discovery-')} {side}", mode, side)
                for mode in MODES
                for side in sides
            ]
            best = _best_times(cases, opts.repeat, project, user, caches, sides)
            _print_times(f"{size:,} tools", opts.repeat, cases, best)


def _best_times(
    cases: list[tuple[str, str, str]],
    repeat: int,
    project: Path,
    user: Path,
    caches: dict[str, Path],
    sides: dict[str, str | None],
) -> dict[str, float]:
    """The best wall time of each case over ``repeat`` rounds, each round starting one case
    later, so no case always runs first (after the others warmed the machine)."""
    best: dict[str, float] = {}
    for i in range(repeat):
        turn = i % len(cases)
        for label, mode, side in cases[turn:] + cases[:turn]:
            seconds = run(mode, project, user, caches[side], sides[side])
            best[label] = min(best.get(label, seconds), seconds)
    return best


def _print_times(
    title: str, repeat: int, cases: list[tuple[str, str, str]], best: dict[str, float]
) -> None:
    print(f"\n{title} (best of {repeat}, fresh process each)")
    for label, _, _ in cases:
        ratio = best[label] / best["floor"]
        print(f"  {label:<20} {best[label] * 1000:>9.1f} ms {ratio:6.2f}x")


def public(opts: argparse.Namespace, sides: dict[str, str | None], root: Path, user: Path) -> None:
    """The public path of each side against the floor, imports included."""
    for size in (int(s) for s in opts.sizes.split(",")):
        project = tools(root, size)
        caches = {side: root / f"cache-{i}" for i, side in enumerate(sides)}
        for side, path in sides.items():  # bytecode caches and the parse caches
            run("public-warm", project, user, caches[side], path)
        cases = [("floor", "floor-public", "worktree")] + [
            (f"{mode.removeprefix('public-')} {side}", mode, side)
            for mode in PUBLIC_MODES
            for side in sides
        ]
        if opts.callgrind:
            # An interpreter that starts, imports what the worker imports, and exits.
            empty = instructions("empty", project, user, caches["worktree"], None)
            counts = {
                label: instructions(mode, project, user, caches[side], sides[side]) - empty
                for label, mode, side in cases
            }
            print(f"\n{size:,} tools, public path: instructions (less an empty start-up)")
            for label, _, _ in cases:
                ratio = counts[label] / counts["floor"]
                print(f"  {label:<20} {counts[label] / 1e6:>9.1f} M {ratio:6.2f}x")
            continue
        best = _best_times(cases, opts.repeat, project, user, caches, sides)
        _print_times(f"{size:,} tools, public path", opts.repeat, cases, best)


if __name__ == "__main__":
    main()
