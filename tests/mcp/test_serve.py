"""``tooldrop serve`` as a real subprocess, driven by the ``mcp`` SDK's ClientSession."""

from __future__ import annotations

import json

import anyio
import pytest

from ..shell.lifetime import describe, kill_all, marker, wait_for, wait_gone

# Each test starts a real server process: seconds of real time.
pytestmark = [pytest.mark.anyio, pytest.mark.slow]


async def test_lists_every_available_tool_with_schema_and_annotations(connect, text_of, tools):
    async with connect(tools) as server:
        init = server.session.initialize_result
        assert init is not None
        assert init.server_info.name == "tooldrop"
        assert init.capabilities.tools is not None
        assert init.capabilities.tools.list_changed is True
        listed = {tool.name: tool for tool in (await server.session.list_tools()).tools}
    # A client that cannot be asked gets headless rules: the tool that asks is not offered.
    assert sorted(listed) == ["custom__boom", "custom__echo", "custom__noisy", "greet"]
    greet = listed["greet"]
    assert greet.description == "Greet someone by name."
    assert greet.input_schema["required"] == ["name"]
    assert greet.input_schema["properties"]["shout"] == {"type": "boolean", "default": False}
    assert greet.annotations is not None
    assert greet.annotations.read_only_hint is True
    assert greet.annotations.destructive_hint is False
    boom = listed["custom__boom"].annotations
    assert boom is not None
    assert (boom.read_only_hint, boom.destructive_hint) == (False, False)


async def test_calls_a_markdown_tool_through_the_pipeline(connect, text_of, tools):
    async with connect(tools) as server:
        result = await server.session.call_tool("greet", {"name": "Ada; rm -rf /"})
        shouted = await server.session.call_tool("greet", {"name": "Bob", "shout": True})
    assert result.is_error is False
    # Defaults applied, the value quoted: the semicolon stayed part of the name.
    assert text_of(result) == "EXIT_CODE: 0\nhello, Ada; rm -rf /"
    assert text_of(shouted) == "EXIT_CODE: 0\nhello, Bob !!!"


async def test_calls_a_python_tool(connect, text_of, tools):
    async with connect(tools) as server:
        result = await server.session.call_tool("custom__echo", {"text": "from python"})
    assert (result.is_error, text_of(result)) == (False, "from python")


async def test_a_failing_tool_is_an_is_error_result(connect, text_of, tools):
    async with connect(tools) as server:
        result = await server.session.call_tool("custom__boom", {"why": "on purpose"})
        unknown = await server.session.call_tool("no_such_tool", {})
        after = await server.session.call_tool("custom__echo", {"text": "still alive"})
    assert result.is_error is True
    assert "the tool broke: on purpose" in text_of(result)
    assert unknown.is_error is True
    assert text_of(unknown).startswith('Unknown tool "no_such_tool". Available tools: ')
    assert text_of(after) == "still alive"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "⚒ Missing required parameter: name"),
        ({"name": 42}, '⚒ Parameter "name" has wrong type — expected string, got number'),
        (
            {"name": "x", "volume": 11},
            "⚒ Unknown parameter: volume (this tool accepts: name, shout)",
        ),
    ],
)
async def test_invalid_arguments_are_an_is_error_result_with_our_message(
    connect, text_of, tools, args, message
):
    async with connect(tools) as server:
        result = await server.session.call_tool("greet", args)
    assert result.is_error is True
    assert message in text_of(result)


async def test_nothing_but_protocol_reaches_stdout(connect, text_of, tools):
    tools.markdown_tool(
        "loud.md",
        """
        ---
        name: loud
        description: Writes to both streams.
        approval: never
        ---
        echo to-stdout; echo to-stderr >&2
        """,
    )
    async with connect(tools) as server:
        loud = await server.session.call_tool("loud", {})
        noisy = await server.session.call_tool("custom__noisy", {})
        await server.session.list_tools()
        lines = list(server.stdout_lines)
        stderr = server.stderr()
    assert text_of(loud) == "EXIT_CODE: 0\nSTDERR:\nto-stderr\nSTDOUT:\nto-stdout"
    assert text_of(noisy) == "quiet result"
    assert lines
    for line in lines:
        assert json.loads(line)["jsonrpc"] == "2.0"
    assert "a stray print from a tool module" in stderr


async def test_serve_exits_cleanly_when_the_client_goes_away(connect, text_of, tools):
    async with connect(tools) as server:
        await server.session.list_tools()
        process = server.process
    with anyio.fail_after(30):
        assert await process.wait() == 0


async def test_cancelling_a_call_kills_the_running_script(connect, text_of, workspace):
    workspace.markdown_tool(
        "slow.md",
        """
        ---
        name: slow
        description: Sleeps, then leaves a mark.
        parameters:
          seconds:
            type: string
            required: true
        approval: never
        ---
        sleep {{ seconds }} && echo finished > finished.txt
        """,
    )
    mark = marker()  # a sleep no other process on the machine has
    async with connect(workspace) as server:
        async with anyio.create_task_group() as group:
            group.start_soon(server.session.call_tool, "slow", {"seconds": mark})
            # Cancel once the script runs, not after a guess at how long starting takes.
            await anyio.to_thread.run_sync(wait_for, mark)
            group.cancel_scope.cancel()
        # The client sent notifications/cancelled: the server killed the whole process group.
        left = await anyio.to_thread.run_sync(wait_gone, mark)
        kill_all(left)
        assert left == [], f"processes survived: {describe(left)}"
        assert not (workspace.project / "finished.txt").exists()
        result = await server.session.call_tool("slow", {"seconds": "0.1"}, read_timeout_seconds=30)
    assert text_of(result).startswith("EXIT_CODE: 0")
    assert (workspace.project / "finished.txt").read_text() == "finished\n"


async def test_load_problems_go_to_stderr_and_the_rest_is_served(connect, workspace):
    tool = "---\nname: {}\ndescription: A tool.\napproval: never\n---\ntrue\n"
    workspace.markdown_tool("ok.md", tool.format("ok"))
    workspace.markdown_tool("broken.md", "---\nname: [not, a, name]\n---\ntrue\n")
    long_name = "x" * 130
    workspace.markdown_tool("long.md", tool.format(long_name))
    async with connect(workspace) as server:
        listed = [tool.name for tool in (await server.session.list_tools()).tools]
        stderr = server.stderr()
    assert listed == ["ok"]
    assert "broken.md" in stderr
    # Longer than any export allows: the core refuses it at load, naming its file.
    [line] = [line for line in stderr.splitlines() if "not a valid tool name" in line]
    assert "long.md:1: name: 'xxx" in line, line
