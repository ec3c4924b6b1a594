"""Drive real ``tooldrop serve --http`` processes with the ``mcp`` SDK's Streamable HTTP client.

Each server listens on ``127.0.0.1:0`` (the kernel picks a free port, no race) and says
where in its ``listening on`` line on stderr, which the fixture waits for.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import httpx2
import psutil
import pytest
from anyio.abc import Process
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

TOOLDROP = str(Path(sys.executable).parent / "tooldrop")
TIMEOUT = 60.0
LISTENING = re.compile(r"listening on (http://\S+/mcp)")
TOKEN = "alice-0123456789abcdef-secret"


@dataclass
class HttpServer:
    process: Process
    url: str
    stderr_path: Path

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    async def stop(self, sig: int = signal.SIGTERM) -> int:
        """Signal the server and wait for it to exit; its exit status."""
        if self.process.returncode is None:
            self.process.send_signal(sig)
        with anyio.fail_after(TIMEOUT):
            return await self.process.wait()


_counter = iter(range(1_000_000))


@asynccontextmanager
async def http_server(
    workspace: Any,
    *serve_args: str,
    global_args: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
) -> AsyncIterator[HttpServer]:
    """Start ``tooldrop serve --http 127.0.0.1:0 ARGS`` and wait until it listens."""
    stderr_path = workspace.root / f"http-stderr-{next(_counter)}.log"
    command = [
        TOOLDROP, "--project", str(workspace.project), *global_args,
        "serve", "--http", "127.0.0.1:0", *serve_args,
    ]  # fmt: skip
    with stderr_path.open("wb") as stderr:
        process = await anyio.open_process(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
            env=env or workspace.env(),
        )  # fmt: skip
    try:
        with anyio.fail_after(TIMEOUT):
            while not (found := LISTENING.search(stderr_path.read_text(errors="replace"))):
                if process.returncode is not None:
                    raise AssertionError(f"server exited: {stderr_path.read_text()}")
                await anyio.sleep(0.05)
        yield HttpServer(process, found.group(1), stderr_path)
    finally:
        with anyio.CancelScope(shield=True):
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                with anyio.move_on_after(30):
                    await process.wait()
            if process.returncode is None:
                process.kill()
                await process.wait()


def http_client(token: str | None = None, **headers: str) -> httpx2.AsyncClient:
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(TIMEOUT))


@asynccontextmanager
async def http_session(
    url: str,
    token: str | None = None,
    *,
    client: httpx2.AsyncClient | None = None,
    **session_args: Any,
) -> AsyncIterator[ClientSession]:
    """A ``ClientSession`` over the SDK's Streamable HTTP client, initialized."""
    session_args.setdefault("read_timeout_seconds", TIMEOUT)
    async with (
        client or http_client(token) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write, **session_args) as session,
    ):
        with anyio.fail_after(TIMEOUT):
            await session.initialize()
        yield session


async def wait_for(predicate: Any, what: str, timeout: float = TIMEOUT) -> None:
    """Poll ``predicate`` until true; fail naming ``what`` after ``timeout`` seconds."""
    with anyio.move_on_after(timeout):
        while not predicate():
            await anyio.sleep(0.05)
        return
    raise AssertionError(f"timed out waiting for {what}")


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.fixture
def http() -> SimpleNamespace:
    """The helpers above, for tests (conftest modules are not importable by name)."""
    return SimpleNamespace(
        server=http_server, session=http_session, client=http_client, wait_for=wait_for,
        alive=alive, TOKEN=TOKEN, TIMEOUT=TIMEOUT,
    )  # fmt: skip
