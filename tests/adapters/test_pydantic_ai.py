"""pydantic-ai: a real Agent run offline with FunctionModel, approval through deferred tools."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults, ToolDenied
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from tooldrop_adapters.pydantic_ai import TooldropToolset

from .conftest import NASTY


def _outcome(part: ToolReturnPart | RetryPromptPart) -> str:
    outcome = "retried" if isinstance(part, RetryPromptPart) else part.outcome
    return "" if outcome == "success" else f"{outcome.upper()} "


def scripted(*calls: tuple[str, dict]):
    """A model that calls ``calls`` at once, then answers with what the tools returned."""
    seen: dict[str, AgentInfo] = {}

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen["info"] = info
        last = messages[-1]
        answers = [
            f"{p.tool_name}={_outcome(p)}{p.content}"
            for p in (last.parts if isinstance(last, ModelRequest) else [])
            if isinstance(p, ToolReturnPart | RetryPromptPart)
        ]
        if answers:
            return ModelResponse(parts=[TextPart(" | ".join(answers))])
        return ModelResponse(
            parts=[
                ToolCallPart(name, args, tool_call_id=f"call-{i}")
                for i, (name, args) in enumerate(calls)
            ]
        )

    return FunctionModel(model), seen


def agent_for(host, *calls, **options):
    model, seen = scripted(*calls)
    toolset = TooldropToolset(host, **options)
    return Agent(model, toolsets=[toolset], output_type=[str, DeferredToolRequests]), seen


def run(agent, **kwargs):
    return asyncio.run(agent.run("go", **kwargs))


def test_markdown_and_python_tools_are_called(host):
    agent, _ = agent_for(host, ("greet", {"who": "Ann"}), ("custom__count", {"text": "a b c"}))
    output = run(agent).output
    assert output == "greet=EXIT_CODE: 0\nHello, Ann | custom__count=3"


def test_schemas_and_strict_stay_as_tooldrop_exports_them(host):
    agent, seen = agent_for(host, ("greet", {"who": "x"}))
    run(agent)
    exported = {d["function"]["name"]: d["function"] for d in host.export("openai")}
    tools = {t.name: t for t in seen["info"].function_tools}
    assert set(tools) == set(exported)
    for name, tool in tools.items():
        assert tool.parameters_json_schema == exported[name]["parameters"], name
        assert tool.strict is exported[name]["strict"], name
    assert tools["shout"].strict is False  # an optional parameter: not made required
    assert "mark" not in tools["shout"].parameters_json_schema.get("required", [])


def test_approval_yes_runs_exactly_the_shown_script(host, place):
    agent, _ = agent_for(host, ("danger", {"word": NASTY}))
    first = run(agent)
    requests = first.output
    assert isinstance(requests, DeferredToolRequests)
    [call] = requests.approvals
    shown = requests.metadata[call.tool_call_id]["tooldrop"]
    assert shown["script"] == host.render("danger", {"word": NASTY})
    assert "approval is always" in shown["reason"]
    assert place.danger_ran() is None, "ran before approval"
    second = run(
        agent,
        message_history=first.all_messages(),
        deferred_tool_results=DeferredToolResults(approvals={call.tool_call_id: True}),
    )
    assert place.danger_ran() == NASTY
    assert second.output == f"danger=EXIT_CODE: 0\nwrote {NASTY}"


def test_approval_no_runs_nothing(host, place):
    agent, _ = agent_for(host, ("danger", {"word": "x"}))
    first = run(agent)
    [call] = first.output.approvals
    second = run(
        agent,
        message_history=first.all_messages(),
        deferred_tool_results=DeferredToolResults(
            approvals={call.tool_call_id: ToolDenied("not today")}
        ),
    )
    assert place.danger_ran() is None
    assert second.output == "danger=DENIED not today"


def test_a_tool_edited_while_waiting_for_approval_does_not_run(host, place):
    agent, _ = agent_for(host, ("danger", {"word": "x"}))
    first = run(agent)
    [call] = first.output.approvals
    place.edit_danger()
    second = run(
        agent,
        message_history=first.all_messages(),
        deferred_tool_results=DeferredToolResults(approvals={call.tool_call_id: True}),
    )
    assert place.danger_ran() is None
    assert "changed after the call was prepared" in second.output


def test_an_ask_callback_answers_inline(host, place):
    shown = []

    def ask(pending):
        shown.append(pending.script)
        return True

    agent, _ = agent_for(host, ("danger", {"word": "w"}), ask=ask)
    assert run(agent).output == "danger=EXIT_CODE: 0\nwrote w"
    assert shown == [host.render("danger", {"word": "w"})]
    assert place.danger_ran() == "w"


def test_a_failing_tool_reaches_the_error_path(host):
    agent, _ = agent_for(host, ("custom__explode", {"reason": "disk on fire"}))
    output = run(agent).output
    assert output.startswith("custom__explode=FAILED ")
    assert "disk on fire" in output


def test_a_non_zero_exit_is_a_normal_result(host):
    agent, _ = agent_for(host, ("fail", {}))
    assert run(agent).output.startswith("fail=EXIT_CODE: 3\nSTDERR:\ndisk on fire")


def test_an_invalid_argument_is_a_retry_for_the_model(host):
    agent, _ = agent_for(host, ("greet", {"who": 5}))
    output = run(agent).output
    assert output.startswith("greet=RETRIED ")
    assert 'Parameter "who" has wrong type' in output


def test_errors_as_text(host):
    agent, _ = agent_for(host, ("greet", {"who": 5}), errors="text")
    output = run(agent).output
    assert output.startswith("greet=⚒ Parameter")


def test_only_the_chosen_tools(host):
    agent, seen = agent_for(host, ("danger", {"word": "x"}), tools=["greet"])
    output = run(agent).output
    assert [t.name for t in seen["info"].function_tools] == ["greet"]
    assert "Unknown tool" in output or "danger" in output


def test_an_untrusted_project_says_why_in_the_instructions_and_the_log(place, caplog):
    (place.project / ".tooldrop" / "tools" / "local.md").write_text(
        "---\nname: local\ndescription: d\napproval: never\n---\necho local\n"
    )
    with place.host() as host:
        agent, seen = agent_for(host, ("local", {}))
        with caplog.at_level("WARNING", logger="tooldrop.adapters"):
            requests = run(agent).output
            run(agent)
        assert isinstance(requests, DeferredToolRequests)  # an approval: never tool asks
        [call] = requests.approvals
        assert "tooldrop trust" in requests.metadata[call.tool_call_id]["tooldrop"]["reason"]
        assert "this project is not trusted" in seen["info"].instructions
        warnings = [r.getMessage() for r in caplog.records if "not trusted" in r.getMessage()]
        assert len(warnings) == 1
