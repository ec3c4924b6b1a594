"""The 2026-07-28 wire over HTTP: the SDK's ``Client`` on a URL speaks it by default."""

from __future__ import annotations

import pytest
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

# Each test starts a real server process: seconds of real time.
pytestmark = [pytest.mark.anyio, pytest.mark.slow]


async def test_the_2026_wire_is_authenticated_limited_and_audited(http, tools, text_of):
    tokens = tools.root / "tokens"
    tokens.write_text(f"alice: {http.TOKEN}\n")
    tokens.chmod(0o600)
    async with http.server(tools, "--token-file", str(tokens), "--max-arguments", "100") as server:
        async with http.client(http.TOKEN) as authed:
            transport = streamable_http_client(server.url, http_client=authed)
            async with Client(transport, read_timeout_seconds=http.TIMEOUT) as client:
                version = client.session.protocol_version
                listed = {tool.name for tool in (await client.list_tools()).tools}
                ok = await client.call_tool("greet", {"name": "modern"})
                with pytest.raises(Exception, match="Arguments too large"):
                    await client.call_tool("custom__echo", {"text": "z" * 200})
        async with http.client() as anonymous:
            refused = await anonymous.post(server.url, json={"jsonrpc": "2.0", "id": 1,
                                                             "method": "server/discover"},
                                           headers={"Mcp-Protocol-Version": version})  # fmt: skip
        stderr = server.stderr()
    assert version in MODERN_PROTOCOL_VERSIONS
    assert "greet" in listed and "guarded" not in listed
    assert text_of(ok) == "EXIT_CODE: 0\nhello, modern"
    assert refused.status_code == 401
    assert "call token=alice " in stderr and "tool=greet result=ok" in stderr
