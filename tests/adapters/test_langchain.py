"""LangChain / LangGraph: a real create_react_agent graph with a fake chat model; approval
through LangGraph's interrupt()."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("langgraph")

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseToolkit, ToolException
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command

from tooldrop_adapters.langchain import TooldropToolkit

from .conftest import NASTY

pytestmark = pytest.mark.filterwarnings("ignore:create_react_agent has been moved")


class FakeToolModel(FakeMessagesListChatModel):
    """LangChain's fake list model, able to take tools (it records what it was bound with)."""

    bound: list[dict[str, Any]] = []  # noqa: RUF012 - a pydantic field, copied per instance

    def bind_tools(self, tools, **kwargs):
        self.bound = [convert_to_openai_tool(t) for t in tools]
        return self


def graph_for(host, *calls, **options):
    calls_message = AIMessage(
        content="",
        tool_calls=[
            {"name": name, "args": args, "id": f"call-{i}", "type": "tool_call"}
            for i, (name, args) in enumerate(calls)
        ],
    )
    model = FakeToolModel(responses=[calls_message, AIMessage(content="done")])
    tools = TooldropToolkit(host, **options).get_tools()
    graph = create_react_agent(model, tools, checkpointer=InMemorySaver())
    return graph, model


CONFIG = {"configurable": {"thread_id": "t1"}}


def tool_messages(state) -> dict[str, ToolMessage]:
    return {m.name: m for m in state["messages"] if isinstance(m, ToolMessage)}


def test_the_toolkit_is_a_langchain_toolkit(host):
    assert isinstance(TooldropToolkit(host), BaseToolkit)


def test_markdown_and_python_tools_are_called(host):
    graph, _ = graph_for(host, ("greet", {"who": "Ann"}), ("custom__count", {"text": "a b c"}))
    messages = tool_messages(graph.invoke({"messages": [("user", "go")]}, CONFIG))
    assert messages["greet"].content == "EXIT_CODE: 0\nHello, Ann"
    assert messages["custom__count"].content == "3"
    assert {m.status for m in messages.values()} == {"success"}


def test_schemas_stay_as_tooldrop_exports_them(host):
    graph, model = graph_for(host, ("greet", {"who": "x"}))
    graph.invoke({"messages": [("user", "go")]}, CONFIG)
    exported = {d["function"]["name"]: d["function"] for d in host.export("openai")}
    bound = {t["function"]["name"]: t["function"] for t in model.bound}
    assert set(bound) == set(exported)
    for name, function in bound.items():
        assert function["parameters"] == exported[name]["parameters"], name
        assert "strict" not in function  # nothing forced either way
    assert bound["shout"]["parameters"]["required"] == ["word"]
    toolkit = TooldropToolkit(host)
    assert toolkit.definitions() == list(host.export("openai"))
    assert {t.name: t.metadata["strict"] for t in toolkit.get_tools()} == {
        name: f["strict"] for name, f in exported.items()
    }


def test_interrupt_yes_runs_exactly_the_shown_script(host, place):
    graph, _ = graph_for(host, ("danger", {"word": NASTY}), interrupt=True)
    first = graph.invoke({"messages": [("user", "go")]}, CONFIG)
    [waiting] = first["__interrupt__"]
    shown = waiting.value
    assert shown["script"] == host.render("danger", {"word": NASTY})
    assert shown["tool"] == "danger" and "approval is always" in shown["reason"]
    assert place.danger_ran() is None, "ran before approval"
    second = graph.invoke(Command(resume=True), CONFIG)
    assert place.danger_ran() == NASTY
    assert tool_messages(second)["danger"].content == f"EXIT_CODE: 0\nwrote {NASTY}"


def test_interrupt_answer_tied_to_its_fingerprint(host, place):
    graph, _ = graph_for(host, ("danger", {"word": "x"}), interrupt=True)
    first = graph.invoke({"messages": [("user", "go")]}, CONFIG)
    shown = first["__interrupt__"][0].value
    second = graph.invoke(
        Command(resume={"approved": True, "fingerprint": "tooldrop-call:other"}), CONFIG
    )
    assert place.danger_ran() is None
    assert "the user declined" in tool_messages(second)["danger"].content
    assert shown["fingerprint"].startswith("tooldrop-call:")


def test_interrupt_no_runs_nothing(host, place):
    graph, _ = graph_for(host, ("danger", {"word": "x"}), interrupt=True)
    graph.invoke({"messages": [("user", "go")]}, CONFIG)
    second = graph.invoke(Command(resume=False), CONFIG)
    assert place.danger_ran() is None
    message = tool_messages(second)["danger"]
    assert message.status == "error" and "Tool call denied: the user declined" in message.content


def test_a_tool_edited_while_waiting_for_approval_does_not_run(host, place):
    graph, _ = graph_for(host, ("danger", {"word": "x"}), interrupt=True)
    graph.invoke({"messages": [("user", "go")]}, CONFIG)
    place.edit_danger()
    second = graph.invoke(Command(resume=True), CONFIG)
    assert place.danger_ran() is None
    assert "changed after the call was prepared" in tool_messages(second)["danger"].content


def test_without_interrupt_or_ask_a_guarded_call_is_denied_with_the_reason(host, place):
    graph, _ = graph_for(host, ("danger", {"word": "x"}))
    message = tool_messages(graph.invoke({"messages": [("user", "go")]}, CONFIG))["danger"]
    assert message.status == "error" and "no one to ask" in message.content
    assert place.danger_ran() is None


def test_an_ask_callback_answers_inline(host, place):
    graph, _ = graph_for(host, ("danger", {"word": "w"}), ask=lambda pending: True)
    message = tool_messages(graph.invoke({"messages": [("user", "go")]}, CONFIG))["danger"]
    assert message.content == "EXIT_CODE: 0\nwrote w"


def test_async_graph(host, place):
    graph, _ = graph_for(host, ("danger", {"word": "a"}), interrupt=True)
    asyncio.run(graph.ainvoke({"messages": [("user", "go")]}, CONFIG))
    second = asyncio.run(graph.ainvoke(Command(resume=True), CONFIG))
    assert tool_messages(second)["danger"].content == "EXIT_CODE: 0\nwrote a"


def test_a_failing_tool_is_an_error_tool_message(host):
    graph, _ = graph_for(host, ("custom__explode", {"reason": "disk on fire"}))
    message = tool_messages(graph.invoke({"messages": [("user", "go")]}, CONFIG))["custom__explode"]
    assert message.status == "error" and "disk on fire" in message.content


def test_an_invalid_argument_is_an_error_tool_message(host):
    graph, _ = graph_for(host, ("greet", {"who": 5}))
    message = tool_messages(graph.invoke({"messages": [("user", "go")]}, CONFIG))["greet"]
    assert message.status == "error"
    assert 'Parameter "who" has wrong type' in message.content


def test_errors_raise_propagates_the_tool_exception(host):
    [tool] = TooldropToolkit(host, tools=["greet"], errors="raise").get_tools()
    with pytest.raises(ToolException, match="wrong type"):
        tool.invoke({"who": 5})
