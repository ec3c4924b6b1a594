"""Drive a real ``tooldrop serve`` subprocess with the ``mcp`` SDK's own ``ClientSession``.

The transport here is our own small stdio transport instead of ``mcp.client.stdio``: it does
what that one does (spawn, newline-delimited JSON-RPC both ways) and also keeps every raw
line the server wrote to stdout, so tests can check that nothing but protocol ever appears
there, and lets a test write raw bytes (garbage) into the server's stdin on the same
connection the session uses.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from anyio.abc import Process
from mcp.client.session import ClientSession
from mcp.shared.message import SessionMessage

TOOLDROP = str(Path(sys.executable).parent / "tooldrop")
#: Generous: the machine is small and shared; these bound hangs, they do not measure speed.
TIMEOUT = 60.0


@dataclass
class Workspace:
    root: Path
    project: Path = field(init=False)
    config: Path = field(init=False)

    def __post_init__(self) -> None:
        self.project = self.root / "project"
        self.config = self.root / "config"
        self.project_tools.mkdir(parents=True)
        self.personal_tools.mkdir(parents=True)

    @property
    def project_tools(self) -> Path:
        return self.project / ".tooldrop" / "tools"

    @property
    def personal_tools(self) -> Path:
        return self.config / "tools"

    tooldrop_path = TOOLDROP

    def env(self) -> dict[str, str]:
        return {**os.environ, "TOOLDROP_CONFIG_DIR": str(self.config)}

    def tooldrop(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [TOOLDROP, "--project", str(self.project), *args],
            capture_output=True, text=True, env=self.env(), check=False, timeout=TIMEOUT,
        )  # fmt: skip

    def markdown_tool(self, file_name: str, text: str, *, personal: bool = True) -> Path:
        directory = self.personal_tools if personal else self.project_tools
        path = directory / file_name
        path.write_text(textwrap.dedent(text).lstrip())
        return path

    def python_tool(self, file_name: str, text: str) -> Path:
        path = self.personal_tools / file_name
        path.write_text(textwrap.dedent(text).lstrip())
        return path


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path)


@dataclass
class Connection:
    """A running server, the session talking to it, and what it wrote."""

    session: ClientSession
    process: Process
    stdout_lines: list[str]
    stderr_path: Path
    _stdin_lock: anyio.Lock

    async def send_raw(self, data: bytes) -> None:
        """Write bytes to the server's stdin, between the session's own messages."""
        assert self.process.stdin is not None
        async with self._stdin_lock:
            await self.process.stdin.send(data)

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")


@asynccontextmanager
async def serve(
    workspace: Workspace,
    *serve_args: str,
    global_args: tuple[str, ...] = (),
    program: tuple[str, ...] = (TOOLDROP,),
    env: dict[str, str] | None = None,
    **session_args: Any,
) -> AsyncIterator[Connection]:
    """Start ``tooldrop serve``, connect a ClientSession, initialize, and clean up after.

    :param program: What runs as ``tooldrop`` (a Python one-liner that prints first, say).
    :param env: The server's environment (default: the workspace's).
    """
    stderr_path = workspace.root / f"serve-stderr-{os.getpid()}-{id(session_args)}.log"
    project = ("--project", str(workspace.project))
    command = [*program, *project, *global_args, "serve", *serve_args]
    lines: list[str] = []
    lock = anyio.Lock()
    with stderr_path.open("wb") as stderr:
        process = await anyio.open_process(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=env or workspace.env(),
        )
    read_send, read_receive = anyio.create_memory_object_stream[SessionMessage | Exception](64)
    write_send, write_receive = anyio.create_memory_object_stream[SessionMessage](64)

    async def reader() -> None:
        assert process.stdout is not None
        buffer = b""
        async with read_send:
            async for chunk in process.stdout:
                buffer += chunk
                *complete, buffer = buffer.split(b"\n")
                for raw in complete:
                    line = raw.decode("utf-8")
                    lines.append(line)
                    try:
                        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                    except ValueError as exc:
                        await read_send.send(exc)
                        continue
                    await read_send.send(SessionMessage(message))
            if buffer:
                lines.append(buffer.decode("utf-8", "replace"))

    async def writer() -> None:
        assert process.stdin is not None
        async with write_receive:
            async for message in write_receive:
                data = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                async with lock:
                    await process.stdin.send(data.encode())

    session_args.setdefault("read_timeout_seconds", TIMEOUT)
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(reader)
            group.start_soon(writer)
            async with ClientSession(read_receive, write_send, **session_args) as session:
                with anyio.fail_after(TIMEOUT):
                    await session.initialize()
                yield Connection(session, process, lines, stderr_path, lock)
            group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            if process.stdin is not None:
                await process.stdin.aclose()
            with anyio.move_on_after(10):
                await process.wait()
            if process.returncode is None:
                process.kill()
                await process.wait()


ECHO_MD = """
    ---
    name: greet
    description: Greet someone by name.
    parameters:
      name:
        type: string
        required: true
        description: Who to greet
      shout:
        type: boolean
        default: false
    approval: never
    read_only: true
    ---
    echo hello, {{ name }}{{# shout }} '!!!'{{/ shout }}
"""

PY_TOOLS = """
    import asyncio

    async def echo(args, cancel):
        await asyncio.sleep(float(args.get("delay", 0.05)))
        return args["text"]

    def boom(args, cancel):
        raise RuntimeError("the tool broke: " + args.get("why", "no reason"))

    def noisy(args, cancel):
        print("a stray print from a tool module")
        return "quiet result"

    default = [
        {
            "name": "echo",
            "description": "Echo the text back after a short sleep.",
            "input_schema": {
                "type": "object",
                "properties": {"text": {"type": "string"}, "delay": {"type": "number"}},
                "required": ["text"],
                "additionalProperties": False,
            },
            "approval": "never",
            "read_only": True,
            "execute": echo,
        },
        {
            "name": "boom",
            "description": "Always fails.",
            "input_schema": {"type": "object", "properties": {"why": {"type": "string"}}},
            "approval": "never",
            "read_only": False,  # never asks, yet not read-only: not destructive either
            "execute": boom,
        },
        {
            "name": "noisy",
            "description": "Prints to stdout, returns a result.",
            "approval": "never",
            "read_only": True,
            "execute": noisy,
        },
    ]
"""

GUARDED_MD = """
    ---
    name: guarded
    description: Writes a marker file; asks first.
    parameters:
      label:
        type: string
        required: true
    approval: always
    ---
    echo {{ label }} >> marker.txt && echo wrote {{ label }}
"""


@pytest.fixture
def tools(workspace: Workspace) -> Workspace:
    """A workspace with a markdown tool, Python tools and a tool that asks (all personal)."""
    workspace.markdown_tool("greet.md", ECHO_MD)
    workspace.python_tool("pytools.py", PY_TOOLS)
    workspace.markdown_tool("guarded.md", GUARDED_MD)
    return workspace


@pytest.fixture
def connect():
    """``async with connect(workspace, *serve_args, **session_args) as server``."""
    return serve


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def text_of(result: types.CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


@pytest.fixture(name="text_of")
def text_of_fixture():
    """The one text block of a tool result."""
    return text_of
