"""``tooldrop serve --http`` under load, side by side with stdio and in-process ``acall``.

Loopback only, bounded in count (``--sessions`` x ``--calls``, default 20 x 50) and time
(``--timeout``). The same trivial Python tool (no subprocess) is called:

- in-process: ``sessions x calls`` concurrent ``await host.acall`` (the floor);
- stdio: one ``tooldrop serve`` process, one session, ``sessions`` batches of ``calls``
  concurrent calls (stdio has one client per process);
- HTTP, one session: the same batches over one Streamable HTTP session;
- HTTP, many sessions: ``sessions`` concurrent sessions each making ``calls`` concurrent calls.

Reported: throughput (calls/s), per-call latency p50/p99, errors (must be 0), the server's RSS
before and after the load, and that SIGTERM leaves no process behind (exit 0, no children).

    uv run python tests/bench/bench_mcp_http.py [--sessions 20] [--calls 50]
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import httpx2
import psutil
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from tooldrop import ToolHost

TOOLDROP = str(Path(sys.executable).parent / "tooldrop")
TOKEN = "bench-token-0123456789abcdef"
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


class Run:
    """Latencies and errors of one way of calling."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.latencies: list[float] = []
        self.errors = 0
        self.elapsed = 0.0

    async def one(self, call: Callable[[str], Awaitable[str]], index: int) -> None:
        text = f"n{index}"
        started = time.perf_counter()
        try:
            answer = await call(text)
        except Exception:  # noqa: BLE001 - counted, and the bench fails on any
            self.errors += 1
            return
        self.latencies.append(time.perf_counter() - started)
        if answer != text:
            self.errors += 1

    def row(self, floor: Run) -> str:
        count = len(self.latencies) + self.errors
        rate = count / self.elapsed
        cuts = statistics.quantiles(self.latencies, n=100)
        p50, p99 = statistics.median(self.latencies) * 1000, cuts[98] * 1000
        ratio = (count / floor.elapsed) / rate if rate else float("inf")
        return (
            f"  {self.label:<34} {rate:9.0f} calls/s ({ratio:5.1f}x slower)"
            f"  p50 {p50:8.1f} ms  p99 {p99:8.1f} ms  errors {self.errors}"
        )


async def batch(run: Run, call: Callable[[str], Awaitable[str]], calls: int, base: int) -> None:
    async with anyio.create_task_group() as group:
        for index in range(calls):
            group.start_soon(run.one, call, base + index)


def mcp_call(session: ClientSession) -> Callable[[str], Awaitable[str]]:
    async def call(text: str) -> str:
        result = await session.call_tool("custom__echo", {"text": text})
        if result.is_error:
            raise RuntimeError(result.content)
        return result.content[0].text  # type: ignore[union-attr]

    return call


async def in_process(root: Path, sessions: int, calls: int) -> Run:
    run = Run("in-process host.acall, all at once")
    host = ToolHost(project_dir=root, mode="headless")

    async def call(text: str) -> str:
        return (await host.acall("custom__echo", {"text": text})).text

    await call("warm")
    started = time.perf_counter()
    await batch(run, call, sessions * calls, 0)
    run.elapsed = time.perf_counter() - started
    host.close()
    return run


async def over_stdio(root: Path, env: dict[str, str], sessions: int, calls: int) -> Run:
    run = Run(f"stdio, 1 session, {sessions} x {calls}")
    params = StdioServerParameters(
        command=TOOLDROP, args=["--project", str(root), "serve"], env=env
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        call = mcp_call(session)
        await call("warm")
        started = time.perf_counter()
        for round_ in range(sessions):
            await batch(run, call, calls, round_ * calls)
        run.elapsed = time.perf_counter() - started
    return run


def client() -> httpx2.AsyncClient:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    limits = httpx2.Limits(max_connections=None, max_keepalive_connections=None)
    return httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(120), limits=limits)


async def http_one_session(url: str, sessions: int, calls: int) -> Run:
    run = Run(f"HTTP, 1 session, {sessions} x {calls}")
    async with (
        client() as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        call = mcp_call(session)
        await call("warm")
        started = time.perf_counter()
        for round_ in range(sessions):
            await batch(run, call, calls, round_ * calls)
        run.elapsed = time.perf_counter() - started
    return run


async def http_many_sessions(url: str, sessions: int, calls: int) -> Run:
    run = Run(f"HTTP, {sessions} sessions x {calls} at once")
    ready, go = anyio.Event(), anyio.Event()
    opened = 0

    async def one_session(number: int) -> None:
        nonlocal opened
        async with (
            client() as http,
            streamable_http_client(url, http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            opened += 1
            if opened == sessions:
                ready.set()
            await go.wait()
            await batch(run, mcp_call(session), calls, number * calls)

    async with anyio.create_task_group() as group:
        for number in range(sessions):
            group.start_soon(one_session, number)
        await ready.wait()  # every session open before the clock starts
        started = time.perf_counter()
        go.set()
        while len(run.latencies) + run.errors < sessions * calls:
            await anyio.sleep(0.01)
        run.elapsed = time.perf_counter() - started
    return run


def rss_mib(pid: int) -> float:
    return psutil.Process(pid).memory_info().rss / 2**20


async def bench(root: Path, env: dict[str, str], sessions: int, calls: int) -> int:
    floor = await in_process(root, sessions, calls)
    stdio = await over_stdio(root, env, sessions, calls)
    stderr_path = root.parent / "http-server.log"
    with stderr_path.open("wb") as stderr:
        command = [TOOLDROP, "--project", str(root), "serve", "--http", "127.0.0.1:0"]
        server = subprocess.Popen(command, stderr=stderr, stdout=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"listening on (\S+)", stderr_path.read_text())):
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(f"the server did not start: {stderr_path.read_text()}")
            await anyio.sleep(0.05)
        url = found.group(1)
        me, it = psutil.Process(), psutil.Process(server.pid)
        cpu = [sum(p.cpu_times()[:2]) for p in (me, it)]
        one = await http_one_session(url, sessions, calls)
        before = rss_mib(server.pid)
        many = await http_many_sessions(url, sessions, calls)
        after = rss_mib(server.pid)
        cpu = [sum(p.cpu_times()[:2]) - used for p, used in zip((me, it), cpu, strict=True)]
        tree = psutil.Process(server.pid).children(recursive=True)
    finally:
        server.send_signal(signal.SIGTERM)
        status = server.wait(timeout=60)
    orphans = [p.pid for p in tree if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    print(f"{sessions * calls} calls of a trivial Python tool, each way (throughput, latency)")
    for run in (floor, stdio, one, many):
        print(run.row(floor))
    print(
        f"  HTTP server RSS: {before:.1f} MiB before the {sessions} sessions, {after:.1f} MiB after"
    )
    print(f"  CPU seconds for the HTTP runs: client {cpu[0]:.1f}, server {cpu[1]:.1f}")
    print(f"  SIGTERM: exit {status}, {len(orphans)} process(es) left behind")
    audit = stderr_path.read_text().count(" result=ok ")
    print(f"  audit lines with result=ok: {audit}")
    failed = sum(r.errors for r in (floor, stdio, one, many)) or status or orphans
    return 1 if failed else 0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--timeout", type=float, default=600, help="seconds for the whole run")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        config = Path(tmp) / "config"
        (root / ".tooldrop" / "tools").mkdir(parents=True)
        (config / "tools").mkdir(parents=True)
        (config / "tools" / "echo.py").write_text(PY_TOOL)
        os.environ["TOOLDROP_CONFIG_DIR"] = str(config)
        os.environ["TOOLDROP_SERVE_TOKENS"] = f"bench: {TOKEN}"
        env = dict(os.environ)

        async def bounded() -> int:
            with anyio.fail_after(options.timeout):
                return await bench(root, env, options.sessions, options.calls)

        sys.exit(anyio.run(bounded))


if __name__ == "__main__":
    main()
