"""What an attacker tries against ``tooldrop serve --http``: no token, a wrong one, a browser
page (forged Origin, rebound Host), oversized requests, flooding calls, an open bind."""

from __future__ import annotations

import json
import os

import anyio
import pytest
from mcp.shared.exceptions import MCPError

# Each test starts a real server process: seconds of real time.
pytestmark = [pytest.mark.anyio, pytest.mark.slow]

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def token_file(workspace, text: str):
    path = workspace.root / "tokens"
    path.write_text(text)
    path.chmod(0o600)
    return path


async def post(http, url: str, body: object, **headers: str):
    async with http.client(**MCP_HEADERS, **headers) as client:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        return await client.post(url, content=data)


async def test_tokens_are_required_and_compared(http, tools, text_of):
    tokens = token_file(tools, f"# the team\nalice: {http.TOKEN}\nbob-ci-token-0123456789abcdef\n")
    async with http.server(tools, "--token-file", str(tokens)) as server:
        missing = await post(http, server.url, INITIALIZE)
        wrong = await post(http, server.url, INITIALIZE, Authorization=f"Bearer {http.TOKEN}x")
        prefix = await post(http, server.url, INITIALIZE, Authorization=f"Bearer {http.TOKEN[:-1]}")
        basic = await post(http, server.url, INITIALIZE, Authorization=f"Basic {http.TOKEN}")
        async with http.session(server.url, http.TOKEN) as session:
            result = await session.call_tool("greet", {"name": "alice"})
        async with http.session(server.url, "bob-ci-token-0123456789abcdef") as session:
            await session.call_tool("greet", {"name": "bob"})
        stderr = server.stderr()
    for refused in (missing, wrong, prefix, basic):
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"].startswith('Bearer error="invalid_token"')
        assert refused.json()["error"] == "invalid_token"
    assert text_of(result) == "EXIT_CODE: 0\nhello, alice"
    # The log names who called (the id), never the secret.
    assert "call token=alice " in stderr
    assert "call token=sha256:" in stderr  # bob's line has no id: its fingerprint stands in
    assert http.TOKEN not in stderr and "bob-ci-token" not in stderr
    assert "(bearer tokens)" in stderr


async def test_a_session_belongs_to_the_token_that_opened_it(http, tools):
    tokens = token_file(tools, f"alice: {http.TOKEN}\nbob: bob-0123456789abcdef-secret\n")
    async with http.server(tools, "--token-file", str(tokens)) as server:
        opened = await post(http, server.url, INITIALIZE, Authorization=f"Bearer {http.TOKEN}")
        session_id = opened.headers["mcp-session-id"]
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        stolen = await post(
            http, server.url, listing, Authorization="Bearer bob-0123456789abcdef-secret",
            **{"Mcp-Session-Id": session_id, "Mcp-Protocol-Version": "2025-06-18"},
        )  # fmt: skip
    assert opened.status_code == 200
    assert stolen.status_code == 404


async def test_the_token_can_come_from_the_environment(http, tools, text_of):
    env = {**tools.env(), "TOOLDROP_SERVE_TOKENS": f"ci: {http.TOKEN}"}
    async with http.server(tools, env=env) as server:
        assert (await post(http, server.url, INITIALIZE)).status_code == 401
        async with http.session(server.url, http.TOKEN) as session:
            result = await session.call_tool("greet", {"name": "ci"})
        stderr = server.stderr()
    assert text_of(result) == "EXIT_CODE: 0\nhello, ci"
    assert "call token=ci " in stderr


@pytest.mark.parametrize("address", ["0.0.0.0:0", "[::]:0", "192.0.2.1:0", "example.com:0"])
async def test_no_listening_beyond_loopback_without_a_token(tools, address):
    done = tools.tooldrop("serve", "--http", address)
    assert done.returncode == 2
    assert "without authentication" in done.stderr
    assert "--token-file" in done.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("short\n", "tokens, line 1: token is 5 characters; use at least 16"),
        ("# only a comment\n", "tokens: no tokens in the token file"),
        ("a: 0123456789abcdef0\na: 0123456789abcdef1\n", "tokens, line 2: id 'a' is already used"),
        ("two words in-a-token-0123456789\n", "tokens, line 1: a token cannot contain spaces"),
    ],
)
async def test_a_bad_token_file_is_refused_naming_file_and_line(tools, text, message):
    path = token_file(tools, text)
    done = tools.tooldrop("serve", "--http", "127.0.0.1:0", "--token-file", str(path))
    assert done.returncode == 2
    assert f"{path.parent}/{message}" in done.stderr


async def test_http_options_need_http(tools):
    done = tools.tooldrop("serve", "--stateless")
    assert done.returncode == 2
    assert "--stateless applies to --http only" in done.stderr


async def test_browser_pages_are_refused(http, tools):
    async with http.server(tools) as server:
        port = server.url.split(":")[2].split("/")[0]
        forged = await post(http, server.url, INITIALIZE, Origin="http://evil.example")
        local = await post(http, server.url, INITIALIZE, Origin=f"http://localhost:{port}")
        rebound = await post(http, server.url, INITIALIZE, Host=f"evil.example:{port}")
        suffix = await post(http, server.url, INITIALIZE, Host=f"localhost.evil.example:{port}")
        plain = await post(http, server.url, INITIALIZE)
        preflight = await _options(http, server.url, "http://evil.example")
    assert forged.status_code == 403
    assert forged.json()["error"]["message"].startswith("Cross-origin requests are not allowed")
    assert local.status_code == 403  # no origin is allowed unless configured
    assert rebound.status_code == 421 and suffix.status_code == 421
    assert rebound.json()["error"]["code"] == -32600
    assert plain.status_code == 200
    assert "access-control-allow-origin" not in preflight.headers  # CORS is off


async def test_an_allowed_origin_gets_cors(http, tools):
    origin = "https://console.example"
    async with http.server(tools, "--allow-origin", origin) as server:
        allowed = await post(http, server.url, INITIALIZE, Origin=origin)
        other = await post(http, server.url, INITIALIZE, Origin="https://evil.example")
        preflight = await _options(http, server.url, origin)
    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == origin
    assert "mcp-session-id" in allowed.headers["access-control-expose-headers"].lower()
    assert other.status_code == 403
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == origin


async def _options(http, url: str, origin: str):
    async with http.client() as client:
        return await client.request(
            "OPTIONS", url,
            headers={"Origin": origin, "Access-Control-Request-Method": "POST"},
        )  # fmt: skip


async def test_oversized_requests_are_refused_with_a_json_rpc_error(http, tools, text_of):
    limits = ("--max-body", "20000", "--max-arguments", "1000")
    async with http.server(tools, *limits) as server:
        big = {**INITIALIZE, "params": {**INITIALIZE["params"], "pad": "x" * 30000}}
        declared = await post(http, server.url, big)

        async def chunks():
            for _ in range(30):
                yield b" " * 1000

        async with http.client(**MCP_HEADERS) as client:
            streamed = await client.post(server.url, content=chunks())
        async with http.session(server.url) as session:
            with pytest.raises(MCPError) as refused:
                await session.call_tool("custom__echo", {"text": "y" * 2000})
            fine = await session.call_tool("custom__echo", {"text": "y" * 500, "delay": 0})
    for response in (declared, streamed):
        assert response.status_code == 413
        assert response.json()["error"]["message"] == (
            "Request body too large: this server takes at most 20000 bytes"
        )
    assert refused.value.code == -32602
    assert refused.value.message.startswith("Arguments too large: 20")
    assert text_of(fine) == "y" * 500


async def test_concurrent_calls_over_the_limit_are_refused(http, tools, text_of):
    tools.markdown_tool(
        "hold.md",
        """
        ---
        name: hold
        description: Says it started, then holds its place for a while.
        parameters:
          label: {type: string, required: true}
        approval: never
        ---
        touch started-{{ label }}; sleep 2; echo {{ label }}
        """,
    )
    started = [tools.project / f"started-s{i}" for i in (1, 2)]
    async with (
        http.server(tools, "--calls-per-session", "2") as server,
        http.session(server.url) as session,
    ):
        results: list[str] = []

        async def hold(label: str) -> None:
            results.append(text_of(await session.call_tool("hold", {"label": label})))

        async with anyio.create_task_group() as group:
            group.start_soon(hold, "s1")
            group.start_soon(hold, "s2")
            await http.wait_for(lambda: all(p.exists() for p in started), "both calls to start")
            with pytest.raises(MCPError) as refused:
                await session.call_tool("custom__echo", {"text": "third", "delay": 0})
        after = await session.call_tool("custom__echo", {"text": "room again", "delay": 0})
    assert refused.value.code == -32001
    assert refused.value.message.startswith("Too many calls at once: this session has 2 running")
    assert sorted(results) == ["EXIT_CODE: 0\ns1", "EXIT_CODE: 0\ns2"]
    assert text_of(after) == "room again"


async def test_an_idle_session_expires(http, tools):
    async with http.server(tools, "--session-idle", "1") as server:
        opened = await post(http, server.url, INITIALIZE)
        headers = {"Mcp-Session-Id": opened.headers["mcp-session-id"]}
        headers["Mcp-Protocol-Version"] = "2025-06-18"
        initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert (await post(http, server.url, initialized, **headers)).status_code == 202
        # Asking would keep it alive: wait for the server to say the session ended.
        await http.wait_for(lambda: "session ended" in server.stderr(), "the session to expire")
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        expired = await post(http, server.url, listing, **headers)
    assert expired.status_code == 404
    assert expired.json()["error"]["message"] == "Session not found"


def test_the_token_file_is_never_world_readable_silently(tmp_path):
    from tooldrop_mcp._auth import load_tokens

    path = tmp_path / "tokens"
    path.write_text("0123456789abcdef0123\n")
    os.chmod(path, 0o644)
    tokens, warnings = load_tokens(path, environ={})
    assert len(tokens) == 1
    assert warnings == [f"{path}: readable by other users; `chmod 600` it"]


async def test_a_stateless_client_cannot_dodge_the_per_session_limit(http, tools):
    # No sessions when stateless: a made-up Mcp-Session-Id per call must not count as a new
    # session; the token is what is limited.
    tools.markdown_tool(
        "hold.md",
        "---\nname: hold\ndescription: Holds.\napproval: never\n---\ntouch held; sleep 2\n",
    )
    args = ("--stateless", "--calls-per-session", "1")
    async with http.server(tools, *args) as server, anyio.create_task_group() as group:
        answers: dict[str, object] = {}

        async def call(name: str, session_id: str) -> None:
            body = {"jsonrpc": "2.0", "id": session_id, "method": "tools/call",
                    "params": {"name": name, "arguments": {}}}  # fmt: skip
            headers = {"Mcp-Session-Id": session_id, "Mcp-Protocol-Version": "2025-06-18"}
            answers[session_id] = await post(http, server.url, body, **headers)

        group.start_soon(call, "hold", "forged-1")
        await http.wait_for((tools.project / "held").exists, "the first call to start")
        await call("greet", "forged-2")
        second = answers["forged-2"].text
    assert '"code":-32001' in second
    assert "this session has 1 running (at most 1)" in second
