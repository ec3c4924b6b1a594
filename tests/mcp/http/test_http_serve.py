"""``tooldrop serve --http`` serves what stdio does: tools, calls, approval, cancellation, news."""

from __future__ import annotations

import anyio
import mcp_types as types
import pytest

# Each test starts a real server process: seconds of real time.
pytestmark = [pytest.mark.anyio, pytest.mark.slow]

SLOW = """
    ---
    name: slow
    description: Writes its pid, then sleeps.
    approval: never
    ---
    echo $$ > slow.pid; sleep 30; echo finished > finished.txt
"""

QUICK = "---\nname: quick\ndescription: Quick.\napproval: never\n---\necho quick\n"


def choose(decision: str) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content={"decision": decision})


class Person:
    def __init__(self, answer: types.ElicitResult) -> None:
        self.answer = answer
        self.prompts: list[types.ElicitRequestFormParams] = []

    async def __call__(self, context, params):
        self.prompts.append(params)
        return self.answer


def marker(workspace) -> str:
    path = workspace.project / "marker.txt"
    return path.read_text() if path.exists() else ""


async def test_list_and_call_markdown_and_python_tools(http, tools, text_of):
    async with http.server(tools) as server, http.session(server.url) as session:
        listed = {tool.name for tool in (await session.list_tools()).tools}
        greet = await session.call_tool("greet", {"name": "team", "shout": True})
        echo = await session.call_tool("custom__echo", {"text": "over http", "delay": 0})
        boom = await session.call_tool("custom__boom", {"why": "on purpose"})
        invalid = await session.call_tool("greet", {})
        stderr = server.stderr()
    assert {"greet", "custom__echo", "custom__boom"} <= listed
    assert "guarded" not in listed  # no elicitation: headless rules
    assert (greet.is_error, text_of(greet)) == (False, "EXIT_CODE: 0\nhello, team !!!")
    assert (echo.is_error, text_of(echo)) == (False, "over http")
    assert boom.is_error is True and "the tool broke: on purpose" in text_of(boom)
    assert invalid.is_error is True and "name" in text_of(invalid)
    # One audit line per call: who (no token here), which tool, the decision.
    assert "call token=anonymous session=" in stderr
    assert "tool=greet result=ok" in stderr
    assert "tool=custom__boom result=error" in stderr


async def test_elicitation_approves_and_denies_per_session(http, tools, text_of):
    yes, no = Person(choose("allow")), Person(choose("deny"))
    async with http.server(tools) as server:
        async with http.session(server.url, elicitation_callback=yes) as session:
            assert "guarded" in {t.name for t in (await session.list_tools()).tools}
            allowed = await session.call_tool("guarded", {"label": "approved"})
        async with http.session(server.url, elicitation_callback=no) as session:
            denied = await session.call_tool("guarded", {"label": "refused"})
        async with http.session(server.url) as session:  # this one cannot be asked
            headless = await session.call_tool("guarded", {"label": "headless"})
        stderr = server.stderr()
    assert (allowed.is_error, text_of(allowed)) == (False, "EXIT_CODE: 0\nwrote approved")
    assert text_of(denied) == "Tool call denied: the user declined"
    assert text_of(headless) == 'Tool "guarded" is not available in headless mode'
    assert marker(tools) == "approved\n"
    (prompt,) = yes.prompts
    assert prompt.message.startswith('Run the tool "guarded"?')
    assert "tool=guarded result=ok" in stderr
    assert "tool=guarded result=denied reason='the user declined'" in stderr


async def test_a_remote_client_cannot_leave_an_always_allow_grant(http, workspace, text_of):
    # A tool that may be always-allowed on stdio: over HTTP the choice is not offered,
    # and a client answering it anyway is denied, so no grant is written on the server.
    workspace.markdown_tool(
        "ask.md",
        "---\nname: ask\ndescription: Asks.\napproval: destructive\n---\necho ran >> marker.txt\n",
    )
    sneaky = Person(choose("always"))
    async with (
        http.server(workspace) as server,
        http.session(server.url, elicitation_callback=sneaky) as session,
    ):
        first = await session.call_tool("ask", {})
        second = await session.call_tool("ask", {})
    assert sneaky.prompts[0].requested_schema["properties"]["decision"]["enum"] == ["allow", "deny"]
    assert (
        text_of(first) == "Tool call denied: the approval prompt answered 'always', not a decision"
    )
    assert second.is_error and len(sneaky.prompts) == 2  # asked again: nothing was remembered
    assert marker(workspace) == ""


async def test_cancelling_a_call_kills_the_running_script(http, workspace, text_of):
    workspace.markdown_tool("slow.md", SLOW)
    workspace.markdown_tool("quick.md", QUICK)
    pid_file = workspace.project / "slow.pid"
    async with http.server(workspace) as server, http.session(server.url) as session:
        async with anyio.create_task_group() as group:
            group.start_soon(session.call_tool, "slow", {})
            await http.wait_for(lambda: pid_file.exists() and pid_file.read_text().strip(), "pid")
            pid = int(pid_file.read_text())
            assert http.alive(pid)
            group.cancel_scope.cancel()  # the client sends notifications/cancelled
        await http.wait_for(lambda: not http.alive(pid), "the script to be killed")
        after = await session.call_tool("quick", {})  # the session goes on
    assert text_of(after) == "EXIT_CODE: 0\nquick"
    assert not (workspace.project / "finished.txt").exists()


async def test_a_changed_tool_file_notifies_connected_sessions(http, workspace):
    tool = "---\nname: {0}\ndescription: A tool.\napproval: never\n---\necho {0}\n"
    workspace.markdown_tool("first.md", tool.format("first"))
    changed = anyio.Event()

    async def on_message(message: object) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    async with http.server(workspace, "--poll-interval", "0.2") as server:
        for _ in range(3):  # sessions that come and go are forgotten
            async with http.session(server.url) as gone:
                await gone.list_tools()
        async with http.session(server.url, message_handler=on_message) as session:
            assert [t.name for t in (await session.list_tools()).tools] == ["first"]
            workspace.markdown_tool("second.md", tool.format("second"))
            with anyio.fail_after(http.TIMEOUT):
                await changed.wait()
            listed = sorted(t.name for t in (await session.list_tools()).tools)
        stderr = server.stderr()
    assert listed == ["first", "second"]
    assert "tools changed: telling 1 session(s)" in stderr


async def test_an_untrusted_project_says_why_in_instructions_and_on_stderr(http, workspace):
    workspace.markdown_tool(
        "local.md",
        "---\nname: local\ndescription: d\napproval: never\n---\necho local\n",
        personal=False,
    )
    async with http.server(workspace) as server, http.session(server.url) as session:
        assert (await session.list_tools()).tools == []
        instructions = session.initialize_result.instructions
        stderr = server.stderr()
    assert "this project is not trusted, so its 1 tool" in instructions
    assert "run `tooldrop trust`" in instructions
    assert stderr.count("this project is not trusted") == 1
