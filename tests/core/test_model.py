"""The model: frozen values that print well."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from tooldrop import CancelToken, Decision, LoadResult, Problem, ToolResult


def test_problem_formats_as_file_line_field_message():
    problem = Problem(path="tools/a.md", line=3, field="parameters.ns.pattern", message="bad regex")
    assert str(problem) == "tools/a.md:3: parameters.ns.pattern: bad regex"
    assert str(Problem(path="a.md", message="no frontmatter")) == "a.md: no frontmatter"
    assert str(Problem(message="plugin x failed")) == "plugin x failed"
    assert problem.format(relative_to=Path("tools")) == "a.md:3: parameters.ns.pattern: bad regex"


def test_model_objects_are_frozen():
    problem = Problem(message="x")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        problem.message = "y"  # type: ignore[misc]


def test_decisions():
    assert Decision.allow().allowed
    assert not Decision.deny("no").allowed
    assert Decision.deny("no").reason == "no"
    assert Decision.ask().outcome == "ask"
    assert Decision.allow(remember=True).remember
    assert Decision.edit({"a": 1}).args == {"a": 1}


def test_load_results_hold_tuples():
    result = LoadResult(problems=[Problem(message="x")])
    assert isinstance(result.problems, tuple)
    assert result.tools == ()


def test_tool_result_error():
    assert ToolResult.error("bad").is_error


def test_cancel_token_runs_callbacks_once_and_wakes_waiters():
    import asyncio

    token = CancelToken()
    seen: list[str] = []
    remove = token.add_callback(lambda: seen.append("a"))
    token.add_callback(lambda: seen.append("b"))
    remove()

    async def waiter():
        await token.wait_async()
        return token.reason

    async def main():
        task = asyncio.create_task(waiter())
        await asyncio.sleep(0)
        token.cancel("timeout")
        token.cancel("again")
        return await task

    assert asyncio.run(main()) == "timeout"
    assert seen == ["b"]
    assert token.is_set() and token.wait(0)
    late: list[int] = []
    token.add_callback(lambda: late.append(1))
    assert late == [1]
