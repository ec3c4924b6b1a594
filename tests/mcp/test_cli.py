"""``tooldrop serve`` as a command: its options, its stdout, and what other commands pay for it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

TOOLDROP_RUN = "import sys; from tooldrop.cli import main; sys.argv[0] = 'tooldrop'; main()"


def test_other_commands_never_import_the_mcp_sdk(workspace):
    code = (
        "import sys\n"
        "from tooldrop.cli import build_cli\n"
        "from tooldrop.cli import load_plugin_set\n"
        f"args = ['--project', {str(workspace.project)!r}, 'list', '--json']\n"
        "build_cli(load_plugin_set()).main(args=args, standalone_mode=False)\n"
        "print('MCP-IMPORTED' if any(m == 'mcp' or m.startswith('mcp.') for m in sys.modules) "
        "else 'MCP-NOT-IMPORTED')\n"
    )
    env = workspace.env()
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("MCP-NOT-IMPORTED")


def test_serve_is_a_registered_command_with_its_options(workspace):
    done = workspace.tooldrop("serve", "--help")
    assert done.returncode == 0
    assert "Serve every available tool over MCP on stdio." in done.stdout
    assert "--mode" in done.stdout
    assert "--poll-interval" in done.stdout
    assert "--http" in done.stdout and "--token-file" in done.stdout


def test_serve_writes_nothing_to_stdout_and_exits_when_stdin_closes(workspace):
    workspace.markdown_tool("t.md", "---\nname: t\ndescription: T.\napproval: never\n---\necho t\n")
    done = subprocess.run(
        [workspace.tooldrop_path, "--project", str(workspace.project), "serve"],
        stdin=subprocess.DEVNULL, capture_output=True, env=workspace.env(), timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == b""


def test_serve_refuses_a_bad_option_without_touching_stdout(workspace):
    done = workspace.tooldrop("serve", "--poll-interval", "-1")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "--poll-interval" in done.stderr


@pytest.mark.anyio
async def test_output_printed_before_serving_never_reaches_the_wire(connect, text_of, tools):
    # Something (a careless plugin, say) prints before serve starts; stdout is a pipe, so the
    # text sits in Python's buffer. It must land on stderr, not in front of the protocol.
    # (With PYTHONUNBUFFERED such text is on the pipe before serve runs: nothing can take it
    # back, so this case runs buffered, as an MCP client starts the server.)
    tools.python_tool(
        "loud_import.py",
        """
        print("printed while the module was imported")
        default = {"name": "quiet", "description": "Q.", "approval": "never",
                   "execute": lambda args, cancel: "ok"}
        """,
    )
    program = (sys.executable, "-c", f"print('printed before serving'); {TOOLDROP_RUN}")
    env = {k: v for k, v in tools.env().items() if k != "PYTHONUNBUFFERED"}
    async with connect(tools, program=program, env=env) as server:
        result = await server.session.call_tool("custom__quiet", {})
        lines = list(server.stdout_lines)
        stderr = server.stderr()
    assert text_of(result) == "ok", stderr
    assert not [line for line in lines if not line.startswith('{"jsonrpc":"2.0"')], stderr
    for line in lines:
        assert json.loads(line)["jsonrpc"] == "2.0"
    assert "printed before serving" in stderr
    assert "printed while the module was imported" in stderr


EMBEDDED = """
import anyio, sys
from tooldrop import ToolHost
from tooldrop_mcp import ToolServer

host = ToolHost(project_dir=sys.argv[1], mode="headless")
anyio.run(ToolServer(host).run_stdio)
"""


@pytest.mark.anyio
async def test_a_host_app_serves_its_own_host(connect, text_of, tools):
    # `connect` appends `--project DIR serve`: argv[1:3] for the script, as the docs show it.
    program = (sys.executable, "-c", EMBEDDED.replace("sys.argv[1]", "sys.argv[2]"))
    async with connect(tools, program=program) as server:
        listed = {tool.name for tool in (await server.session.list_tools()).tools}
        result = await server.session.call_tool("greet", {"name": "host app"})
    assert "greet" in listed
    assert "guarded" not in listed
    assert text_of(result) == "EXIT_CODE: 0\nhello, host app"


def test_an_embedded_host_loads_the_plugin_without_click_or_the_cli(tmp_path):
    """The plugin's entry point loads in every host; only the CLI needs click and its commands."""
    code = (
        "import sys; from tooldrop import ToolHost; "
        "host = ToolHost(project_dir=sys.argv[1], user_dir=sys.argv[1]); host.tools(); "
        "assert 'mcp' in [p.name for p in host.plugins() if p.error is None], host.plugins(); "
        "print(sorted(m for m in ('click', 'tooldrop.cli', 'mcp') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert done.stdout.strip() == "[]"
