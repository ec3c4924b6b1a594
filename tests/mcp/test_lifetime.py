"""``tooldrop serve`` stopped mid-call leaves no tool running (issue 13, item 5).

SIGTERM is how MCP clients stop a server. A real server subprocess, driven by the ``mcp``
SDK's ``ClientSession``, runs a markdown tool that sleeps with a unique marker; the server is
signalled while the call runs, and no process with the marker may survive it.
"""

from __future__ import annotations

import contextlib
import signal
import sys

import anyio
import pytest

from ..shell.lifetime import describe, kill_all, marker, wait_for, wait_gone

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
]

SLEEPER = """
    ---
    name: sleeper
    description: Sleeps.
    approval: never
    read_only: true
    ---
    sleep {mark}; echo done
"""


async def stop_mid_call(connect, workspace, signum: int) -> tuple[int | None, str]:
    mark = marker()
    workspace.markdown_tool("sleeper.md", SLEEPER.format(mark=mark))
    async with connect(workspace) as server:
        async with anyio.create_task_group() as group:

            async def call() -> None:
                with contextlib.suppress(Exception):  # the connection closes under it
                    await server.session.call_tool("sleeper", {})

            group.start_soon(call)
            await anyio.to_thread.run_sync(wait_for, mark)
            server.process.send_signal(signum)
            with anyio.fail_after(60):
                code = await server.process.wait()
            group.cancel_scope.cancel()
        stderr = server.stderr()
    left = await anyio.to_thread.run_sync(wait_gone, mark)
    kill_all(left)
    assert left == [], f"processes survived: {describe(left)}"
    return code, stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
async def test_a_stop_signal_mid_call_kills_the_tool_and_exits_128_plus_n(
    connect, workspace, signum
):
    code, stderr = await stop_mid_call(connect, workspace, signum)
    assert code == 128 + signum, stderr
    assert f"stopped by {signal.Signals(signum).name}" in stderr


async def test_sigkill_of_the_server_mid_call_kills_the_tool(connect, workspace):
    code, _ = await stop_mid_call(connect, workspace, signal.SIGKILL)
    assert code == -signal.SIGKILL
