"""Shutdown and scale-out: SIGTERM drains and leaves nothing behind; stateless replicas share
one client."""

from __future__ import annotations

import signal

import anyio
import httpx2
import psutil
import pytest
from mcp.shared.exceptions import MCPError

# Each test starts real server processes: seconds of real time.
pytestmark = [pytest.mark.anyio, pytest.mark.slow]

STUCK = """
    ---
    name: stuck
    description: Starts a child that ignores SIGTERM, writes both pids, then waits.
    approval: never
    ---
    sh -c 'trap "" TERM; echo $$ > child.pid; sleep 60' &
    echo $$ > stuck.pid; wait
"""

FINISHING = """
    ---
    name: finishing
    description: Says it started, then finishes in a moment.
    approval: never
    ---
    touch finishing.started; sleep 1; echo done
"""


def pid_in(path) -> int | None:
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    return int(text) if text else None


async def test_sigterm_cancels_running_calls_after_the_grace_and_leaves_no_process(
    http, workspace, text_of
):
    workspace.markdown_tool("stuck.md", STUCK)
    workspace.markdown_tool("finishing.md", FINISHING)
    project = workspace.project
    async with http.server(workspace, "--grace", "1") as server:
        children_before = psutil.Process(server.process.pid).children(recursive=True)
        assert children_before == []
        results: dict[str, object] = {}
        async with http.session(server.url) as session, anyio.create_task_group() as group:

            async def call(name: str) -> None:
                try:
                    results[name] = text_of(await session.call_tool(name, {}))
                except (MCPError, httpx2.HTTPError) as exc:
                    results[name] = exc

            group.start_soon(call, "stuck")
            await http.wait_for(
                lambda: pid_in(project / "stuck.pid") and pid_in(project / "child.pid"), "pids"
            )
            pids = [pid_in(project / "stuck.pid"), pid_in(project / "child.pid")]
            tree = psutil.Process(server.process.pid).children(recursive=True)
            assert {p.pid for p in tree} >= set(pids)
            server.process.send_signal(signal.SIGTERM)
            await http.wait_for(lambda: "shutting down" in server.stderr(), "the drain to begin")
            with pytest.raises(MCPError) as refused:  # no new calls while draining
                await session.call_tool("finishing", {})
            with anyio.fail_after(http.TIMEOUT):
                status = await server.process.wait()
            group.cancel_scope.cancel()
        stderr = server.stderr()
    assert status == 0
    assert refused.value.code == -32002
    assert refused.value.message == "The server is shutting down; call again later"
    assert "cancelling 1 call(s) still running" in stderr
    assert not (project / "finishing.started").exists()
    for process in tree:  # the tool, its child that ignored SIGTERM, every one of them
        await http.wait_for(lambda p=process: not http.alive(p.pid), f"{process.pid} to be gone")


async def test_sigterm_lets_a_call_finish_within_the_grace(http, workspace, text_of):
    workspace.markdown_tool("finishing.md", FINISHING)
    async with http.server(workspace, "--grace", "30") as server:
        async with http.session(server.url) as session, anyio.create_task_group() as group:
            result: list[str] = []

            async def call() -> None:
                result.append(text_of(await session.call_tool("finishing", {})))

            group.start_soon(call)
            started = workspace.project / "finishing.started"
            await http.wait_for(started.exists, "the call to start")
            server.process.send_signal(signal.SIGTERM)
        with anyio.fail_after(http.TIMEOUT):
            status = await server.process.wait()
    assert result == ["EXIT_CODE: 0\ndone"]
    assert status == 0


class Alternate(httpx2.AsyncBaseTransport):
    """Send each request to the next replica in turn, as a round-robin load balancer does."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.sent: list[int] = []
        self.inner = httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        port = self.ports[len(self.sent) % len(self.ports)]
        self.sent.append(port)
        request.url = request.url.copy_with(port=port)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def test_stateless_replicas_answer_alternating_requests_of_one_client(http, tools, text_of):
    tokens = tools.root / "tokens"
    tokens.write_text(f"team: {http.TOKEN}\n")
    tokens.chmod(0o600)
    args = ("--stateless", "--token-file", str(tokens))
    async with http.server(tools, *args) as one, http.server(tools, *args) as two:
        ports = [int(s.url.split(":")[2].split("/")[0]) for s in (one, two)]
        balancer = Alternate(ports)
        client = httpx2.AsyncClient(
            transport=balancer,
            headers={"Authorization": f"Bearer {http.TOKEN}"},
            timeout=httpx2.Timeout(http.TIMEOUT),
        )
        async with http.session(one.url, client=client) as session:
            listed = {tool.name for tool in (await session.list_tools()).tools}
            answers = []
            for index in range(6):  # one request each: the calls alternate between replicas
                result = await session.call_tool("custom__echo", {"text": f"n{index}", "delay": 0})
                answers.append(text_of(result))
            headless = await session.call_tool("guarded", {"label": "x"})
        logs = [one.stderr(), two.stderr()]
    assert answers == [f"n{index}" for index in range(6)]
    assert "custom__echo" in listed and "guarded" not in listed
    assert set(balancer.sent) == set(ports)  # both replicas really served
    for log in logs:  # each replica ran some of the calls, for the same token
        assert log.count("call token=team ") >= 3
        assert "stateless" in log
    # No session, no one to ask: headless rules on every replica.
    assert text_of(headless) == 'Tool "guarded" is not available in headless mode'
