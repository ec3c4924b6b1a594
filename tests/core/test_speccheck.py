"""The core checks every tool a loader produces: a bad name or schema is a problem on its file
at load time, never a raw validator message at call time; and read_only follows approval."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldrop import Origin, ToolSpec
from tooldrop.host._speccheck import _TYPES, _schema_problem


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


def _reference_type_problem(schema: Mapping[str, Any], where: str) -> str | None:
    """The check as first written, without the fast path: the judge of the fast one."""
    declared = schema.get("type")
    if declared is None:
        return None
    names = declared if isinstance(declared, list) else [declared]
    unknown = [n for n in names if not isinstance(n, str) or n not in _TYPES]
    if unknown:
        shown = ", ".join(repr(n) for n in unknown)
        return f"{where}type {shown} is not a JSON Schema type ({', '.join(sorted(_TYPES))})"
    return None


def _reference_properties_problem(properties: Mapping[str, Any]) -> str | None:
    for name, prop in properties.items():
        if isinstance(prop, bool):
            continue
        if not isinstance(prop, Mapping):
            return f"properties.{name} must be a schema (an object or a boolean)"
        if (problem := _reference_type_problem(prop, f"properties.{name}: ")) is not None:
            return problem
    return None


class _Frozen(Mapping[str, Any]):
    """A mapping that is not a dict (the fast path must leave it to the full check)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


class _Str(str):
    """A str subclass: not the exact type the fast path trusts."""


_TYPE_VALUES = st.one_of(
    st.none(),
    st.sampled_from([*sorted(_TYPES), "strin", "", "Object"]),
    st.builds(_Str, st.sampled_from(["string", "nonsense"])),
    st.lists(st.sampled_from(["string", "null", "nonsense", 3]), max_size=3),
    st.integers(),
    st.dictionaries(st.just("x"), st.just(1), max_size=1),
)
_PROPS = st.one_of(
    st.booleans(),
    st.just("string"),
    st.none(),
    st.lists(st.integers(), max_size=2),
    st.builds(
        lambda t, extra: {**({"type": t} if t is not None else {}), **extra},
        _TYPE_VALUES,
        st.dictionaries(st.sampled_from(["description", "enum"]), st.just("x"), max_size=2),
    ),
).flatmap(lambda p: st.sampled_from([p, _Frozen(p)]) if isinstance(p, dict) else st.just(p))


@given(st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), _PROPS, max_size=4))
def test_the_fast_path_answers_as_the_full_check_does(properties):
    schema = {"type": "object", "properties": properties}
    assert _schema_problem(schema) == _reference_properties_problem(properties)
