"""``uvicorn --factory tooldrop_mcp.asgi:create_app --workers N``: the documented scale-out on
one machine, run for real; and the factory's refusals."""

from __future__ import annotations

import re
import signal
import subprocess
import sys

import anyio
import pytest

from tooldrop_mcp.asgi import create_app

RUNNING = re.compile(r"Uvicorn running on (http://\S+)")


def test_the_factory_wants_tokens_and_a_known_mode(tmp_path):
    with pytest.raises(RuntimeError, match="no tokens; set TOOLDROP_SERVE_TOKEN_FILE"):
        create_app({"TOOLDROP_PROJECT": str(tmp_path)})
    env = {"TOOLDROP_SERVE_TOKENS": "0123456789abcdef0", "TOOLDROP_MODE": "sometimes"}
    with pytest.raises(RuntimeError, match="TOOLDROP_MODE='sometimes' is not one of"):
        create_app(env)


@pytest.mark.anyio
@pytest.mark.slow
async def test_uvicorn_workers_serve_the_factory(http, tools, text_of):
    env = {
        **tools.env(),
        "TOOLDROP_PROJECT": str(tools.project),
        "TOOLDROP_SERVE_TOKENS": f"team: {http.TOKEN}",
    }
    log = tools.root / "uvicorn.log"
    command = [
        sys.executable, "-m", "uvicorn", "--factory", "tooldrop_mcp.asgi:create_app",
        "--host", "127.0.0.1", "--port", "0", "--workers", "2",
    ]  # fmt: skip
    with log.open("wb") as out:
        process = await anyio.open_process(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        await http.wait_for(lambda: RUNNING.search(log.read_text()), "uvicorn to start")
        url = RUNNING.search(log.read_text()).group(1) + "/mcp"
        started = "Application startup complete"
        await http.wait_for(lambda: log.read_text().count(started) == 2, "both workers")
        async with http.client() as client:
            refused = await client.post(url, json={})
        async with http.session(url, http.TOKEN) as session:
            results = [
                text_of(await session.call_tool("custom__echo", {"text": f"w{i}", "delay": 0}))
                for i in range(4)
            ]
            headless = await session.call_tool("guarded", {"label": "x"})
    finally:
        process.send_signal(signal.SIGTERM)
        with anyio.fail_after(http.TIMEOUT):
            status = await process.wait()
    assert refused.status_code == 401
    assert results == ["w0", "w1", "w2", "w3"]
    assert text_of(headless) == 'Tool "guarded" is not available in headless mode'
    assert status == 0
    assert "call token=team " in log.read_text()
