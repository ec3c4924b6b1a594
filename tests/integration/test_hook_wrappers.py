"""Every hook goes through pluggy: wrappers, tryfirst/trylast and tracing work on all of them.

``tooldrop_register_tools``, ``tooldrop_after_call`` and ``tooldrop_register_commands`` were
called one implementation at a time, past pluggy, so a ``wrapper=True`` implementation of them
never ran and ``TOOLDROP_TRACE_PLUGINS`` never showed them (issue 13, item 4). The plugins here
are installed as real distributions and found by the real ``tooldrop`` command.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

WRAPPERS = """
import os
from pathlib import Path

from tooldrop import Tool, hookimpl

LOG = Path(os.environ["WRAPPERS_LOG"])


def log(line):
    with LOG.open("a") as handle:
        handle.write(line + "\\n")


@hookimpl(wrapper=True)
def tooldrop_register_tools(register):
    log("register_tools: before")
    register(Tool(name="from_wrapper", description="d", execute=lambda a: "w", approval="never"))
    yield
    log("register_tools: after")


@hookimpl(wrapper=True)
def tooldrop_after_call(call, result):
    log(f"after_call: before {call.name}")
    outcome = yield
    log(f"after_call: after {call.name} error={result.is_error}")
    return outcome


@hookimpl(wrapper=True)
def tooldrop_register_commands(cli):
    @cli.command("wrapped-hello")
    def hello():
        print("hello from a wrapper")

    yield
    log("register_commands: after " + ",".join(sorted(cli.commands)))
"""

LATE = """
import os
from pathlib import Path

from tooldrop import hookimpl


@hookimpl(trylast=True)
def tooldrop_after_call(call):
    with Path(os.environ["WRAPPERS_LOG"]).open("a") as handle:
        handle.write(f"late observer saw {call.name}\\n")
"""

OBSERVERS = """
from tooldrop import Tool, hookimpl

@hookimpl(tryfirst=True)
def tooldrop_after_call(call):
    raise RuntimeError("the first observer is broken")


@hookimpl(trylast=True)
def tooldrop_register_tools(register):
    register(Tool(name="kept", description="d", execute=lambda a: "k", approval="never"))
    raise RuntimeError("the pack is broken after one tool")
"""


@pytest.fixture
def env(tmp_path: Path, installer) -> dict[str, str]:
    installer("tooldrop-wrappers", "wrapper_plugin", WRAPPERS, "wrappers")
    return {"WRAPPERS_LOG": str(tmp_path / "log"), "TOOLDROP_PLUGINS": "wrappers,python"}


def lines(tmp_path: Path) -> list[str]:
    log = tmp_path / "log"
    return log.read_text().splitlines() if log.exists() else []


def test_a_register_tools_wrapper_runs_and_its_tools_are_stamped_with_its_name(
    run_tooldrop, env, tmp_path
):
    done = run_tooldrop("--project", str(tmp_path), "list", "--json", env=env)
    assert done.returncode == 0, done.stderr
    tools = {t["name"]: t for t in json.loads(done.stdout)["tools"]}
    assert tools["from_wrapper"]["source"] == "entrypoint:wrappers"
    assert tools["from_wrapper"]["scope"] == "plugin"
    wrapped = [line for line in lines(tmp_path) if line.startswith("register_tools")]
    assert wrapped == ["register_tools: before", "register_tools: after"]


def test_an_after_call_wrapper_wraps_every_call(run_tooldrop, env, tmp_path):
    done = run_tooldrop("--project", str(tmp_path), "call", "from_wrapper", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "w"
    calls = [line for line in lines(tmp_path) if line.startswith("after_call")]
    assert calls == [
        "after_call: before from_wrapper",
        "after_call: after from_wrapper error=False",
    ]


def test_a_register_commands_wrapper_adds_a_command(run_tooldrop, env, tmp_path):
    done = run_tooldrop("wrapped-hello", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "hello from a wrapper\n"
    assert "register_commands: after " in "\n".join(lines(tmp_path))
    assert "wrapped-hello" in lines(tmp_path)[-1]


def test_tracing_shows_the_hooks_that_were_called_past_pluggy(run_tooldrop, env, tmp_path):
    done = run_tooldrop(
        "--project",
        str(tmp_path),
        "call",
        "from_wrapper",
        env={**env, "TOOLDROP_TRACE_PLUGINS": "1"},
    )
    assert done.returncode == 0, done.stderr
    for hook in ("tooldrop_register_commands", "tooldrop_register_tools", "tooldrop_after_call"):
        assert f"[tooldrop] {hook}(" in done.stderr, hook
    assert "[tooldrop] tooldrop_after_call(" in done.stderr


def test_one_failing_implementation_does_not_stop_the_others(
    run_tooldrop, installer, env, tmp_path
):
    installer("tooldrop-observers", "observers_plugin", OBSERVERS, "observers")
    installer("tooldrop-late", "late_plugin", LATE, "late")
    env = {**env, "TOOLDROP_PLUGINS": "wrappers,observers,late,python"}
    done = run_tooldrop("--project", str(tmp_path), "call", "kept", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "k"  # registered before its pack raised: kept
    assert "tooldrop_after_call of observers failed: RuntimeError" in done.stderr
    log = lines(tmp_path)
    assert "late observer saw kept" in log  # the broken observer did not silence the late one
    assert "after_call: after kept error=False" in log  # nor the wrapper

    listing = run_tooldrop("--project", str(tmp_path), "list", "--json", env=env)
    problems = json.loads(listing.stdout)["problems"]
    assert any(
        p["field"] == "plugin observers" and "the pack is broken after one tool" in p["message"]
        for p in problems
    ), problems
    names = [t["name"] for t in json.loads(listing.stdout)["tools"]]
    assert {"kept", "from_wrapper"} <= set(names)
