"""The 2026-07-28 wire, as the SDK's high-level ``Client`` speaks it by default.

``Client(mode="auto")`` probes ``server/discover`` and, since the low-level server answers it,
talks the per-request-envelope protocol: no handshake, no server-to-client requests, change
events on ``subscriptions/listen``, and approval prompts as ``InputRequiredResult`` rounds.
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

# Each test starts a real server process: seconds of real time.
pytestmark = [pytest.mark.anyio, pytest.mark.slow]


def client(workspace, *serve_args: str, **options) -> Client:
    params = StdioServerParameters(
        command=str(Path(sys.executable).parent / "tooldrop"),
        args=["--project", str(workspace.project), "serve", *serve_args],
        env=workspace.env(),
    )
    options.setdefault("read_timeout_seconds", 60)
    return Client(params, **options)


async def test_list_and_call_on_the_2026_wire(text_of, tools):
    async with client(tools) as session:
        assert session.session.protocol_version in MODERN_PROTOCOL_VERSIONS
        listed = {tool.name for tool in (await session.list_tools()).tools}
        assert listed == {"custom__boom", "custom__echo", "custom__noisy", "greet"}
        ok = await session.call_tool("greet", {"name": "Ada"})
        bad = await session.call_tool("greet", {})
    assert (ok.is_error, text_of(ok)) == (False, "EXIT_CODE: 0\nhello, Ada")
    assert (bad.is_error, text_of(bad)) == (True, "⚒ Missing required parameter: name")


async def test_list_changed_arrives_on_subscriptions_listen(tools):
    async with client(tools, "--poll-interval", "0.2") as session:
        await session.list_tools()
        async with session.listen(tools_list_changed=True) as events:
            tools.markdown_tool(
                "late.md",
                """
                ---
                name: late
                description: Added while listening.
                approval: never
                ---
                echo late
                """,
            )
            with anyio.fail_after(30):
                event = await events.__anext__()
        assert type(event).__name__ == "ToolsListChanged"
        listed = {tool.name for tool in (await session.list_tools(cache_mode="refresh")).tools}
    assert "late" in listed


async def test_approval_is_asked_through_input_required_rounds(text_of, tools):
    prompts: list[str] = []

    async def person(context, params):
        prompts.append(params.message)
        return types.ElicitResult(action="accept", content={"decision": "allow"})

    async with client(tools, elicitation_callback=person) as session:
        listed = {tool.name for tool in (await session.list_tools()).tools}
        assert "guarded" in listed
        result = await session.call_tool("guarded", {"label": "modern"})
    assert (result.is_error, text_of(result)) == (False, "EXIT_CODE: 0\nwrote modern")
    assert len(prompts) == 1
    assert "echo 'modern' >> marker.txt" in prompts[0]
    assert (tools.project / "marker.txt").read_text() == "modern\n"


async def test_a_denied_round_runs_nothing(text_of, tools):
    async def person(context, params):
        return types.ElicitResult(action="accept", content={"decision": "deny"})

    async with client(tools, elicitation_callback=person) as session:
        result = await session.call_tool("guarded", {"label": "no"})
    assert (result.is_error, text_of(result)) == (True, "Tool call denied: the user declined")
    assert not (tools.project / "marker.txt").exists()


async def test_an_answer_for_another_call_is_not_applied(text_of, tools):
    async with client(tools, elicitation_callback=_never_called) as session:
        # A client replaying an old "allow" for a different call (forged request_state).
        allow = types.ElicitResult(action="accept", content={"decision": "allow"})
        result = await session.session.call_tool(
            "guarded",
            {"label": "forged"},
            input_responses={"tooldrop/approval": allow},
            request_state="tooldrop-approval:0000",
            allow_input_required=True,
        )
    assert isinstance(result, types.InputRequiredResult)
    assert result.request_state != "tooldrop-approval:0000"
    assert not (tools.project / "marker.txt").exists()


async def _never_called(context, params):  # pragma: no cover - must not be reached
    raise AssertionError("the client must not be asked in this test")
