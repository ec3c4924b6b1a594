"""Bad input on the wire never kills the server; the same connection keeps working.

Found out with SDK 2.3.0: the SDK's stdio transport turns a line that is not a JSON-RPC
message into an exception item and its dispatcher drops it without a word. ``tooldrop serve``
answers such a line with a JSON-RPC error (``id: null``: -32700 for text that is not JSON,
-32600 for JSON that is not a message, with the request's id when it can still be read, even
from a line whose 5,000-digit number the SDK's parser refuses),
which the SDK client ignores as a response to no request of its own; the connection stays
open and the next request is answered on it.
"""

from __future__ import annotations

import json
import os

import anyio
import pytest

# Each test starts a real server process: seconds of real time.
pytestmark = [pytest.mark.anyio, pytest.mark.slow]


async def wait_for_line(server, predicate, timeout: float = 30) -> dict:
    with anyio.fail_after(timeout):
        while True:
            for line in list(server.stdout_lines):
                message = json.loads(line)
                if predicate(message):
                    return message
            await anyio.sleep(0.05)


def error_for(request_id):
    return lambda m: m.get("id") == request_id and "error" in m


@pytest.mark.parametrize(
    ("garbage", "code"),
    [
        (b"this is not json\n", -32700),
        (b'{"jsonrpc": "2.0", "id": 1, "method": \n', -32700),
        (b"\xff\xfe\x00 binary junk\n", -32700),
        (b"[1, 2, 3]\n", -32600),
        (b'{"jsonrpc": "1.0", "hello": "world"}\n', -32600),
        (b'"just a string"\n', -32600),
    ],
)
async def test_a_malformed_line_gets_an_error_and_the_connection_goes_on(
    connect, text_of, tools, garbage, code
):
    async with connect(tools) as server:
        await server.send_raw(garbage)
        error = await wait_for_line(server, error_for(None))
        assert error["error"]["code"] == code
        # The same connection, the same session: the next request is answered.
        result = await server.session.call_tool("custom__echo", {"text": "after garbage"})
        assert text_of(result) == "after garbage"
        assert server.process.returncode is None


async def test_an_unknown_method_is_an_error_response_not_a_crash(connect, text_of, tools):
    async with connect(tools) as server:
        await server.send_raw(b'{"jsonrpc": "2.0", "id": "raw-1", "method": "tools/explode"}\n')
        error = await wait_for_line(server, error_for("raw-1"))
        assert error["error"]["code"] == -32601
        notification = b'{"jsonrpc": "2.0", "method": "notifications/whatever", "params": {}}\n'
        await server.send_raw(notification)
        result = await server.session.call_tool("custom__echo", {"text": "still here"})
        assert text_of(result) == "still here"


@pytest.mark.parametrize(
    ("request_line", "code"),
    [
        (
            b'{"jsonrpc": "2.0", "id": "raw-2", "method": "tools/call", '
            b'"params": {"name": "custom__echo", "arguments": "not an object"}}\n',
            -32602,
        ),
        (b'{"jsonrpc": "2.0", "id": "raw-2", "method": "tools/call"}\n', -32602),
        (
            b'{"jsonrpc": "2.0", "id": "raw-2", "method": "tools/call", "params": {"name": 7}}\n',
            -32602,
        ),
        # Not a JSON-RPC request at all (params must be an object), but its id can be read.
        (b'{"jsonrpc": "2.0", "id": "raw-2", "method": "tools/list", "params": []}\n', -32600),
    ],
)
async def test_a_request_with_malformed_params_is_refused_and_the_server_lives(
    connect, text_of, tools, request_line, code
):
    async with connect(tools) as server:
        await server.send_raw(request_line)
        error = await wait_for_line(server, error_for("raw-2"))
        assert error["error"]["code"] == code
        result = await server.session.call_tool("custom__echo", {"text": "fine"})
        assert text_of(result) == "fine"


async def test_a_flood_of_garbage_between_real_calls(connect, text_of, tools):
    async with connect(tools) as server:
        for index in range(20):
            await server.send_raw(b"}{ garbage %d\n" % index)
            args = {"text": f"n{index}", "delay": 0}
            result = await server.session.call_tool("custom__echo", args)
            assert text_of(result) == f"n{index}"
        errors = [json.loads(line) for line in server.stdout_lines if '"id":null' in line]
        assert len(errors) == 20


@pytest.mark.parametrize(
    ("request_line", "request_id"),
    [
        # Valid JSON the SDK's parser refuses: "number out of range". The id is still read.
        (
            b'{"jsonrpc": "2.0", "id": 41, "method": "tools/call", "params": '
            b'{"name": "custom__echo", "arguments": {"text": ' + b"9" * 5000 + b"}}}\n",
            41,
        ),
        (
            b'{"id": "first", "jsonrpc": "2.0", "method": "x", "params": [-'
            + b"1" * 9000
            + b"]}\n",
            "first",
        ),
    ],
)
async def test_a_huge_number_is_answered_with_the_request_id(
    connect, text_of, tools, request_line, request_id
):
    async with connect(tools) as server:
        await server.send_raw(request_line)
        error = await wait_for_line(server, error_for(request_id))
        assert error["error"]["code"] == -32700
        result = await server.session.call_tool("custom__echo", {"text": "after"})
        assert text_of(result) == "after"


async def test_a_huge_number_as_the_id_itself_gets_a_null_id(connect, text_of, tools):
    async with connect(tools) as server:
        await server.send_raw(b'{"jsonrpc": "2.0", "id": ' + b"7" * 5000 + b', "method": "x"}\n')
        error = await wait_for_line(server, error_for(None))
        assert error["error"]["code"] == -32700
        result = await server.session.call_tool("custom__echo", {"text": "after"})
        assert text_of(result) == "after"


async def test_a_fifo_project_config_does_not_hang_serve(connect, text_of, tools):
    # A cloned repository decides what .tooldrop/config.yaml is; a FIFO blocked open() forever.
    config = tools.project / ".tooldrop" / "config.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(config)
    async with connect(tools) as server:
        with anyio.fail_after(60):
            listed = await server.session.list_tools()
            result = await server.session.call_tool("greet", {"name": "fifo"})
    assert "greet" in {tool.name for tool in listed.tools}
    assert text_of(result).endswith("hello, fifo")
    assert "not a regular file" in server.stderr()
