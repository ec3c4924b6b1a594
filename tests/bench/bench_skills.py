"""Skill bundles against flat tools: the same tool files, in bundles or in one folder.

    uv run python tests/bench/bench_skills.py [--bundles 50] [--per-bundle 20] [--repeat 7]
                                              [--callgrind]

Writes ``bundles x per-bundle`` tool files with ``gen_tools.py`` once, then lays them out two
ways: all flat in ``.tooldrop/tools/``, and spread over ``bundles`` skill bundles (each with a
``skill.yaml`` and an agent file) in ``.tooldrop/skills/``. Cold (no parse cache) and warm
discovery of both run in fresh processes (``_worker.py``), in rotating order; the figure kept
is the best of ``--repeat``. Budget: bundles within 1.2x of flat. Whether the flat layout
itself got slower is ``ab.py REV``'s question (same files, a revision against the tree).
``--callgrind`` counts instructions instead (minus those of a project with no tools, so
imports and start-up drop out): deterministic on a busy machine, blind to I/O.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ab import instructions  # noqa: E402 - the A/B script's valgrind runner
from run import age, worker  # noqa: E402 - the runner's helpers, from this folder

AGENT = "---\nname: {name}-agent\ndescription: The {name} agent.\n---\nYou are {name}.\n"


def layouts(root: Path, bundles: int, per_bundle: int) -> tuple[Path, Path]:
    flat = root / "flat"
    total = bundles * per_bundle
    subprocess.run([sys.executable, str(HERE / "gen_tools.py"), str(flat), str(total)], check=True)
    files = sorted((flat / ".tooldrop" / "tools").iterdir())
    bundled = root / "bundled"
    skills = bundled / ".tooldrop" / "skills"
    for number in range(bundles):
        name = f"skill-{number:03d}"
        folder = skills / name
        (folder / "tools").mkdir(parents=True)
        (folder / "agents").mkdir()
        (folder / "skill.yaml").write_text(
            f"name: {name}\ndescription: Bundle number {number}.\nversion: 0.1.0\n"
        )
        (folder / "agents" / "agent.md").write_text(AGENT.format(name=name))
        for path in files[number * per_bundle : (number + 1) * per_bundle]:
            shutil.copyfile(path, folder / "tools" / path.name)
        age(folder / "tools")
        age(folder / "agents")
        age(folder)
    age(flat / ".tooldrop" / "tools")
    return flat, bundled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundles", type=int, default=50)
    parser.add_argument("--per-bundle", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--callgrind", action="store_true", help="count instructions instead")
    opts = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="tooldrop-bench-skills-") as tmp:
        root = Path(tmp)
        flat, bundled = layouts(root, opts.bundles, opts.per_bundle)
        user = root / "user"
        user.mkdir()
        sides = {"flat": (flat, root / "cache-flat"), "bundles": (bundled, root / "cache-b")}
        for project, cache in sides.values():
            worker("discovery-warm", project, user, cache)  # fill the parse cache
        if opts.callgrind:
            counted(root, sides, user, opts.bundles * opts.per_bundle)
            return
        runs: dict[tuple[str, str], list[float]] = {}
        order = [(side, mode) for side in sides for mode in ("cold", "warm")]
        for i in range(opts.repeat):
            for side, mode in order[i % 4 :] + order[: i % 4]:
                project, cache = sides[side]
                seconds = worker(f"discovery-{mode}", project, user, cache)["seconds"]
                runs.setdefault((side, mode), []).append(seconds)
        total = opts.bundles * opts.per_bundle
        print(
            f"\n{total} tools flat vs in {opts.bundles} bundles of {opts.per_bundle} "
            f"(best of {opts.repeat}, fresh process each)"
        )
        for mode in ("cold", "warm"):
            a, b = min(runs[("flat", mode)]), min(runs[("bundles", mode)])
            print(
                f"  {mode}: flat {a * 1000:7.1f} ms, bundles {b * 1000:7.1f} ms, "
                f"ratio {b / a:.2f}x (budget 1.2x)"
            )


def counted(root: Path, sides: dict[str, tuple[Path, Path]], user: Path, total: int) -> None:
    empty = root / "empty"
    (empty / ".tooldrop" / "tools").mkdir(parents=True)
    (empty / ".tooldrop" / "tools" / "one.md").write_text(
        "---\nname: one\ndescription: d\n---\necho 1\n"
    )  # the worker asserts that something loaded
    print(f"\n{total} tools flat vs in bundles: instructions (minus a one-tool project)")
    for mode in ("cold", "warm"):
        base = instructions(f"discovery-{mode}", empty, user, root / "cache-empty", None)
        flat = instructions(f"discovery-{mode}", sides["flat"][0], user, sides["flat"][1], None)
        bundles = instructions(
            f"discovery-{mode}", sides["bundles"][0], user, sides["bundles"][1], None
        )
        a, b = flat - base, bundles - base
        print(f"  {mode}: flat {a:,}, bundles {b:,}, ratio {b / a:.3f}x (budget 1.2x)")


if __name__ == "__main__":
    main()
