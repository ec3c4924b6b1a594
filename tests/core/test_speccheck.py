"""The core checks every tool a loader produces: a bad name or schema is a problem on its file
at load time, never a raw validator message at call time; and read_only follows approval."""

from __future__ import annotations

import pytest

from tooldrop import Origin, ToolSpec


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"name": "Bad Name!"}, "name", "'Bad Name!' is not a valid tool name"),
        ({"name": ".hidden"}, "name", "'.hidden' is not a valid tool name"),
        ({"name": "x" * 129}, "name", "at most 128 characters"),
        (
            {"input_schema": {"type": "nonsense"}},
            "input_schema",
            "must describe an object (type \"object\"), not 'nonsense'",
        ),
        (
            {"input_schema": {"type": "object", "properties": {"n": {"type": "strin"}}}},
            "input_schema",
            "properties.n: type 'strin' is not a JSON Schema type",
        ),
        (
            {"input_schema": {"type": "object", "properties": {"n": "string"}}},
            "input_schema",
            "properties.n must be a schema (an object or a boolean)",
        ),
        (
            {"input_schema": {"type": "object", "properties": []}},
            "input_schema",
            "properties must map parameter names to schemas",
        ),
        (
            {"input_schema": {"type": "object", "required": "n"}},
            "input_schema",
            "required must be a list of parameter names",
        ),
    ],
)
def test_a_loader_s_bad_tool_is_a_problem_on_its_file(
    make_host, project, tool_writer, data, field, message
):
    folder = project / ".tooldrop" / "tools"
    path = tool_writer(folder, "bad.json", **{"name": "bad_one", **data})
    tool_writer(folder, "good.json", name="good_one")
    host = make_host()
    assert [t.name for t in host.all_tools()] == ["good_one"]  # the others still load
    [problem] = [p for p in host.problems() if p.path == path]
    assert (problem.line, problem.field, problem.severity) == (1, field, "error")
    assert message in problem.message
    # and a call names no raw validator error: the tool is simply not there
    result = host.call(data.get("name", "bad_one"), {})
    assert result.is_error and "Unknown tool" in result.text


def test_names_and_schemas_every_format_uses_still_load(make_host, project, tool_writer):
    folder = project / ".tooldrop" / "tools"
    tool_writer(folder, "a.json", name="k8s-pods.v2")
    schema = {"type": "object", "properties": {"a": True, "b": {"type": ["string", "null"]}}}
    tool_writer(folder, "b.json", name="B_2", input_schema=schema)
    assert sorted(t.name for t in make_host().all_tools()) == ["B_2", "k8s-pods.v2"]


@pytest.mark.parametrize(
    ("approval", "given", "expected"),
    [
        ("never", None, True),
        ("never", False, False),
        ("always", None, False),
        ("always", True, True),
    ],
)
def test_a_spec_s_read_only_defaults_to_approval_never(approval, given, expected):
    extra = {} if given is None else {"read_only": given}
    spec = ToolSpec(
        name="t",
        description="d",
        input_schema={"type": "object"},
        approval=approval,
        origin=Origin(source="make", scope="plugin"),
        runner="shell",
        **extra,
    )
    assert spec.read_only is expected
