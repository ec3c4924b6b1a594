"""Benchmarks for tooldrop-python: loading tool files and the overhead of one call.

Run: ``uv run python tests/bench/bench_python.py``. Numbers are measured side by side in one
run and printed with their ratio to a baseline, so a slow or busy machine shifts both.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import tooldrop.approval
import tooldrop_python.plugin
from tooldrop import ToolHost

DICT_TOOL = """
def execute(args):
    return str(args)

default = {{"name": "t{i}", "description": "Tool {i}", "approval": "never",
           "inputSchema": {{"properties": {{"x{i}": {{"type": "string"}}}}}}, "execute": execute}}
"""
DECORATED_TOOL = """
from tooldrop import tool

@tool(approval="never")
def t{i}(x: str = "", n: int = 1) -> str:
    '''Tool {i}.

    Args:
        x: A text.
        n: A count.
    '''
    return x * n

default = t{i}
"""
TRIVIAL = """
from tooldrop import tool

@tool(approval="never")
def trivial() -> str:
    '''Return a constant.'''
    return "ok"

@tool(approval="never")
async def trivial_async() -> str:
    '''Return a constant, asynchronously.'''
    return "ok"

default = [trivial, trivial_async]
"""


def best_of(runs: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def per_call(count: int, fn: Callable[[], object]) -> float:
    samples = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(count):
            fn()
        samples.append((time.perf_counter() - started) / count)
    return statistics.median(samples)


def make_host(root: Path) -> ToolHost:
    return ToolHost(
        project_dir=root / "project",
        user_dir=root / "user",
        plugins=[tooldrop_python.plugin, tooldrop.approval],
    )


def bench_loading(root: Path, template: str, label: str, count: int) -> None:
    tools = root / "user" / "tools"
    tools.mkdir(parents=True)
    for i in range(count):
        (tools / f"t{i}.py").write_text(template.format(i=i))

    def plain_exec() -> None:  # the floor: read, compile and run each file, nothing else
        for path in sorted(tools.iterdir()):
            exec(compile(path.read_bytes(), str(path), "exec"), {"__name__": "x"})

    floor = best_of(5, plain_exec)  # runs @tool (schema derivation) too, but not the loader
    host = make_host(root)
    cold = best_of(1, host.reload)  # every schema checked against the meta-schema once
    warm = best_of(5, host.reload)  # a reload: the same schemas, verdicts cached
    assert len(host.tools()) == count, host.problems()
    print(
        f"load {count} {label} files: cold {cold * 1e3:6.1f} ms "
        f"({cold / count * 1e6:5.0f} µs/file), "
        f"reload {warm * 1e3:6.1f} ms ({warm / count * 1e6:5.0f} µs/file); "
        f"bare compile+exec {floor * 1e3:6.1f} ms; reload/bare {warm / floor:4.1f}x"
    )
    host.close()


def bench_calls(root: Path) -> None:
    tools = root / "user" / "tools"
    tools.mkdir(parents=True)
    (tools / "trivial.py").write_text(TRIVIAL)
    host = make_host(root)
    assert host.call("custom__trivial", {}).text == "ok"

    def direct() -> str:
        return "ok"

    def thread_round_trip() -> None:
        worker = threading.Thread(target=direct, daemon=True)
        worker.start()
        worker.join()

    def loop_round_trip() -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(asyncio.sleep(0))
        finally:
            loop.close()

    from tooldrop import ToolCall
    from tooldrop.pytools._runner import run_call

    trivial = ToolCall(spec=host.get("custom__trivial"), args={})
    n = 2000
    d = per_call(n * 10, direct)
    runner = per_call(n, lambda: run_call(trivial))
    t = per_call(n, thread_round_trip)
    lo = per_call(n // 4, loop_round_trip)
    sync_call = per_call(n, lambda: host.call("custom__trivial", {}))
    async_call = per_call(n // 4, lambda: host.call("custom__trivial_async", {}))
    print(f"direct function call        {d * 1e6:8.2f} µs")
    print(f"thread start+join           {t * 1e6:8.2f} µs")
    print(f"new event loop + close      {lo * 1e6:8.2f} µs")
    print(f"runner alone, sync tool     {runner * 1e6:8.2f} µs  ({runner / t:4.1f}x a thread)")
    print(
        f"host.call, sync tool        {sync_call * 1e6:8.2f} µs  ({sync_call / t:4.1f}x a thread)"
    )
    print(
        f"host.call, async tool       {async_call * 1e6:8.2f} µs  "
        f"({async_call / (t + lo):4.1f}x a thread + a loop)"
    )
    host.close()


def main() -> None:
    print(f"Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        bench_loading(Path(tmp) / "a", DICT_TOOL, "dict-tool", 200)
    with tempfile.TemporaryDirectory() as tmp:
        bench_loading(Path(tmp) / "b", DECORATED_TOOL, "@tool", 200)
    with tempfile.TemporaryDirectory() as tmp:
        bench_calls(Path(tmp))


if __name__ == "__main__":
    main()
