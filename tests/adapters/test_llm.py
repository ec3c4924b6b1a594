"""llm: a real chain with a fake llm.Model; approval through ask= / CancelToolCall; the plugin
registered through llm's own register_tools hook."""

from __future__ import annotations

import pytest

llm = pytest.importorskip("llm")

from tooldrop_adapters.llm import Tooldrop

from .conftest import NASTY


class Scripted(llm.Model):
    """Calls the scripted tools, then answers with what they returned."""

    model_id = "tooldrop-scripted"
    supports_tools = True

    def __init__(self, *calls: tuple[str, dict]) -> None:
        self.calls = calls
        self.tools: list[llm.Tool] = []

    def execute(self, prompt, stream, response, conversation):
        self.tools = list(prompt.tools)
        if prompt.tool_results:
            yield " | ".join(f"{r.name}={r.output}" for r in prompt.tool_results)
            return
        for i, (name, args) in enumerate(self.calls):
            response.add_tool_call(llm.ToolCall(name=name, arguments=args, tool_call_id=f"c{i}"))
        yield ""


def chain(host, *calls, **options):
    model = Scripted(*calls)
    options.setdefault("ask", lambda pending: None)
    text = model.chain("go", tools=[Tooldrop(host=host, **options)]).text()
    return text, model


def test_markdown_and_python_tools_are_called(host):
    text, _ = chain(host, ("greet", {"who": "Ann"}), ("custom__count", {"text": "a b c"}))
    assert text.endswith("greet=EXIT_CODE: 0\nHello, Ann | custom__count=3")


def test_schemas_stay_as_tooldrop_exports_them(host):
    _, model = chain(host, ("greet", {"who": "x"}))
    exported = {d["function"]["name"]: d["function"] for d in host.export("openai")}
    tools = {t.name: t for t in model.tools}
    assert set(tools) == set(exported)
    for name, tool in tools.items():
        assert tool.input_schema == exported[name]["parameters"], name


def test_ask_yes_runs_exactly_the_shown_script(host, place):
    shown = []

    def ask(pending):
        shown.append(pending.script)
        return True

    text, _ = chain(host, ("danger", {"word": NASTY}), ask=ask)
    assert shown == [host.render("danger", {"word": NASTY})]
    assert place.danger_ran() == NASTY
    assert text.endswith(f"danger=EXIT_CODE: 0\nwrote {NASTY}")


def test_ask_no_runs_nothing(host, place):
    text, _ = chain(host, ("danger", {"word": "x"}), ask=lambda pending: False)
    assert place.danger_ran() is None
    assert "Tool call denied: the user declined" in text


def test_no_one_to_ask_cancels_with_the_reason(host, place):
    text, _ = chain(host, ("danger", {"word": "x"}))
    assert place.danger_ran() is None
    assert "no one to ask" in text and "approval is always" in text


def test_a_failing_tool_reaches_the_error_path(host):
    text, _ = chain(host, ("custom__explode", {"reason": "disk on fire"}))
    assert "custom__explode=Error: " in text and "disk on fire" in text


def test_an_invalid_argument_reaches_the_error_path(host):
    text, _ = chain(host, ("greet", {"who": 5}))
    assert 'greet=Error: ⚒ Parameter "who" has wrong type' in text


def test_errors_as_text(host):
    text, _ = chain(host, ("greet", {"who": 5}), errors="text")
    assert 'greet=⚒ Parameter "who" has wrong type' in text


def test_the_installed_plugin_registers_the_toolbox_through_llms_hook():
    """llm loads the ``llm`` entry point of the installed distribution (`llm install`)."""
    from llm.plugins import pm

    import llm_tools_tooldrop

    assert llm.get_tools()["Tooldrop"] is Tooldrop
    assert pm.is_registered(llm_tools_tooldrop)
    assert {p["name"] for p in llm.get_plugins()} >= {"llm-tools-tooldrop"}
