"""``tooldrop.Tool``, ``@tooldrop.tool`` and ``tooldrop.to_spec``: one normaliser, every shape."""

from __future__ import annotations

import asyncio
import inspect

import pytest

import tooldrop
from tooldrop import CancelToken, Origin, Tool, ToolDefinitionError, ToolSpec, to_spec, tool

ORIGIN = Origin(source="python", scope="personal")


def fields_of(exc: ToolDefinitionError) -> dict[str, str]:
    return {p.field: p.message for p in exc.problems}


def test_public_names():
    for name in ("Tool", "tool", "to_spec", "ToolDefinitionError"):
        assert name in tooldrop.__all__
    assert issubclass(ToolDefinitionError, tooldrop.ToolDropError)
    assert issubclass(ToolDefinitionError, ValueError)


def test_tool_defaults():
    made = Tool(name="t", description="d", execute=lambda args: "")
    assert made.input_schema == {"type": "object", "properties": {}}
    assert (made.approval, made.read_only, made.requires_approval, made.timeout_ms) == (
        "always",
        False,
        False,
        30_000,
    )


@pytest.mark.parametrize(
    ("approval", "given", "expected"),
    [
        ("never", None, True),  # the markdown rule: never asks, so read-only unless said
        ("never", False, False),
        ("always", None, False),
        ("destructive", None, False),
        ("always", True, True),
    ],
)
def test_read_only_defaults_to_approval_never_in_every_shape(approval, given, expected):
    extra = {} if given is None else {"read_only": given}

    def fn(text: str) -> str:
        """Echo a text."""
        return text

    made = [
        Tool(name="t", description="d", execute=lambda args: "", approval=approval, **extra),
        tool(approval=approval, **extra)(fn).__tooldrop_tool__,
        Tool.from_function(fn, approval=approval, **extra),
    ]
    spec = to_spec(
        {"name": "t", "description": "d", "execute": lambda a: "", "approval": approval, **extra},
        origin=ORIGIN,
    )
    assert [m.read_only for m in made] + [spec.read_only] == [expected] * 4


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"name": "has space"}, "name", "must be letters, digits and underscores only"),
        ({"name": ""}, "name", "must be letters, digits and underscores only, got an empty name"),
        ({"name": "ünï"}, "name", "must be letters, digits and underscores only"),
        ({"name": 3}, "name", "must be a string, got number"),
        ({"description": "  "}, "description", "must not be empty"),
        ({"execute": "print"}, "execute", "must be a function"),
        ({"execute": lambda: 1}, "execute", "must accept the arguments"),
        ({"execute": lambda a, b, c: 1}, "execute", "takes too many parameters"),
        ({"execute": lambda a, *, key: 1}, "execute", "must take its parameters positionally"),
        ({"approval": "sometimes"}, "approval", "must be one of: never, always, destructive"),
        ({"read_only": 1}, "read_only", "must be a boolean (True or False), got number"),
        ({"requires_approval": "yes"}, "requires_approval", "must be a boolean"),
        ({"timeout_ms": 0}, "timeout_ms", "must be between 1 and 300000 milliseconds, got 0"),
        ({"timeout_ms": 300_001}, "timeout_ms", "must be between 1 and 300000"),
        ({"timeout_ms": 1.5}, "timeout_ms", "must be an integer (milliseconds), got number"),
        ({"timeout_ms": True}, "timeout_ms", "must be an integer"),
        ({"input_schema": []}, "input_schema", "must be a JSON Schema (a dict), got array"),
        ({"input_schema": {"type": "string"}}, "input_schema", 'must describe an object ("type"'),
        ({"input_schema": {"properties": []}}, "input_schema", "properties must be an object"),
        (
            {"input_schema": {"properties": {"a": {"type": 5}}}},
            "input_schema",
            "is not a valid JSON Schema",
        ),
        ({"input_schema": {"default": object()}}, "input_schema", "must be plain JSON"),
        ({"input_schema": {"x": float("nan")}}, "input_schema", "must be plain JSON"),
    ],
)
def test_every_field_is_checked(kwargs, field, message):
    data = {"name": "ok", "description": "d", "execute": lambda args: "", **kwargs}
    with pytest.raises(ToolDefinitionError) as caught:
        to_spec(data, origin=ORIGIN)
    assert message in fields_of(caught.value)[field]
    # The class itself refuses the same values (attrs' validator convention).
    with pytest.raises((TypeError, ValueError)):
        Tool(**data)


def test_a_given_schema_is_copied_and_completed():
    schema = {"properties": {"a": {"type": "string"}}}
    made = Tool(name="t", description="d", execute=print, input_schema=schema)
    schema["properties"]["a"]["type"] = "integer"
    assert made.input_schema == {"type": "object", "properties": {"a": {"type": "string"}}}


def test_a_dict_reports_all_its_problems_at_once_as_it_spells_them():
    data = {"name": "a b", "description": "", "execute": 1, "inputSchema": 2, "readOnly": 3}
    with pytest.raises(ToolDefinitionError) as caught:
        to_spec(data, origin=ORIGIN)
    assert list(fields_of(caught.value)) == [
        "name",
        "description",
        "execute",
        "inputSchema",
        "readOnly",
    ]


def test_a_dict_with_a_key_twice_or_unknown():
    data = {
        "name": "t",
        "description": "d",
        "execute": print,
        "input_schema": {},
        "parameters": {},
        "requiresAproval": True,
        1: "x",
    }
    with pytest.raises(ToolDefinitionError) as caught:
        to_spec(data, origin=ORIGIN)
    problems = fields_of(caught.value)
    assert problems["parameters"] == "given twice, as input_schema and as parameters: keep one"
    assert problems["requiresAproval"].startswith("unknown key (did you mean requiresApproval?)")
    assert problems["1"].startswith("unknown key;")


def test_missing_fields_are_required():
    with pytest.raises(ToolDefinitionError) as caught:
        to_spec({}, origin=ORIGIN)
    assert fields_of(caught.value) == {
        "name": "is required",
        "description": "is required",
        "execute": "is required",
    }


def test_values_that_are_not_tools():
    for value, message in [
        (42, "cannot register 'int' as a tool (expected a dict"),
        (print, "cannot register 'builtin_function_or_method' as a tool: decorate it"),
        ([], "cannot register 'list' as a tool"),
    ]:
        with pytest.raises(ToolDefinitionError) as caught:
            to_spec(value, origin=ORIGIN)
        assert str(caught.value).startswith(message)


def test_to_spec_makes_a_python_spec_with_a_two_argument_payload():
    def one(args):
        return args["x"]

    spec = to_spec(
        {"name": "t", "description": "d", "execute": one, "timeoutMs": 5, "approval": "never"},
        origin=ORIGIN,
    )
    assert isinstance(spec, ToolSpec)
    assert (spec.name, spec.runner, spec.timeout_ms, spec.approval) == ("t", "python", 5, "never")
    assert spec.payload({"x": 7}, CancelToken()) == 7
    assert spec.origin.content_hash  # a digest when the origin has none


def test_to_spec_keeps_a_two_argument_execute_as_it_is():
    def two(args, cancel):
        return cancel

    spec = to_spec(Tool(name="t", description="d", execute=two), origin=ORIGIN)
    assert spec.payload is two


def test_to_spec_points_a_registered_tool_at_its_source():
    @tool
    def located() -> str:
        """Here."""
        return ""

    spec = to_spec(located, origin=Origin(source="entrypoint:pack", scope="plugin"))
    assert spec.origin.path is not None
    assert spec.origin.path.name == "test_tool.py"
    assert spec.origin.line == inspect.getsourcelines(located)[1]  # the decorator's line


def test_the_decorator_in_both_spellings():
    @tool
    def bare(x: int) -> int:
        """Bare."""
        return x

    @tool(name="renamed", description="Given.", approval="never", read_only=True, timeout_ms=9)
    def configured(x: int) -> int:
        """Ignored: the description is given."""
        return x

    assert bare(2) == 2 and configured(3) == 3
    made = configured.__tooldrop_tool__
    assert (made.name, made.description, made.approval, made.read_only, made.timeout_ms) == (
        "renamed",
        "Given.",
        "never",
        True,
        9,
    )
    assert bare.__tooldrop_tool__.name == "bare"
    assert to_spec(bare, origin=ORIGIN).name == "bare"


def test_the_decorated_function_gets_keyword_arguments_and_the_token():
    seen = {}

    @tool
    def f(a: int, b: str = "x", *, token: CancelToken) -> str:
        """F."""
        seen.update(a=a, b=b, token=token)
        return "ok"

    token = CancelToken()
    assert to_spec(f, origin=ORIGIN).payload({"a": 1}, token) == "ok"
    assert seen == {"a": 1, "b": "x", "token": token}


def test_an_async_decorated_function_returns_an_awaitable_to_the_runner():
    @tool
    async def f(a: int) -> int:
        """F."""
        return a + 1

    pending = to_spec(f, origin=ORIGIN).payload({"a": 1}, CancelToken())
    assert asyncio.run(pending) == 2


def test_an_explicit_schema_wins_over_the_signature():
    schema = {"type": "object", "properties": {"q": {"type": "string", "maxLength": 3}}}

    @tool(input_schema=schema)
    def f(q):
        """F."""
        return q

    assert f.__tooldrop_tool__.input_schema == schema


def test_an_explicit_schema_also_rescues_types_without_one():
    import socket

    @tool(input_schema={"properties": {"sock": {"type": "string"}}})
    def f(sock: socket.socket) -> str:
        """F."""
        return str(sock)

    assert f.__tooldrop_tool__.input_schema["properties"] == {"sock": {"type": "string"}}


def test_decorator_errors_name_the_field():
    with pytest.raises(ToolDefinitionError) as caught:

        @tool
        def undocumented(x: int) -> int:
            return x

    assert fields_of(caught.value) == {
        "description": "missing: give the function a docstring, or pass description= to @tool"
    }
    with pytest.raises(ToolDefinitionError) as caught:
        tool(lambda x: x, description="anonymous")
    assert "got '<lambda>'" in fields_of(caught.value)["name"]
    with pytest.raises(ToolDefinitionError) as caught:

        @tool(timeout_ms=-1)
        def negative() -> None:
            """N."""

    assert "timeout_ms" in fields_of(caught.value)


def test_from_function_is_the_decorator_without_the_attribute():
    def plain(a: int) -> int:
        """Plain."""
        return a

    made = Tool.from_function(plain, approval="destructive")
    assert made.name == "plain" and made.approval == "destructive"
    assert not hasattr(plain, "__tooldrop_tool__")
