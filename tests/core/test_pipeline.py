"""The call pipeline: every failure is an error result the model can read, never a raise."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from tooldrop import (
    CancelToken,
    Decision,
    InvalidArgumentsError,
    RenderError,
    ToolCall,
    ToolResult,
    UnknownToolError,
    hookimpl,
)

SCHEMA = {
    "type": "object",
    "properties": {
        "msg": {"type": "string", "minLength": 1},
        "count": {"type": "integer", "default": 3},
    },
    "required": ["msg"],
    "additionalProperties": False,
}


@pytest.fixture
def host(make_host, tool_pack, spec_factory):
    return make_host(
        tool_pack(
            spec_factory("echo", input_schema=SCHEMA),
            spec_factory("guarded", approval="always", read_only=False),
        )
    )


def test_a_valid_call_runs_with_defaults_applied(host, echo):
    result = host.call("echo", {"msg": "hi"})
    assert result == ToolResult(text='echo: {"count": 3, "msg": "hi"}', duration=result.duration)
    assert echo.calls[0].args == {"msg": "hi", "count": 3}


def test_unknown_tool_is_an_error_result_listing_the_tools(host):
    result = host.call("nope", {})
    assert result.is_error
    assert result.text == 'Unknown tool "nope". Available tools: echo, guarded'


def test_an_unknown_tool_suggests_the_close_names(host):
    result = host.call("ehco", {})
    assert result.text == (
        'Unknown tool "ehco". Available tools: echo, guarded. Did you mean "echo"?'
    )
    with pytest.raises(UnknownToolError) as caught:
        host.render("guardd", {})
    assert caught.value.suggestions == ("guarded",)
    assert str(caught.value) == (
        'Unknown tool "guardd". Available tools: echo, guarded. Did you mean "guarded"?'
    )


@pytest.mark.parametrize(
    ("known", "suggestions", "message"),
    [
        (None, (), 'Unknown tool "wether"'),
        ((), (), 'Unknown tool "wether". Available tools: none'),
        (["zeta", "alpha"], (), 'Unknown tool "wether". Available tools: alpha, zeta'),
        (
            ["wether_now", "weathers", "wethers_x", "weather", "lather"],
            ("weather", "weathers", "wethers_x"),  # closest first, at most three
            'Unknown tool "wether". Available tools: lather, weather, weathers, wether_now, '
            'wethers_x. Did you mean "weather" or "weathers" or "wethers_x"?',
        ),
        (
            [f"t{i:02}" for i in range(31)],
            (),
            'Unknown tool "wether". Available tools: '
            + ", ".join(f"t{i:02}" for i in range(30))
            + ", ...",
        ),
    ],
)
def test_unknown_tool_error_lists_sorted_names_and_suggests(known, suggestions, message):
    error = UnknownToolError("wether", known=known)
    assert (error.name, error.suggestions, str(error)) == ("wether", suggestions, message)
    assert str(UnknownToolError("wether", "custom text", known=known)) == "custom text"


def test_invalid_arguments_never_reach_the_backend(host, echo):
    result = host.call("echo", {"count": "x"})
    assert result.is_error
    assert result.text.splitlines() == [
        "⚒ Missing required parameter: msg",
        '⚒ Parameter "count" has wrong type — expected integer, got string',
    ]
    assert echo.calls == []


def test_arguments_that_are_not_an_object_are_an_error(host):
    result = host.call("echo", ["msg"])  # type: ignore[arg-type]
    assert result.is_error
    assert "must be a JSON object, got array" in result.text


def test_null_for_an_optional_parameter_counts_as_omitted(host, echo):
    result = host.call("echo", {"msg": "x", "count": None})
    assert not result.is_error
    assert echo.calls[0].args["count"] == 3


def test_a_call_needing_approval_with_no_one_to_ask_is_denied(host, echo):
    result = host.call("guarded", {})
    assert result.is_error and result.denied
    assert "needs approval and there is no one to ask" in result.text
    assert echo.calls == []


@pytest.mark.parametrize(
    ("answer", "runs"),
    [(True, True), (False, False), (Decision.allow(), True), (Decision.deny("no"), False)],
)
def test_the_ask_callback_decides(host, echo, answer, runs):
    seen: list[ToolCall] = []

    def ask(call: ToolCall):
        seen.append(call)
        return answer

    result = host.call("guarded", {}, ask=ask)
    assert [c.name for c in seen] == ["guarded"]
    assert bool(echo.calls) is runs
    assert result.denied is not runs


def test_an_ask_callback_that_raises_denies(host, echo):
    def ask(call):
        raise RuntimeError("ui gone")

    result = host.call("guarded", {}, ask=ask)
    assert result.denied
    assert "ui gone" in result.text
    assert echo.calls == []


def test_edited_arguments_are_validated_rendered_and_asked_again(
    make_host, tool_pack, spec_factory, echo
):
    spec = spec_factory("edit_me", input_schema=SCHEMA, approval="always")
    host = make_host(tool_pack(spec))
    answers = iter([Decision.edit({"msg": "edited"}), True])
    asked: list[dict] = []

    def ask(call):
        asked.append(dict(call.args))
        return next(answers)

    result = host.call("edit_me", {"msg": "original"}, ask=ask)
    assert not result.is_error
    assert asked == [{"msg": "original", "count": 3}, {"msg": "edited", "count": 3}]
    assert echo.calls[0].args["msg"] == "edited"


def test_edited_arguments_that_are_invalid_fail_the_call(make_host, tool_pack, spec_factory, echo):
    host = make_host(tool_pack(spec_factory("edit_me", input_schema=SCHEMA, approval="always")))
    result = host.call("edit_me", {"msg": "ok"}, ask=lambda call: Decision.edit({"msg": ""}))
    assert result.is_error
    assert "too short" in result.text
    assert echo.calls == []


class Renderer:
    @hookimpl
    def tooldrop_render(self, call: ToolCall) -> str | None:
        if call.args.get("msg") == "%PATH%":
            raise RenderError("cmd.exe cannot quote % safely")
        if call.args.get("msg") == "bug":
            raise ZeroDivisionError("oops")
        return f"echo {call.args.get('msg')}"


def test_render_errors_are_results_and_nothing_runs(make_host, tool_pack, spec_factory, echo):
    host = make_host(tool_pack(spec_factory("echo", input_schema=SCHEMA)), Renderer())
    refused = host.call("echo", {"msg": "%PATH%"})
    assert refused.is_error and refused.text == "cmd.exe cannot quote % safely"
    crashed = host.call("echo", {"msg": "bug"})
    assert crashed.is_error
    assert crashed.text == 'Could not render tool "echo": ZeroDivisionError: oops'
    assert echo.calls == []
    ok = host.call("echo", {"msg": "hi"})
    assert not ok.is_error
    assert echo.calls[0].script == "echo hi"


def test_host_render_raises_for_people_and_programs(make_host, tool_pack, spec_factory):
    host = make_host(tool_pack(spec_factory("echo", input_schema=SCHEMA)), Renderer())
    assert host.render("echo", {"msg": "hi"}) == "echo hi"
    with pytest.raises(UnknownToolError):
        host.render("nope", {})
    with pytest.raises(InvalidArgumentsError) as info:
        host.render("echo", {})
    assert info.value.messages == ("⚒ Missing required parameter: msg",)


class BrokenPolicy:
    @hookimpl(tryfirst=True)
    def tooldrop_approve(self, call: ToolCall) -> Decision | None:
        raise RuntimeError("policy bug")


def test_an_exception_in_approval_is_a_deny(make_host, tool_pack, spec_factory, echo):
    host = make_host(tool_pack(spec_factory("echo")), BrokenPolicy())
    result = host.call("echo", {"msg": "x"})
    assert result.denied
    assert "policy bug" in result.text
    assert echo.calls == []


def test_with_no_policy_at_all_every_call_asks(project, user_dir, echo, tool_pack, spec_factory):
    from tooldrop import ToolHost

    host = ToolHost(
        project_dir=project, user_dir=user_dir, plugins=[echo, tool_pack(spec_factory())]
    )
    assert not host.call("echo", {}).is_error  # the essential default policy: approval never
    host.unregister("approval")  # deliberately, through the API: now nothing decides
    denied = host.call("echo", {})
    assert denied.denied, denied.text
    assert denied.text == (
        'Tool call denied: "echo" needs approval and there is no one to ask (mode: normal): '
        "approve it interactively, run in a mode that allows it, or add it to alwaysAllow"
    )
    assert not host.call("echo", {}, ask=lambda call: True).is_error


def test_a_backend_crash_is_an_error_result(make_host, tool_pack, spec_factory):
    def crash(call):
        raise OSError("disk on fire")

    host = make_host(tool_pack(spec_factory("crashy", payload=crash)))
    result = host.call("crashy", {})
    assert result.is_error
    assert result.text == 'Tool "crashy" crashed: OSError: disk on fire'


def test_a_tool_no_backend_runs_is_an_error_result(make_host, tool_pack, spec_factory):
    host = make_host(tool_pack(spec_factory("orphan", runner="nobody")))
    result = host.call("orphan", {})
    assert result.is_error
    assert 'No backend can run "nobody" tools' in result.text


def test_a_backend_returning_garbage_is_an_error_result(make_host, tool_pack, spec_factory):
    host = make_host(tool_pack(spec_factory("odd", payload=lambda call: "just a string")))
    result = host.call("odd", {})
    assert result.is_error
    assert result.text == "The backend returned str, not a ToolResult"


def test_output_is_cut_to_the_hosts_limit(make_host, tool_pack, spec_factory):
    long = "x" * 5000
    host = make_host(
        tool_pack(spec_factory("loud", payload=lambda call: ToolResult(text=long))),
        output_limit=300,
    )
    result = host.call("loud", {})
    assert len(result.text) == 300
    assert result.truncated
    assert "[Output truncated: 5000 characters total;" in result.text


class Audit:
    def __init__(self) -> None:
        self.seen: list[tuple[str, bool]] = []

    @hookimpl
    def tooldrop_after_call(self, call: ToolCall, result: ToolResult) -> None:
        self.seen.append((call.name, result.is_error))


class BrokenAudit:
    @hookimpl
    def tooldrop_after_call(self) -> None:
        raise RuntimeError("audit bug")


def test_after_call_sees_every_call_that_found_its_tool(host, capsys):
    audit = Audit()
    host.register(audit)
    host.register(BrokenAudit())
    host.call("echo", {"msg": "a"})
    host.call("echo", {})
    host.call("guarded", {})
    host.call("unknown", {})
    assert audit.seen == [("echo", False), ("echo", True), ("guarded", True)]
    assert "failed: RuntimeError: audit bug" in capsys.readouterr().err


def test_hidden_tools_cannot_be_called(make_host, tool_pack, spec_factory, echo):
    host = make_host(tool_pack(spec_factory("guarded", approval="always")), mode="plan")
    result = host.call("guarded", {}, ask=lambda call: True)
    assert result.is_error
    assert result.text == 'Tool "guarded" is not available in plan mode'
    assert echo.calls == []


def test_a_cancelled_token_stops_the_call_before_it_runs(host, echo):
    token = CancelToken()
    token.cancel()
    result = host.call("echo", {"msg": "x"}, cancel=token)
    assert result.is_error and result.text == "Tool call cancelled"
    assert echo.calls == []


def test_acall_returns_the_same_result_as_call(host):
    async def main():
        return await host.acall("echo", {"msg": "async"})

    assert asyncio.run(main()).text == host.call("echo", {"msg": "async"}).text


def test_acall_accepts_an_async_ask_callback(host, echo):
    async def ask(call):
        await asyncio.sleep(0)
        return True

    async def main():
        return await host.acall("guarded", {}, ask=ask)

    assert not asyncio.run(main()).is_error
    assert [c.name for c in echo.calls] == ["guarded"]


def test_cancelling_the_awaiting_task_sets_the_calls_token(make_host, tool_pack, spec_factory):
    started = threading.Event()
    seen: list[CancelToken] = []

    def slow(call: ToolCall) -> ToolResult:
        seen.append(call.cancel)
        started.set()
        call.cancel.wait(10)
        return ToolResult.error("Tool call cancelled")

    host = make_host(tool_pack(spec_factory("slow", payload=slow)))

    async def main():
        task = asyncio.create_task(host.acall("slow", {}))
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert seen[0].cancelled


def test_call_many_keeps_order_and_runs_read_only_calls_together(
    make_host, tool_pack, spec_factory
):
    gate = threading.Barrier(3, timeout=10)

    def meet(call: ToolCall) -> ToolResult:
        gate.wait()  # only returns once three calls run at the same time
        return ToolResult(text=f"{call.name}:{call.args['msg']}")

    host = make_host(
        tool_pack(
            spec_factory("together", payload=meet),
            spec_factory("alone", read_only=False, payload=lambda c: ToolResult(text="alone")),
        )
    )
    calls = [("together", {"msg": str(i)}) for i in range(3)] + [("alone", {}), ("nope", {})]
    results = host.call_many(calls)
    assert [r.text for r in results[:4]] == ["together:0", "together:1", "together:2", "alone"]
    assert results[4].is_error


def test_duration_is_measured(make_host, tool_pack, spec_factory):
    def nap(call):
        time.sleep(0.05)
        return ToolResult(text="rested")

    host = make_host(tool_pack(spec_factory("nap", payload=nap)))
    assert host.call("nap", {}).duration >= 0.05


def test_many_acall_many_at_once_do_not_starve_the_pool(make_host, tool_pack, spec_factory):
    from tooldrop.host._host import MAX_CONCURRENT_CALLS

    host = make_host(tool_pack(spec_factory("quick")))

    async def main():
        batches = [
            host.acall_many([("quick", {}), ("quick", {})]) for _ in range(MAX_CONCURRENT_CALLS + 8)
        ]
        return await asyncio.wait_for(asyncio.gather(*batches), timeout=60)

    results = asyncio.run(main())
    assert all(not r.is_error for batch in results for r in batch)
