"""``tooldrop serve``: start-up, and what a call costs over MCP against the same call in-process.

Measured side by side in one run (interleaved where it matters), printed with ratios:

- start-up: spawn to the ``initialize`` answer, next to ``tooldrop list`` as a whole process and
  to a bare ``python -c "import mcp.server.lowlevel"``;
- one call at a time: ``session.call_tool`` over stdio against ``await host.acall`` in-process,
  for a Python tool (no subprocess) and a markdown tool (one shell per call);
- 50 concurrent calls from one session against 50 concurrent ``host.acall``.

    uv run python tests/bench/bench_mcp_serve.py [--rounds 50]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tooldrop import ToolHost

TOOLDROP = str(Path(sys.executable).parent / "tooldrop")

PY_TOOL = """
default = {
    "name": "echo",
    "description": "Echo.",
    "input_schema": {"type": "object", "properties": {"text": {"type": "string"}},
                     "required": ["text"], "additionalProperties": False},
    "approval": "never",
    "read_only": True,
    "execute": lambda args, cancel: args["text"],
}
"""
MD_TOOL = """---
name: say
description: Say it.
parameters:
  text:
    type: string
    required: true
approval: never
---
echo {{ text }}
"""


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def report(label: str, samples: list[float], baseline: list[float]) -> None:
    ratio = statistics.median(samples) / statistics.median(baseline)
    print(f"  {label:<36} {median_ms(samples):8.2f} ms   {ratio:.2f}x")


async def timed(fn: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    await fn()
    return time.perf_counter() - started


def startup(root: Path, env: dict[str, str], rounds: int) -> None:
    def process(args: list[str], stdin: Any = subprocess.DEVNULL) -> float:
        started = time.perf_counter()
        subprocess.run(args, stdin=stdin, capture_output=True, env=env, check=True)
        return time.perf_counter() - started

    async def serve_to_initialized() -> float:
        params = StdioServerParameters(
            command=TOOLDROP, args=["--project", str(root), "serve"], env=env
        )
        started = time.perf_counter()
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return time.perf_counter() - started

    serve, listing, sdk = [], [], []
    for _ in range(rounds):
        serve.append(anyio.run(serve_to_initialized))
        listing.append(process([TOOLDROP, "--project", str(root), "list"]))
        sdk.append(process([sys.executable, "-c", "import mcp.server.lowlevel, mcp.server.stdio"]))
    print(f"start-up ({rounds} rounds, medians)")
    report("tooldrop list, whole process", listing, listing)
    report("python -c 'import mcp.server...'", sdk, listing)
    report("tooldrop serve, spawn->initialized", serve, listing)


async def calls(root: Path, env: dict[str, str], rounds: int) -> None:
    host = ToolHost(project_dir=root, mode="headless")
    params = StdioServerParameters(
        command=TOOLDROP, args=["--project", str(root), "serve"], env=env
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.list_tools()
        for name in ("custom__echo", "say"):
            over_mcp, in_process = [], []
            for _ in range(rounds):  # interleaved, so noise hits both alike
                over_mcp.append(await timed(partial(session.call_tool, name, {"text": "hi"})))
                in_process.append(await timed(partial(host.acall, name, {"text": "hi"})))
            print(f"one call at a time, {name} ({rounds} rounds, medians)")
            report("await host.acall (in-process)", in_process, in_process)
            report("session.call_tool over stdio", over_mcp, in_process)

        async def fifty(call: Callable[[int], Awaitable[Any]]) -> None:
            async with anyio.create_task_group() as group:
                for index in range(50):
                    group.start_soon(call, index)

        async def mcp_one(index: int) -> None:
            result = await session.call_tool("custom__echo", {"text": f"n{index}"})
            assert result.content[0].text == f"n{index}"  # type: ignore[union-attr]

        async def host_one(index: int) -> None:
            result = await host.acall("custom__echo", {"text": f"n{index}"})
            assert result.text == f"n{index}"

        over_mcp, in_process = [], []
        for _ in range(max(rounds // 5, 3)):
            over_mcp.append(await timed(partial(fifty, mcp_one)))
            in_process.append(await timed(partial(fifty, host_one)))
        print("50 concurrent calls of custom__echo (medians of whole batches)")
        report("50 x host.acall", in_process, in_process)
        report("50 x call_tool on one session", over_mcp, in_process)
    host.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=50)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        config = Path(tmp) / "config"
        (root / ".tooldrop" / "tools").mkdir(parents=True)
        (config / "tools").mkdir(parents=True)
        (config / "tools" / "echo.py").write_text(PY_TOOL)
        (config / "tools" / "say.md").write_text(MD_TOOL)
        os.environ["TOOLDROP_CONFIG_DIR"] = str(config)
        env = dict(os.environ)
        startup(root, env, max(options.rounds // 10, 3))
        anyio.run(calls, root, env, options.rounds)


if __name__ == "__main__":
    main()
