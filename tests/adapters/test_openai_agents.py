"""OpenAI Agents SDK: a real Runner with a fake Model, approval through needs_approval."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import Agent, FunctionTool, Runner, Usage, set_tracing_disabled
from agents.items import ModelResponse
from agents.models.interface import Model
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from tooldrop_adapters.openai_agents import ToolError, tooldrop_tools

from .conftest import NASTY

set_tracing_disabled(True)


class Scripted(Model):
    """Calls the scripted tools at once, then answers with what the tools returned."""

    def __init__(self, *calls: tuple[str, dict]) -> None:
        self.calls = calls
        self.tools: list[Any] = []

    async def get_response(self, system_instructions, input, model_settings, tools, *args, **kw):
        self.tools = tools
        items = input if isinstance(input, list) else []
        outputs = [
            item
            for item in items
            if isinstance(item, dict) and item.get("type") == "function_call_output"
        ]
        if outputs:
            names = {
                i["call_id"]: i["name"]
                for i in items
                if isinstance(i, dict) and i.get("type") == "function_call"
            }
            text = " | ".join(f"{names[o['call_id']]}={o['output']}" for o in outputs)
            message = ResponseOutputMessage(
                id="m1",
                type="message",
                role="assistant",
                status="completed",
                content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
            )
            return ModelResponse(output=[message], usage=Usage(), response_id=None)
        output = [
            ResponseFunctionToolCall(
                type="function_call",
                call_id=f"call-{i}",
                name=name,
                arguments=json.dumps(args),
                id=f"fc-{i}",
                status="completed",
            )
            for i, (name, args) in enumerate(self.calls)
        ]
        return ModelResponse(output=output, usage=Usage(), response_id=None)

    def stream_response(self, *args, **kwargs):
        raise NotImplementedError


def agent_for(host, *calls, **options):
    model = Scripted(*calls)
    return Agent(name="t", model=model, tools=tooldrop_tools(host, **options)), model


def run(agent, given="go"):
    return asyncio.run(Runner.run(agent, given))


def test_markdown_and_python_tools_are_called(host):
    agent, _ = agent_for(host, ("greet", {"who": "Ann"}), ("custom__count", {"text": "a b c"}))
    assert run(agent).final_output == "greet=EXIT_CODE: 0\nHello, Ann | custom__count=3"


def test_schemas_and_strict_stay_as_tooldrop_exports_them(host):
    tools = {t.name: t for t in tooldrop_tools(host)}
    exported = {d["function"]["name"]: d["function"] for d in host.export("openai")}
    assert set(tools) == set(exported)
    for name, tool in tools.items():
        assert isinstance(tool, FunctionTool)
        assert tool.strict_json_schema is exported[name]["strict"], name
        assert tool.params_json_schema == exported[name]["parameters"], name
    assert tools["shout"].strict_json_schema is False
    assert tools["shout"].params_json_schema["required"] == ["word"]


def test_approval_yes_runs_exactly_the_shown_script(host, place):
    agent, _ = agent_for(host, ("danger", {"word": NASTY}))
    first = run(agent)
    [item] = first.interruptions
    assert item.name == "danger"
    assert place.danger_ran() is None, "ran before approval"
    state = first.to_state()
    state.approve(item)
    second = run(agent, state)
    assert place.danger_ran() == NASTY
    assert second.final_output == f"danger=EXIT_CODE: 0\nwrote {NASTY}"


def test_approval_no_runs_nothing(host, place):
    agent, _ = agent_for(host, ("danger", {"word": "x"}))
    first = run(agent)
    [item] = first.interruptions
    state = first.to_state()
    state.reject(item, rejection_message="not today")
    second = run(agent, state)
    assert place.danger_ran() is None
    assert second.final_output == "danger=not today"


def test_a_tool_edited_while_waiting_for_approval_does_not_run(host, place):
    agent, _ = agent_for(host, ("danger", {"word": "x"}))
    first = run(agent)
    [item] = first.interruptions
    place.edit_danger()
    state = first.to_state()
    state.approve(item)
    second = run(agent, state)
    assert place.danger_ran() is None
    assert "changed after the call was prepared" in second.final_output


def test_an_ask_callback_answers_inline(host, place):
    agent, _ = agent_for(host, ("danger", {"word": "w"}), ask=lambda pending: True)
    result = run(agent)
    assert result.interruptions == []
    assert result.final_output == "danger=EXIT_CODE: 0\nwrote w"


def test_a_failing_tool_reaches_the_model(host):
    agent, _ = agent_for(host, ("custom__explode", {"reason": "disk on fire"}))
    output = run(agent).final_output
    assert output.startswith("custom__explode=") and "disk on fire" in output


def test_an_invalid_argument_reaches_the_model(host):
    agent, _ = agent_for(host, ("greet", {"who": 5}))
    output = run(agent).final_output
    assert output == 'greet=⚒ Parameter "who" has wrong type — expected string, got number'


def test_errors_raise_goes_to_the_sdks_failure_handling(host):
    [tool] = tooldrop_tools(host, tools=["greet"], errors="raise")
    with pytest.raises(ToolError, match="wrong type"):
        asyncio.run(tool.on_invoke_tool(_context("greet", '{"who": 5}'), '{"who": 5}'))


def _context(name: str, arguments: str):
    from agents.tool_context import ToolContext

    return ToolContext(context=None, tool_name=name, tool_call_id="c", tool_arguments=arguments)


class TwoTurns(Scripted):
    """Calls ``danger`` once per turn, twice, then answers with every output."""

    async def get_response(self, system_instructions, input, model_settings, tools, *args, **kw):
        items = input if isinstance(input, list) else []
        outputs = [
            i for i in items if isinstance(i, dict) and i.get("type") == "function_call_output"
        ]
        if len(outputs) < 2:
            self.calls = (("danger", {"word": f"w{len(outputs)}"}),)
            response = await super().get_response(
                system_instructions, [], model_settings, tools, *args, **kw
            )
            call = response.output[0]
            call.call_id, call.id = f"call-turn-{len(outputs)}", f"fc-turn-{len(outputs)}"
            return response
        return await super().get_response(
            system_instructions, input, model_settings, tools, *args, **kw
        )


def test_always_approve_in_the_sdk_is_not_a_yes_for_later_calls(host, place):
    agent = Agent(name="t", model=TwoTurns(), tools=tooldrop_tools(host))
    first = run(agent)
    [item] = first.interruptions
    state = first.to_state()
    state.approve(item, always_approve=True)
    second = run(agent, state)
    assert place.danger_ran() == "w0"  # the call the person approved ran; the next did not
    assert second.interruptions == []
    assert "no one to ask" in second.final_output
