"""tooldrop's performance budgets, measured side by side in one run (DESIGN §10).

    uv run python tests/bench/run.py [--sizes 100,1000,10000] [--repeat 5] [--calls 300]

Writes realistic tool files with ``gen_tools.py`` (the files the project is judged on), then
reports, as ratios against a baseline measured in the same run:

- cold discovery (no parse cache) against the floor: list the folder, read each file, parse
  its frontmatter with PyYAML's C loader, nothing more (budget 1.5x);
- warm discovery (parse cache) against the same floor (budget 0.15x);
- how discovery grows from 1,000 to 10,000 tools (per-tool time, budget: linear);
- the public path, ``ToolHost(project_dir=...).tools()`` with the installed entry-point
  plugins in a fresh process, ``import tooldrop`` included, cold and warm, against the floor
  with ``import yaml`` included (``--public-sizes``, default 1,000 tools; aim: cold 1.3x,
  warm 0.15x);
- ``host.call`` of a trivial markdown tool against a bare ``subprocess.run([bash, "-c",
  script])`` (budget 1.1x);
- peak memory of 10,000 loaded tools, and of a call whose tool prints 1 GiB;
- ``tooldrop list`` as a whole process against ``python -c "import yaml"``.

Every discovery measurement runs in a fresh process (``_worker.py``), timed after its imports,
so no in-process cache makes a "cold" run warm; the figure kept is the best of ``--repeat``
runs, taken in rotating order.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASH = "/bin/bash"

TRIVIAL = """---
name: trivial
description: A trivial tool.
approval: never
read_only: true
shell: bash
---
echo hi
"""

FLOOD = """---
name: flood
description: Print 1 GiB.
approval: never
read_only: true
shell: bash
timeout_ms: 300000
---
yes | head -c 1073741824
"""


def age(folder: Path) -> None:
    """Make the files look a minute old, as files on disk usually are (past the racy window)."""
    old = time.time() - 60
    for path in folder.iterdir():
        os.utime(path, (old, old))


def environ(cache: Path) -> dict[str, str]:
    """The environment of a measured process: its own cache dir, and bytecode caching on, as
    an installed tooldrop has it (some shells export PYTHONDONTWRITEBYTECODE=1)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def worker(mode: str, project: Path, user: Path, cache: Path) -> dict[str, float]:
    env = environ(cache)
    done = subprocess.run(
        [sys.executable, str(HERE / "_worker.py"), mode, str(project), str(user)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def discovery(sizes: list[int], repeat: int, root: Path) -> dict[int, dict[str, list[float]]]:
    results: dict[int, dict[str, list[float]]] = {}
    for size in sizes:
        project, user, cache = root / f"p{size}", root / f"u{size}", root / f"c{size}"
        subprocess.run(
            [sys.executable, str(HERE / "gen_tools.py"), str(project), str(size)], check=True
        )
        age(project / ".tooldrop" / "tools")
        user.mkdir()
        worker("discovery-warm", project, user, cache)  # fill the parse cache
        runs: dict[str, list[float]] = {"floor": [], "cold": [], "warm": [], "rss_kb": []}
        modes = ["floor", "discovery-cold", "discovery-warm"]
        for i in range(repeat):
            for mode in modes[i % 3 :] + modes[: i % 3]:
                measured = worker(mode, project, user, cache)
                runs[mode.removeprefix("discovery-")].append(measured["seconds"])
                if mode == "discovery-cold":
                    runs["rss_kb"].append(measured["rss_kb"])
        results[size] = runs
    return results


def public_path(sizes: list[int], repeat: int, root: Path) -> dict[int, dict[str, list[float]]]:
    """The public path, each mode in a fresh process, best of ``repeat`` in rotating order."""
    results: dict[int, dict[str, list[float]]] = {}
    for size in sizes:
        project, user, cache = root / f"p{size}", root / f"u{size}", root / f"pc{size}"
        if not project.exists():
            subprocess.run(
                [sys.executable, str(HERE / "gen_tools.py"), str(project), str(size)], check=True
            )
            age(project / ".tooldrop" / "tools")
            user.mkdir()
        worker("public-warm", project, user, cache)  # fill the parse cache
        runs: dict[str, list[float]] = {"floor": [], "cold": [], "warm": []}
        modes = ["floor-public", "public-cold", "public-warm"]
        for i in range(repeat):
            for mode in modes[i % 3 :] + modes[: i % 3]:
                key = "floor" if mode == "floor-public" else mode.removeprefix("public-")
                runs[key].append(worker(mode, project, user, cache)["seconds"])
        results[size] = runs
    return results


def call_overhead(rounds: int, root: Path) -> tuple[float, float]:
    import tooldrop.approval
    import tooldrop_markdown.plugin
    import tooldrop_shell.plugin
    from tooldrop import ToolHost

    user = root / "call-user"
    (user / "tools").mkdir(parents=True)
    (user / "tools" / "trivial.md").write_text(TRIVIAL)
    plugins = [tooldrop.approval, tooldrop_markdown.plugin, tooldrop_shell.plugin]
    host = ToolHost(project_dir=root, user_dir=user, plugins=plugins)
    assert host.call("trivial", {}).text == "EXIT_CODE: 0\nhi"
    ours, bare = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        host.call("trivial", {})
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run([BASH, "-c", "echo hi"], capture_output=True, check=False)
        bare.append(time.perf_counter() - start)
    return statistics.median(ours), statistics.median(bare)


def flood_memory(root: Path) -> float:
    user = root / "flood-user"
    (user / "tools").mkdir(parents=True)
    (user / "tools" / "flood.md").write_text(FLOOD)
    return worker("flood", root, user, root / "flood-cache")["rss_kb"] / 1024


def list_process(project: Path, user: Path, cache: Path, rounds: int) -> tuple[float, float]:
    env = environ(cache)
    ours = [sys.executable, "-m", "tooldrop", "--project", str(project), "--user-dir", str(user)]
    baseline = [sys.executable, "-c", "import yaml"]
    subprocess.run([*ours, "list"], env=env, capture_output=True, check=True)  # warm the cache
    mine, base = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        subprocess.run([*ours, "list"], env=env, capture_output=True, check=True)
        mine.append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run(baseline, env=env, capture_output=True, check=True)
        base.append(time.perf_counter() - start)
    return statistics.median(mine), statistics.median(base)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--public-sizes", default="1000", help="'' to skip the public path")
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--list-rounds", type=int, default=20)
    parser.add_argument("--no-flood", action="store_true", help="skip the 1 GiB call")
    opts = parser.parse_args()
    sizes = [int(s) for s in opts.sizes.split(",")]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}")

    with tempfile.TemporaryDirectory(prefix="tooldrop-bench-") as tmp:
        root = Path(tmp)
        found = discovery(sizes, opts.repeat, root)
        print(f"\ndiscovery (best of {opts.repeat}, fresh process each)")
        header = ("tools", "floor", "cold", "warm", "cold/floor", "warm/floor")
        print("{:>7} {:>9} {:>9} {:>9} {:>11} {:>11}".format(*header))
        for size, runs in found.items():
            floor, cold, warm = min(runs["floor"]), min(runs["cold"]), min(runs["warm"])
            print(
                f"{size:>7} {floor * 1000:>7.1f}ms {cold * 1000:>7.1f}ms {warm * 1000:>7.1f}ms"
                f" {cold / floor:>10.2f}x {warm / floor:>10.2f}x"
            )
        if 1000 in found and 10000 in found:
            per_1k = min(found[1000]["cold"]) / 1000
            per_10k = min(found[10000]["cold"]) / 10000
            growth = per_10k / per_1k
            print(f"per-tool cold time, 10,000 vs 1,000 tools: {growth:.2f}x (linear: 1.0)")
        public_sizes = [int(s) for s in opts.public_sizes.split(",") if s]
        if public_sizes:
            print(
                f"\npublic path: ToolHost(project_dir=...).tools(), entry-point plugins, "
                f"imports included (best of {opts.repeat}, fresh process each)"
            )
            print("{:>7} {:>9} {:>9} {:>9} {:>11} {:>11}".format(*header))
            for size, runs in public_path(public_sizes, opts.repeat, root).items():
                floor, cold, warm = min(runs["floor"]), min(runs["cold"]), min(runs["warm"])
                print(
                    f"{size:>7} {floor * 1000:>7.1f}ms {cold * 1000:>7.1f}ms "
                    f"{warm * 1000:>7.1f}ms {cold / floor:>10.2f}x {warm / floor:>10.2f}x"
                )
        biggest = max(found)
        rss = statistics.median(found[biggest]["rss_kb"]) / 1024
        per_tool = rss * 1024 / biggest
        print(f"peak RSS growth loading {biggest:,} tools: {rss:.1f} MB ({per_tool:.2f} KB/tool)")

        ours, bare = call_overhead(opts.calls, root)
        print(
            f"\nhost.call of a trivial markdown tool: {ours * 1e3:.2f} ms, bare subprocess.run: "
            f"{bare * 1e3:.2f} ms, ratio {ours / bare:.3f}x (median of {opts.calls})"
        )
        if not opts.no_flood:
            print(f"peak RSS growth during a call printing 1 GiB: {flood_memory(root):.1f} MB")
        small = min(sizes)
        where = (root / f"p{small}", root / f"u{small}", root / f"c{small}")
        mine, base = list_process(*where, opts.list_rounds)
        print(
            f"tooldrop list ({small} tools, warm cache): {mine * 1e3:.0f} ms, "
            f"python -c 'import yaml': {base * 1e3:.0f} ms, ratio {mine / base:.2f}x "
            f"(median of {opts.list_rounds})"
        )


if __name__ == "__main__":
    main()
