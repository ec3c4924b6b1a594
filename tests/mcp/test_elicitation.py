"""Approval over MCP: ask through elicitation when the client can be asked, else headless rules."""

from __future__ import annotations

import json

import anyio
import mcp_types as types
import pytest

# Each test starts a real server process: seconds of real time.
pytestmark = [pytest.mark.anyio, pytest.mark.slow]


class Person:
    """An elicitation callback that answers as told and remembers what it was shown."""

    def __init__(self, *answers: types.ElicitResult | types.ErrorData | None) -> None:
        self.answers = list(answers)
        self.prompts: list[types.ElicitRequestFormParams] = []

    async def __call__(self, context, params):
        assert isinstance(params, types.ElicitRequestFormParams)
        self.prompts.append(params)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if answer is None:
            await anyio.sleep_forever()
        return answer


def choose(decision: str) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content={"decision": decision})


def marker(workspace) -> str:
    path = workspace.project / "marker.txt"
    return path.read_text() if path.exists() else ""


async def test_a_client_that_can_be_asked_sees_every_tool_and_is_asked(connect, text_of, tools):
    person = Person(choose("allow"))
    async with connect(tools, elicitation_callback=person) as server:
        listed = {tool.name for tool in (await server.session.list_tools()).tools}
        assert "guarded" in listed
        result = await server.session.call_tool("guarded", {"label": "first run"})
    assert (result.is_error, text_of(result)) == (False, "EXIT_CODE: 0\nwrote first run")
    assert marker(tools) == "first run\n"
    (prompt,) = person.prompts
    # The prompt shows what will really run: tool, origin, arguments and rendered script.
    assert prompt.message.startswith('Run the tool "guarded"? (markdown, personal: ')
    assert "approval: always" in prompt.message
    assert json.dumps({"label": "first run"}, indent=2) in prompt.message
    assert "echo 'first run' >> marker.txt && echo wrote 'first run'" in prompt.message
    decision = prompt.requested_schema["properties"]["decision"]
    assert decision["enum"] == ["allow", "always", "deny"]
    assert prompt.requested_schema["required"] == ["decision"]


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (choose("deny"), "the user declined"),
        (types.ElicitResult(action="decline"), "the user declined"),
        (types.ElicitResult(action="cancel"), "the user dismissed the approval prompt"),
        (choose("maybe"), "the approval prompt answered 'maybe', not a decision"),
        (
            types.ErrorData(code=types.INVALID_REQUEST, message="no UI here"),
            "the MCP client could not show the approval prompt (no UI here)",
        ),
    ],
)
async def test_anything_but_yes_denies_and_nothing_runs(connect, text_of, tools, answer, reason):
    async with connect(tools, elicitation_callback=Person(answer)) as server:
        result = await server.session.call_tool("guarded", {"label": "nope"})
        after = await server.session.call_tool("custom__echo", {"text": "server fine"})
    assert result.is_error is True
    assert text_of(result) == f"Tool call denied: {reason}"
    assert marker(tools) == ""
    assert text_of(after) == "server fine"


async def test_always_allow_is_remembered_for_this_version_of_the_tool(connect, text_of, tools):
    person = Person(choose("always"), choose("deny"))
    async with connect(tools, elicitation_callback=person) as server:
        first = await server.session.call_tool("guarded", {"label": "one"})
        second = await server.session.call_tool("guarded", {"label": "two"})
    assert not first.is_error and not second.is_error
    assert len(person.prompts) == 1
    assert marker(tools) == "one\ntwo\n"
    # Editing the tool voids the grant: the next server asks again.
    guarded = tools.personal_tools / "guarded.md"
    guarded.write_text(guarded.read_text().replace("wrote", "wrote again"))
    async with connect(tools, elicitation_callback=person) as server:
        third = await server.session.call_tool("guarded", {"label": "three"})
    assert text_of(third) == "Tool call denied: the user declined"
    assert len(person.prompts) == 2


async def test_a_client_that_cannot_be_asked_gets_headless_rules(connect, text_of, tools):
    async with connect(tools) as server:
        listed = {tool.name for tool in (await server.session.list_tools()).tools}
        result = await server.session.call_tool("guarded", {"label": "x"})
    assert "guarded" not in listed
    assert result.is_error is True
    assert text_of(result) == 'Tool "guarded" is not available in headless mode'
    assert marker(tools) == ""


async def test_normal_mode_without_elicitation_denies_with_a_reason(connect, text_of, tools):
    async with connect(tools, "--mode", "normal") as server:
        listed = {tool.name for tool in (await server.session.list_tools()).tools}
        result = await server.session.call_tool("guarded", {"label": "x"})
    assert "guarded" in listed
    assert result.is_error is True
    denied = 'Tool call denied: "guarded" needs approval and there is no one to ask'
    assert text_of(result).startswith(denied)
    assert marker(tools) == ""


async def test_the_global_mode_option_applies_too(connect, text_of, tools):
    person = Person(choose("deny"))
    yolo = ("--mode", "yolo")
    async with connect(tools, global_args=yolo, elicitation_callback=person) as server:
        result = await server.session.call_tool("guarded", {"label": "yolo"})
    assert text_of(result) == "EXIT_CODE: 0\nwrote yolo"
    assert person.prompts == []


async def test_untrusted_project_tools_ask_every_time(connect, text_of, workspace):
    workspace.markdown_tool(
        "harmless.md",
        """
        ---
        name: harmless
        description: Claims it needs no approval; the project is not trusted.
        approval: never
        ---
        echo harmless
        """,
        personal=False,
    )
    person = Person(choose("allow"))
    async with connect(workspace, elicitation_callback=person) as server:
        result = await server.session.call_tool("harmless", {})
    assert text_of(result) == "EXIT_CODE: 0\nharmless"
    assert len(person.prompts) == 1
    async with connect(workspace) as server:  # headless: untrusted project tools are hidden
        assert (await server.session.list_tools()).tools == []
    assert workspace.tooldrop("trust").returncode == 0
    async with connect(workspace) as server:
        assert [t.name for t in (await server.session.list_tools()).tools] == ["harmless"]


async def test_cancelling_a_call_waiting_for_approval_runs_nothing(connect, text_of, tools):
    person = Person(None, choose("allow"))  # never answers the first prompt, allows the next
    async with connect(tools, elicitation_callback=person) as server:
        async with anyio.create_task_group() as group:
            group.start_soon(server.session.call_tool, "guarded", {"label": "never"})
            # Cancel once the person is being asked, not after a guess at how long that takes.
            with anyio.fail_after(60):
                while not person.prompts:
                    await anyio.sleep(0.01)
            group.cancel_scope.cancel()
        assert len(person.prompts) == 1
        # The server goes on: the next call is asked for, allowed and runs, alone.
        result = await server.session.call_tool("guarded", {"label": "later"})
        assert text_of(result) == "EXIT_CODE: 0\nwrote later"
        assert len(person.prompts) == 2
    # The server has exited: whatever it was going to run, it has run.
    assert marker(tools) == "later\n"


async def test_an_untrusted_project_says_why_its_tools_are_missing(connect, workspace):
    """Once on stderr at start and in the instructions: the client and the person learn why
    the project's tools are hidden, and what to run."""
    workspace.markdown_tool(
        "local.md",
        "---\nname: local\ndescription: d\napproval: never\n---\necho local\n",
        personal=False,
    )
    async with connect(workspace) as server:
        assert (await server.session.list_tools()).tools == []
        instructions = server.session.initialize_result.instructions
    assert "this project is not trusted, so its 1 tool" in instructions
    assert "are hidden in headless mode" in instructions
    assert f"run `tooldrop trust` in {workspace.project.resolve()}" in instructions
    assert server.stderr().count("this project is not trusted") == 1
    assert workspace.tooldrop("trust").returncode == 0
    async with connect(workspace) as server:
        instructions = server.session.initialize_result.instructions
    assert "trust" not in instructions
    assert "not trusted" not in server.stderr()
