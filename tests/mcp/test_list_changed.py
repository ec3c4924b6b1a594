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


async def test_touching_a_file_without_changing_its_tools_says_nothing(connect, workspace):
    path = workspace.markdown_tool("first.md", TOOL.format(name="first", description="One."))
    changes = ChangeWatcher()
    async with connect(workspace, "--poll-interval", "0.2", message_handler=changes) as server:
        assert await names(server.session) == ["first"]
        # Same listing (only the script changed): the client has nothing to refetch.
        path.write_text(path.read_text().replace("echo first", "echo first again"))
        await anyio.sleep(1.5)
        assert changes.count == 0
        result = await server.session.call_tool("first", {})
        assert result.content[0].text == "EXIT_CODE: 0\nfirst again"  # type: ignore[union-attr]
        # ...and a real change still gets through afterwards.
        workspace.markdown_tool("third.md", TOOL.format(name="third", description="Three."))
        await changes.wait()
        assert changes.count == 1


async def test_watching_can_be_turned_off(connect, workspace):
    changes = ChangeWatcher()
    async with connect(workspace, "--poll-interval", "0", message_handler=changes) as server:
        assert await names(server.session) == []
        workspace.markdown_tool("first.md", TOOL.format(name="first", description="One."))
        await anyio.sleep(1.5)
        assert changes.count == 0
