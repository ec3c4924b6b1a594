"""Export formats are a hook: a plugin adds one (or replaces a built-in one) and every
surface that exports (``host.export``, ``tooldrop schema``) offers it with the core's checks."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import tooldrop
from tooldrop import Exporter, NameRule, ToolHost
from tooldrop.cli import build_cli, load_plugin_set


def _define(spec, schema, state):
    state["count"] = state.get("count", 0) + 1
    schema["x-seen"] = state["count"]  # a fresh copy: the tool's own schema stays as it was
    return {"toolSpec": {"name": spec.name, "inputSchema": {"json": schema}}}, "a note"


BEDROCK = Exporter(
    name="bedrock",
    label="Amazon Bedrock Converse",
    name_rule=NameRule(r"[a-z_]{1,10}", "lowercase letters and _, at most 10"),
    define=_define,
)


class Bedrock:
    @tooldrop.hookimpl
    def tooldrop_exporters(self):
        return [BEDROCK]


class OpenAIOverride:
    @tooldrop.hookimpl
    def tooldrop_exporters(self):
        def define(spec, schema, state):
            return {"custom": spec.name}, ""

        builtin = next(e for e in tooldrop.BUILTIN_EXPORTERS if e.name == "openai")
        return [Exporter(name="openai", label="mine", name_rule=builtin.name_rule, define=define)]


class Broken:
    @tooldrop.hookimpl
    def tooldrop_exporters(self):
        raise RuntimeError("no formats today")


def tool(name):
    return tooldrop.Tool(name=name, description="d", execute=lambda args: "", approval="never")


class Tools:
    @tooldrop.hookimpl
    def tooldrop_register_tools(self, register):
        register(tool("alpha"))
        register(tool("much_too_long_name"))


@pytest.fixture
def host_with(tmp_path):
    def make(*plugins):
        return ToolHost(project_dir=tmp_path, plugins=[Tools(), *plugins])

    return make


def test_a_plugin_format_gets_the_core_s_checks(host_with):
    host = host_with(Bedrock())
    assert list(host.exporters()) == [*tooldrop.EXPORT_FORMATS, "bedrock"]
    out = host.export("bedrock")
    assert out.format == "bedrock"
    schema = {**host.get("alpha").input_schema, "x-seen": 1}
    assert out == [{"toolSpec": {"name": "alpha", "inputSchema": {"json": schema}}}]
    assert "x-seen" not in host.get("alpha").input_schema
    [note, left_out] = out.problems  # in the order of the tools
    assert (
        'tool "much_too_long_name" is left out of the Amazon Bedrock Converse export'
        in left_out.message
    )
    assert "lowercase letters and _, at most 10" in left_out.message
    assert (note.severity, note.message) == ("info", "a note")


def test_without_the_plugin_the_format_is_unknown(host_with):
    with pytest.raises(
        ValueError, match="unknown export format 'bedrock'; expected one of: openai"
    ):
        host_with().export("bedrock")


def test_a_plugin_may_replace_a_built_in_format(host_with):
    assert host_with(OpenAIOverride()).export("openai") == [
        {"custom": "alpha"},
        {"custom": "much_too_long_name"},
    ]
    assert host_with().export("openai")[0]["type"] == "function"


def test_a_broken_exporter_plugin_is_a_problem_and_the_built_ins_still_work(host_with):
    host = host_with(Broken(), Bedrock())
    assert host.export("anthropic")[0]["name"] == "alpha"
    messages = [p.message for p in host.problems()]
    assert "tooldrop_exporters failed: RuntimeError: no formats today" in messages


def test_the_cli_offers_plugin_formats(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    group = build_cli(load_plugin_set([tooldrop.approval, Tools(), Bedrock()]))

    def invoke(*args):
        return CliRunner().invoke(group, ["--project", str(tmp_path), *args])

    result = invoke("schema", "--format", "bedrock")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["toolSpec"]["name"] == "alpha"
    result = invoke("schema", "--format", "nope")
    assert result.exit_code == 2
    expected = "'nope' is not one of openai, openai-responses, anthropic, gemini, mcp, bedrock"
    assert expected in result.output
