"""The server notices tool files added, changed or removed, and says so to the client."""

from __future__ import annotations

import anyio
import mcp_types as types
import pytest

# Each test starts a real server process: seconds of real time.
pytestmark = [pytest.mark.anyio, pytest.mark.slow]

TOOL = """
    ---
    name: {name}
    description: {description}
    approval: never
    ---
    echo {name}
"""


class ChangeWatcher:
    """A message handler that counts ``notifications/tools/list_changed``."""

    def __init__(self) -> None:
        self.count = 0
        self.event = anyio.Event()

    async def __call__(self, message: object) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            self.count += 1
            self.event.set()

    async def wait(self, timeout: float = 30) -> None:
        with anyio.fail_after(timeout):
            await self.event.wait()
        self.event = anyio.Event()


async def names(session) -> list[str]:
    return sorted(tool.name for tool in (await session.list_tools()).tools)


async def test_the_list_changes_when_a_tool_file_is_added_changed_or_removed(connect, workspace):
    workspace.markdown_tool("first.md", TOOL.format(name="first", description="One."))
    changes = ChangeWatcher()
    async with connect(workspace, "--poll-interval", "0.2", message_handler=changes) as server:
        session = server.session
        assert await names(session) == ["first"]

        added = workspace.markdown_tool("second.md", TOOL.format(name="second", description="Two."))
        await changes.wait()
        assert await names(session) == ["first", "second"]

        added.write_text(added.read_text().replace("Two.", "Now with a better description."))
        await changes.wait()
        (second,) = [t for t in (await session.list_tools()).tools if t.name == "second"]
        assert second.description == "Now with a better description."

        added.unlink()
        await changes.wait()
        assert await names(session) == ["first"]
        result = await session.call_tool("second", {})
        assert result.is_error is True


async def test_a_new_python_tool_shows_up_too(connect, workspace):
    changes = ChangeWatcher()
    async with connect(workspace, "--poll-interval", "0.2", message_handler=changes) as server:
        assert await names(server.session) == []
        workspace.python_tool(
            "late.py",
            """
            default = {
                "name": "late",
                "description": "Added while serving.",
                "approval": "never",
                "execute": lambda args, cancel: "late but here",
            }
            """,
        )
        await changes.wait()
        assert await names(server.session) == ["custom__late"]
        result = await server.session.call_tool("custom__late", {})
        assert result.content[0].text == "late but here"  # type: ignore[union-attr]


WATCH = "tooldrop serve: watch: "


def watch_lines(server) -> list[str]:
    """The server's ``watch:`` lines on stderr (TOOLDROP_TRACE_WATCH=1), one per finished check."""
    return [line for line in server.stderr().splitlines() if line.startswith(WATCH)]


async def checks_after(server, seen: int, count: int = 2, timeout: float = 30) -> list[str]:
    """Wait until ``count`` more checks than ``seen`` have finished; the lines after ``seen``.

    Two, not one: the first may have begun before what the test just changed. The second began
    after it, and its notification, if any, left before its line was written."""
    with anyio.fail_after(timeout):
        while len(lines := watch_lines(server)) < seen + count:
            await anyio.sleep(0.02)
    return lines[seen:]


def traced(workspace) -> dict[str, str]:
    return {**workspace.env(), "TOOLDROP_TRACE_WATCH": "1"}


async def test_touching_a_file_without_changing_its_tools_says_nothing(connect, workspace):
    path = workspace.markdown_tool("first.md", TOOL.format(name="first", description="One."))
    changes = ChangeWatcher()
    poll = ("--poll-interval", "0.2")
    async with connect(workspace, *poll, env=traced(workspace), message_handler=changes) as server:
        assert await names(server.session) == ["first"]
        # Same listing (only the script changed): the client has nothing to refetch.
        seen = len(watch_lines(server))
        path.write_text(path.read_text().replace("echo first", "echo first again"))
        after = await checks_after(server, seen)
        assert WATCH + "files changed, the tool list did not" in after
        result = await server.session.call_tool("first", {})  # a round trip: nothing in flight
        assert changes.count == 0
        assert result.content[0].text == "EXIT_CODE: 0\nfirst again"  # type: ignore[union-attr]
        # ...and a real change still gets through afterwards.
        workspace.markdown_tool("third.md", TOOL.format(name="third", description="Three."))
        await changes.wait()
        assert changes.count == 1
        assert watch_lines(server)[-1] == WATCH + "the tool list changed, clients told"


async def test_watching_can_be_turned_off(connect, workspace):
    changes, control = ChangeWatcher(), ChangeWatcher()
    env = traced(workspace)
    async with (
        connect(workspace, "--poll-interval", "0", env=env, message_handler=changes) as server,
        connect(workspace, "--poll-interval", "0.2", env=env, message_handler=control) as watching,
    ):
        assert await names(server.session) == []
        seen = len(watch_lines(watching))
        workspace.markdown_tool("first.md", TOOL.format(name="first", description="One."))
        # A server that watches has noticed, told its client, and checked once more since...
        await control.wait()
        await checks_after(watching, seen, count=3)
        await names(server.session)  # a round trip: nothing in flight
        # ...while this one never checked, and said nothing.
        assert watch_lines(server) == []
        assert changes.count == 0
