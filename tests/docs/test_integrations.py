"""docs/integrations.md is real: each framework's glue is at most 3 lines, and it runs, with the
page's approval loop, against the framework's own fake model: the model calls a tool that needs
approval, the page's code asks ``confirm``, and the tool runs exactly the script shown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import DOCS, blocks

PAGE = DOCS / "integrations.md"
FRAMEWORKS = ["pydantic-ai", "openai-agents", "langchain", "llm"]

TOOL = """---
name: tidy
description: Tidy the repo.
approval: always
parameters:
  what:
    type: string
    required: true
---
printf '%s' {{{{what}}}} > {marker}
echo tidied {{{{what}}}}
"""


def page_blocks(kind: str, framework: str) -> list[str]:
    return [b.body for b in blocks(PAGE) if b.note == f"{kind}: {framework}"]


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_the_glue_is_at_most_three_lines(framework):
    [glue] = page_blocks("glue", framework)
    lines = [line for line in glue.splitlines() if line.strip()]
    assert len(lines) <= 3, glue
    assert lines[0].startswith("from tooldrop_adapters")


def test_every_section_is_in_the_site_nav():
    nav = (DOCS.parent / "mkdocs.yml").read_text()
    assert "integrations.md" in nav


# -- each framework's fake model, calling `tidy` once, then answering with the tool's output --


def pydantic_ai_names() -> dict[str, Any]:
    from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults
    from pydantic_ai.messages import (
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
    )
    from pydantic_ai.models.function import FunctionModel

    def model(messages, info):
        last = messages[-1]
        done = [p for p in getattr(last, "parts", []) if isinstance(p, ToolReturnPart)]
        if isinstance(last, ModelRequest) and done:
            return ModelResponse(parts=[TextPart(str(done[0].content))])
        return ModelResponse(parts=[ToolCallPart("tidy", {"what": "it's"}, tool_call_id="c1")])

    return {
        "Agent": Agent,
        "DeferredToolRequests": DeferredToolRequests,
        "DeferredToolResults": DeferredToolResults,
        "model": FunctionModel(model),
    }


def openai_agents_names() -> dict[str, Any]:
    from agents import Agent, Runner, Usage, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    set_tracing_disabled(True)

    class Scripted(Model):
        async def get_response(self, system_instructions, input, *args, **kwargs):
            items = input if isinstance(input, list) else []
            done = [
                i for i in items if isinstance(i, dict) and i.get("type") == "function_call_output"
            ]
            if done:
                text = ResponseOutputText(
                    type="output_text", text=str(done[0]["output"]), annotations=[]
                )
                out = ResponseOutputMessage(
                    id="m", type="message", role="assistant", status="completed", content=[text]
                )
            else:
                out = ResponseFunctionToolCall(
                    type="function_call",
                    call_id="c1",
                    name="tidy",
                    arguments=json.dumps({"what": "it's"}),
                    id="f1",
                    status="completed",
                )
            return ModelResponse(output=[out], usage=Usage(), response_id=None)

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    return {"Agent": Agent, "Runner": Runner, "model": Scripted()}


def langchain_names() -> dict[str, Any]:
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
    from langchain_core.messages import AIMessage
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.prebuilt import create_react_agent
    from langgraph.types import Command

    class FakeToolModel(FakeMessagesListChatModel):
        def bind_tools(self, tools, **kwargs):
            return self

    call = {"name": "tidy", "args": {"what": "it's"}, "id": "c1", "type": "tool_call"}
    model = FakeToolModel(
        responses=[AIMessage(content="", tool_calls=[call]), AIMessage(content="done")]
    )
    return {
        "create_react_agent": create_react_agent,
        "Command": Command,
        "model": model,
        "saver": InMemorySaver(),
    }


def llm_names() -> dict[str, Any]:
    import llm

    class Scripted(llm.Model):
        model_id = "docs-scripted"
        supports_tools = True

        def execute(self, prompt, stream, response, conversation):
            if prompt.tool_results:
                yield prompt.tool_results[0].output
                return
            response.add_tool_call(llm.ToolCall(name="tidy", arguments={"what": "it's"}))
            yield ""

    return {"model": Scripted()}


NAMES = {
    "pydantic-ai": pydantic_ai_names,
    "openai-agents": openai_agents_names,
    "langchain": langchain_names,
    "llm": llm_names,
}


@pytest.mark.filterwarnings("ignore:create_react_agent has been moved")
@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_the_page_runs_with_approval(framework, tmp_path: Path, monkeypatch):
    project, config = tmp_path / "project", tmp_path / "config"
    (project / ".tooldrop" / "tools").mkdir(parents=True)
    (config / "tools").mkdir(parents=True)
    marker = tmp_path / "tidied"
    (config / "tools" / "tidy.md").write_text(TOOL.format(marker=marker))
    monkeypatch.chdir(project)
    monkeypatch.setenv("TOOLDROP_CONFIG_DIR", str(config))
    asked: list[tuple[Any, ...]] = []

    def confirm(*shown: Any) -> bool:
        assert marker.exists() is False, "ran before the person said yes"
        asked.append(shown)
        return True

    namespace: dict[str, Any] = {**NAMES[framework](), "confirm": confirm}
    for code in page_blocks("glue", framework) + page_blocks("run", framework):
        exec(compile(code, f"{PAGE}:{framework}", "exec"), namespace)
    assert len(asked) == 1
    assert marker.read_text() == "it's"
    if framework != "openai-agents":  # the SDK's approval item carries name and arguments only
        [(shown,)] = asked  # llm's ask= gets the PendingCall; the others its preview
        preview = getattr(shown, "preview", shown)
        assert "printf '%s' 'it'\\''s'" in preview
