"""Many calls at once from one client: each gets its own answer, none lost or swapped."""

from __future__ import annotations

import time

import anyio
import pytest

# Each test starts a real server process: seconds of real time.
pytestmark = [pytest.mark.anyio, pytest.mark.slow]

CALLS = 50


async def test_fifty_concurrent_calls_each_get_their_own_answer(connect, text_of, tools):
    async with connect(tools) as server:
        results: dict[int, str] = {}
        errors: dict[int, bool] = {}

        async def one(index: int) -> None:
            # Later calls sleep less, so answers come back in a different order than asked.
            delay = 0.3 * (CALLS - index) / CALLS
            result = await server.session.call_tool(
                "custom__echo", {"text": f"answer-{index}", "delay": delay}
            )
            results[index] = text_of(result)
            errors[index] = result.is_error

        started = time.monotonic()
        async with anyio.create_task_group() as group:
            for index in range(CALLS):
                group.start_soon(one, index)
        elapsed = time.monotonic() - started
        # The connection is still in order afterwards.
        greet = await server.session.call_tool("custom__echo", {"text": "after", "delay": 0})
    assert results == {index: f"answer-{index}" for index in range(CALLS)}
    assert not any(errors.values())
    assert text_of(greet) == "after"
    print(f"\n{CALLS} concurrent calls (sleeping up to 0.3 s each) answered in {elapsed:.2f} s")


async def test_concurrent_shell_tools_do_not_mix_their_output(connect, text_of, workspace):
    workspace.markdown_tool(
        "count.md",
        """
        ---
        name: count
        description: Print a marker a few times, slowly.
        parameters:
          marker:
            type: string
            required: true
        approval: never
        ---
        for i in 1 2 3; do echo {{ marker }}-$i; sleep 0.05; done
        """,
    )
    async with connect(workspace) as server:
        results: dict[int, str] = {}

        async def one(index: int) -> None:
            result = await server.session.call_tool("count", {"marker": f"m{index}"})
            results[index] = text_of(result)

        async with anyio.create_task_group() as group:
            for index in range(20):
                group.start_soon(one, index)
    assert results == {i: f"EXIT_CODE: 0\nm{i}-1\nm{i}-2\nm{i}-3" for i in range(20)}
