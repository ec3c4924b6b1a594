"""A client that asks for progress gets the tool's output as it comes (``notifications/progress``);
the result is the model's text as before."""

from __future__ import annotations

import anyio
import pytest

# Each test starts a real server process: seconds of real time.
pytestmark = [pytest.mark.anyio, pytest.mark.slow]

WAITS_MD = """
    ---
    name: waits
    description: Print start, then wait for a file.
    approval: never
    read_only: true
    timeout_ms: 120000
    parameters:
      flag:
        type: string
        required: true
    ---
    echo start
    while [ ! -e {{ flag }} ]; do sleep 0.05; done
    echo end
"""


async def test_the_output_comes_as_progress_while_the_tool_runs(
    connect, text_of, workspace, tmp_path
):
    workspace.markdown_tool("waits.md", WAITS_MD)
    flag = tmp_path / "flag"
    messages: list[str] = []
    progress: list[float] = []
    started = anyio.Event()

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)
        messages.append(message or "")
        if "start" in "".join(messages):
            started.set()

    results = []
    async with connect(workspace) as server:

        async def call() -> None:
            results.append(
                await server.session.call_tool(
                    "waits", {"flag": str(flag)}, progress_callback=on_progress
                )
            )

        try:
            async with anyio.create_task_group() as group:
                group.start_soon(call)
                with anyio.fail_after(60):
                    await started.wait()  # the tool waits for the flag: this came while it ran
                assert results == []
                flag.touch()
        finally:
            flag.touch()
        quiet = await server.session.call_tool("waits", {"flag": str(flag)})
    assert text_of(results[0]) == text_of(quiet) == "EXIT_CODE: 0\nstart\nend"
    assert "".join(messages) == "start\nend\n"
    assert progress == sorted(progress) and len(set(progress)) == len(progress)  # increasing


BIG_MD = """
    ---
    name: big
    description: Print a lot.
    approval: never
    read_only: true
    ---
    seq 1 200000
"""


async def test_a_flood_of_output_comes_in_bounded_messages_ending_with_the_latest(
    connect, text_of, workspace
):
    workspace.markdown_tool("big.md", BIG_MD)
    messages: list[str] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        messages.append(message or "")

    async with connect(workspace) as server:
        result = await server.session.call_tool("big", {}, progress_callback=on_progress)
    assert result.is_error is False
    assert messages and all(len(m) <= 4000 for m in messages)
    assert messages[-1].endswith("199999\n200000\n")
    assert text_of(result).startswith("EXIT_CODE: 0\n1\n2\n")  # the model's text, cut as before
