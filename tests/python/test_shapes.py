"""Every shape a tool file's ``default`` may take loads from a real personal dir and runs."""

from __future__ import annotations

import asyncio
import hashlib
import json

import pytest


def test_a_dict_tool(dirs, host, yes):
    dirs.personal(
        "weather.py",
        """
        def execute(args, cancel):
            return f"sunny in {args['city']}"

        default = {
            "name": "get_weather",
            "description": "Get the current weather for a city",
            "inputSchema": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
            "execute": execute,
        }
        """,
    )
    assert [t.name for t in host.tools()] == ["custom__get_weather"]
    result = host.call("custom__get_weather", {"city": "Oslo"}, ask=yes)
    assert (result.text, result.is_error) == ("sunny in Oslo", False)


def test_a_tooldrop_tool_object(dirs, host, yes):
    dirs.personal(
        "echo.py",
        """
        from tooldrop import Tool

        default = Tool(
            name="echo",
            description="Echo the text back",
            input_schema={"properties": {"text": {"type": "string"}}, "required": ["text"]},
            execute=lambda args: args["text"],
        )
        """,
    )
    assert host.call("custom__echo", {"text": "héllo"}, ask=yes).text == "héllo"


def test_a_list_of_tools(dirs, host, yes):
    dirs.personal(
        "math.py",
        """
        number = {"type": "number"}
        schema = {"type": "object", "properties": {"a": number, "b": number}}
        default = [
            {"name": "add", "description": "Add", "inputSchema": schema,
             "execute": lambda args: str(args["a"] + args["b"])},
            {"name": "sub", "description": "Subtract", "parameters": schema,
             "execute": lambda args: str(args["a"] - args["b"])},
        ]
        """,
    )
    assert [t.name for t in host.tools()] == ["custom__add", "custom__sub"]
    assert host.call("custom__add", {"a": 2, "b": 3}, ask=yes).text == "5"
    assert host.call("custom__sub", {"a": 2, "b": 3}, ask=yes).text == "-1"


def test_a_sync_factory(dirs, host, yes):
    dirs.personal(
        "factory.py",
        """
        def default():
            greeting = "hello"  # state a factory sets up once, at load
            return [
                {"name": "greet", "description": "Greet",
                 "execute": lambda args: f"{greeting} {args.get('who', 'you')}",
                 "inputSchema": {"properties": {"who": {"type": "string"}}}},
            ]
        """,
    )
    assert host.call("custom__greet", {"who": "Ann"}, ask=yes).text == "hello Ann"


def test_an_async_factory(dirs, host, yes):
    dirs.personal(
        "afactory.py",
        """
        import asyncio

        async def default():
            await asyncio.sleep(0)
            return {"name": "answer", "description": "The answer", "execute": lambda args: 42}
        """,
    )
    assert host.call("custom__answer", {}, ask=yes).text == "42"


def test_an_async_factory_loads_when_an_event_loop_is_running(dirs, host, yes):
    dirs.personal(
        "afactory.py",
        """
        async def default():
            return {"name": "inside", "description": "Loaded in a loop", "execute": lambda a: "ok"}
        """,
    )

    async def main():
        return [t.name for t in host.tools()]  # discovery happens inside a running loop

    assert asyncio.run(main()) == ["custom__inside"]


def test_a_decorated_function(dirs, host, yes):
    dirs.personal(
        "count.py",
        """
        from tooldrop import tool

        @tool(approval="never", read_only=True)
        def word_count(text: str, unique: bool = False) -> int:
            '''Count the words in a text.

            Args:
                text: The text to count.
                unique: Count each distinct word once.
            '''
            words = text.split()
            return len(set(words) if unique else words)

        default = word_count
        """,
    )
    spec = host.get("custom__word_count")
    assert spec.description == "Count the words in a text."
    assert spec.input_schema["properties"]["unique"] == {
        "type": "boolean",
        "description": "Count each distinct word once.",
        "default": False,
    }
    assert spec.input_schema["required"] == ["text"]
    assert (spec.approval, spec.read_only) == ("never", True)
    assert host.call("custom__word_count", {"text": "a b a"}).text == "3"
    assert host.call("custom__word_count", {"text": "a b a", "unique": True}).text == "2"


def test_a_decorated_async_function_and_a_bare_decorator(dirs, host, yes):
    dirs.personal(
        "async_tool.py",
        """
        import asyncio
        from tooldrop import tool

        @tool
        async def shout(text: str) -> str:
            '''Shout a text.'''
            await asyncio.sleep(0)
            return text.upper()

        default = [shout]
        """,
    )
    assert host.call("custom__shout", {"text": "hey"}, ask=yes).text == "HEY"


def test_the_decorated_function_stays_a_plain_function(dirs, host):
    path = dirs.personal(
        "plain.py",
        """
        from tooldrop import tool

        @tool
        def double(n: int) -> int:
            '''Double a number.'''
            return n * 2

        assert double(21) == 42  # still callable as itself, at import time too
        default = double
        """,
    )
    assert host.problems() == []
    assert host.get("custom__double").origin.path == path


def test_a_dict_tool_whose_execute_has_a_typeddict_args_annotation(dirs, host, yes):
    dirs.personal(
        "typed.py",
        """
        from __future__ import annotations
        from typing import TypedDict, NotRequired

        class Args(TypedDict):
            '''Arguments.

            Attributes:
                city: The city.
            '''
            city: str
            days: NotRequired[int]

        def execute(args: Args, cancel) -> str:
            return f"{args['city']} x{args.get('days', 1)}"

        default = {"name": "forecast", "description": "Forecast", "execute": execute}
        """,
    )
    spec = host.get("custom__forecast")
    assert spec.input_schema == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "The city."},
            "days": {"type": "integer"},
        },
        "required": ["city"],
        "additionalProperties": False,
    }
    assert host.call("custom__forecast", {"city": "Rome", "days": 2}, ask=yes).text == "Rome x2"


def test_a_dict_tool_without_a_schema_accepts_any_object(dirs, host, yes):
    dirs.personal(
        "anything.py",
        """
        default = {"name": "dump", "description": "Dump args", "execute": lambda args: args}
        """,
    )
    assert host.get("custom__dump").input_schema == {"type": "object", "properties": {}}
    result = host.call("custom__dump", {"x": [1, 2]}, ask=yes)
    assert json.loads(result.text) == {"x": [1, 2]}


def test_copse_spellings_of_the_optional_keys(dirs, host):
    dirs.personal(
        "camel.py",
        """
        default = {"name": "camel", "description": "Camel case keys",
                   "execute": lambda a: "", "readOnly": True, "requiresApproval": True,
                   "timeoutMs": 1234, "approval": "destructive"}
        """,
    )
    spec = host.get("custom__camel")
    assert (spec.read_only, spec.requires_approval, spec.timeout_ms, spec.approval) == (
        True,
        True,
        1234,
        "destructive",
    )


def test_names_are_trimmed_and_the_prefix_is_the_hosts_choice(dirs, make_host):
    dirs.personal(
        "t.py", 'default = {"name": "  spaced ", "description": " d ", "execute": lambda a: ""}'
    )
    assert [t.name for t in make_host().tools()] == ["custom__spaced"]
    assert [t.name for t in make_host(name_prefixes={"python": "my_"}).tools()] == ["my_spaced"]
    bare = make_host(name_prefixes={}).tools()
    assert [(t.name, t.description) for t in bare] == [("spaced", "d")]


def test_origin_names_the_file_its_line_and_the_hash_of_its_bytes(dirs, host):
    path = dirs.personal(
        "where.py",
        """
        import os

        default = [
            {"name": "first", "description": "d", "execute": lambda a: ""},
            {"name": "second", "description": "d", "execute": lambda a: ""},
        ]
        """,
    )
    first, second = host.tools()
    assert first.origin.source == second.origin.source == "python"
    assert first.origin.scope == "personal"
    assert first.origin.path == path
    assert (first.origin.line, second.origin.line) == (4, 5)
    assert first.origin.content_hash == hashlib.sha256(path.read_bytes()).hexdigest()
    assert first.runner == "python"


def test_tools_from_a_plugin_scope_dir_load_too(dirs, make_host, yes):
    from tooldrop import ToolDir, hookimpl

    shared = dirs.root / "team-tools"
    (shared).mkdir()
    (shared / "team.py").write_text(
        'default = {"name": "team", "description": "d", "execute": lambda a: "team"}\n'
    )

    class TeamDirs:
        @hookimpl
        def tooldrop_tool_dirs(self, host):
            return [ToolDir(path=shared, scope="plugin")]

    host = make_host(TeamDirs())
    assert host.get("custom__team").origin.scope == "plugin"
    assert host.call("custom__team", {}, ask=yes).text == "team"


@pytest.mark.parametrize("suffix", [".pyc", ".pyw", ".txt", ".py.bak"])
def test_only_py_files_are_claimed(dirs, host, suffix):
    dirs.personal(f"x{suffix}", "raise SystemExit('must not run')\n")
    assert host.tools() == []
    assert host.problems() == []
