"""Running Python tools: worker threads, the cancel token, timeouts that hold."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time

import pytest

from tooldrop import CancelToken

# A tool that never returns and never looks at its token, in both flavours.
STUBBORN = """
import time, asyncio
from pathlib import Path

def stubborn(args):
    Path({started!r}).write_text("started")
    time.sleep(60)
    return "finished"

async def stubborn_async(args, cancel):
    Path({started!r}).write_text("started")
    time.sleep(60)  # blocks its own event loop: task cancellation cannot reach it either
    return "finished"

default = [
    {{"name": "stubborn", "description": "d", "execute": stubborn, "timeoutMs": 300}},
    {{"name": "stubborn_async", "description": "d", "execute": stubborn_async, "timeoutMs": 300}},
]
"""


def written(path, timeout=10.0):
    """What a tool wrote to ``path``, waiting for it: write_text creates the file before it
    writes, so wait for content, not for the file."""
    deadline = time.monotonic() + timeout
    while not (path.exists() and path.read_text()) and time.monotonic() < deadline:
        time.sleep(0.01)
    return path.read_text()


@pytest.mark.parametrize("name", ["custom__stubborn", "custom__stubborn_async"])
def test_a_tool_that_ignores_its_token_cannot_hold_the_host_past_its_timeout(dirs, host, yes, name):
    started = dirs.root / "started"
    dirs.personal("stubborn.py", STUBBORN.format(started=str(started)))
    begin = time.monotonic()
    result = host.call(name, {}, ask=yes)
    elapsed = time.monotonic() - begin
    assert started.exists()  # it really ran
    assert result.is_error and result.timed_out
    assert result.text == "Custom tool timed out after 300ms"
    assert elapsed < 10  # 300 ms plus generous slack for a busy machine; not 60 s


def test_the_token_is_set_on_timeout_and_a_cooperative_tool_sees_why(dirs, host, yes):
    seen = dirs.root / "seen"
    dirs.personal(
        "polite.py",
        f"""
        from pathlib import Path

        def execute(args, cancel):
            cancel.wait(30)
            Path({str(seen)!r}).write_text(f"{{cancel.is_set()}} {{cancel.reason}}")
            return "late"

        default = {{"name": "polite", "description": "d", "execute": execute, "timeout_ms": 200}}
        """,
    )
    result = host.call("custom__polite", {}, ask=yes)
    assert result.timed_out
    assert written(seen) == "True timeout"


def test_an_async_tool_is_cancelled_on_timeout(dirs, host, yes):
    seen = dirs.root / "seen"
    dirs.personal(
        "atool.py",
        f"""
        import asyncio
        from pathlib import Path

        async def execute(args, cancel):
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                Path({str(seen)!r}).write_text("cancelled " + cancel.reason)
                raise

        default = {{"name": "atool", "description": "d", "execute": execute, "timeout_ms": 200}}
        """,
    )
    assert host.call("custom__atool", {}, ask=yes).timed_out
    assert written(seen) == "cancelled timeout"


def test_cancelling_a_call_returns_at_once_and_tells_the_tool(dirs, host, yes):
    seen, started = dirs.root / "seen", dirs.root / "started"
    dirs.personal(
        "waiter.py",
        f"""
        import asyncio
        from pathlib import Path
        from tooldrop import tool, CancelToken

        @tool
        async def waiter(cancel: CancelToken) -> str:
            '''Wait until cancelled.'''
            Path({str(started)!r}).write_text("yes")
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:  # the token cancels an async tool's task
                Path({str(seen)!r}).write_text(cancel.reason)
                raise
            return "woke"

        default = waiter
        """,
    )
    token = CancelToken()
    # Cancel once the tool runs, not after a guess at how long starting takes.
    cancelled_at: list[float] = []

    def cancel_once_started() -> None:
        written(started, timeout=60)
        cancelled_at.append(time.monotonic())
        token.cancel()

    threading.Thread(target=cancel_once_started).start()
    result = host.call("custom__waiter", {}, ask=yes, cancel=token)
    assert (result.text, result.is_error, result.timed_out) == ("Tool call cancelled", True, False)
    assert time.monotonic() - cancelled_at[0] < 10  # not the 30 s the tool would sleep
    assert written(seen) == "cancelled"
    assert written(started) == "yes"


def test_cancelling_the_awaiting_task_of_acall_cancels_the_tool(dirs, host, yes):
    seen, started = dirs.root / "seen", dirs.root / "started"
    dirs.personal(
        "sleeper.py",
        f"""
        from pathlib import Path

        def execute(args, cancel):
            Path({str(started)!r}).write_text("yes")
            if cancel.wait(30):
                Path({str(seen)!r}).write_text(cancel.reason)

        default = {{"name": "sleeper", "description": "d", "execute": execute}}
        """,
    )

    async def main():
        task = asyncio.ensure_future(host.acall("custom__sleeper", {}, ask=yes))
        # Cancel once the tool is running, not after a guess at how long that takes.
        deadline = time.monotonic() + 30
        while not (started.exists() and started.read_text()) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert started.read_text() == "yes"
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert written(seen) == "cancelled"


def test_sync_tools_run_in_a_worker_thread_with_the_callers_context(dirs, host, yes):
    dirs.personal(
        "where.py",
        """
        import threading, contextvars

        def execute(args):
            var = next(v for v in contextvars.copy_context() if v.name == "request_id")
            return {"thread": threading.current_thread().name, "daemon":
                    threading.current_thread().daemon, "request_id": var.get()}

        default = {"name": "where", "description": "d", "execute": execute}
        """,
    )
    request_id = contextvars.ContextVar("request_id")
    request_id.set("req-7")
    import json

    info = json.loads(host.call("custom__where", {}, ask=yes).text)
    assert info == {
        "thread": "tooldrop-python:custom__where",
        "daemon": True,
        "request_id": "req-7",
    }
    assert threading.current_thread().name != info["thread"]


def test_async_tools_get_their_own_running_loop(dirs, host, yes):
    dirs.personal(
        "loop.py",
        """
        import asyncio

        async def execute(args, cancel):
            loop = asyncio.get_running_loop()
            await asyncio.sleep(0)
            return loop is asyncio.get_event_loop()

        default = {"name": "loop", "description": "d", "execute": execute}
        """,
    )
    assert host.call("custom__loop", {}, ask=yes).text == "true"

    async def inside_a_loop():  # the caller's own loop is not the tool's
        return await host.acall("custom__loop", {}, ask=yes)

    assert asyncio.run(inside_a_loop()).text == "true"


def test_execute_with_one_or_two_parameters(dirs, host, yes):
    dirs.personal(
        "arity.py",
        """
        from tooldrop import CancelToken

        def one(args):
            return "one"

        def two(args, cancel):
            return type(cancel).__name__

        def star(*params):
            return len(params)

        default = [
            {"name": "one", "description": "d", "execute": one},
            {"name": "two", "description": "d", "execute": two},
            {"name": "star", "description": "d", "execute": star},
        ]
        """,
    )
    assert host.call("custom__one", {}, ask=yes).text == "one"
    assert host.call("custom__two", {}, ask=yes).text == "CancelToken"
    assert host.call("custom__star", {}, ask=yes).text == "2"


def test_arguments_are_validated_before_anything_runs(dirs, host, yes):
    ran = dirs.root / "ran"
    dirs.personal(
        "strict.py",
        f"""
        from pathlib import Path
        from tooldrop import tool

        @tool
        def strict(count: int, color: str = "red") -> str:
            '''Strict.'''
            Path({str(ran)!r}).write_text("ran")
            return "ok"

        default = strict
        """,
    )
    for args, message in [
        ({}, "⚒ Missing required parameter: count"),
        ({"count": "3"}, '⚒ Parameter "count" has wrong type — expected integer, got string'),
        ({"count": 1, "extra": 1}, "⚒ Unknown parameter: extra (this tool accepts: count, color)"),
    ]:
        result = host.call("custom__strict", args, ask=yes)
        assert (result.text, result.is_error) == (message, True)
    assert not ran.exists()
    assert host.call("custom__strict", {"count": 1}, ask=yes).text == "ok"


def test_enum_dataclass_tuple_and_optional_parameters_arrive_typed(dirs, host, yes):
    dirs.personal(
        "typed.py",
        """
        import dataclasses, enum
        from pathlib import Path
        from tooldrop import tool

        class Color(enum.Enum):
            RED = "red"
            BLUE = "blue"

        @dataclasses.dataclass
        class Size:
            w: int
            h: int

        @tool
        def typed(color: Color, size: Size, pair: tuple[int, int], where: Path,
                  note: str | None, ratio: float = 1) -> str:
            '''Show the types the function got.'''
            return " ".join(type(v).__name__ for v in (color, size, pair, where, note, ratio))

        default = typed
        """,
    )
    args = {"color": "blue", "size": {"w": 1, "h": 2}, "pair": [1, 2], "where": "/tmp"}
    result = host.call("custom__typed", args, ask=yes)
    assert result.text == "Color Size tuple PosixPath NoneType float"
    # A model's explicit null for an optional parameter means "left out".
    assert host.call("custom__typed", {**args, "note": None}, ask=yes).text == result.text


def test_exceptions_become_error_results_and_the_host_survives(dirs, host, yes):
    dirs.personal(
        "raises.py",
        """
        import sys

        def value_error(args):
            raise ValueError("no such city: Atlantis")

        def exits(args):
            sys.exit(3)

        def bare(args):
            raise RuntimeError()

        default = [
            {"name": "value_error", "description": "d", "execute": value_error},
            {"name": "exits", "description": "d", "execute": exits},
            {"name": "bare", "description": "d", "execute": bare},
        ]
        """,
    )
    results = [host.call(f"custom__{n}", {}, ask=yes) for n in ("value_error", "exits", "bare")]
    assert [(r.text, r.is_error) for r in results] == [
        ("ValueError: no such city: Atlantis", True),
        ("SystemExit: 3", True),
        ("RuntimeError", True),
    ]


def test_a_long_result_is_cut_to_the_hosts_output_limit(dirs, make_host, yes):
    dirs.personal(
        "long.py",
        'default = {"name": "long", "description": "d", "execute": lambda a: "x" * 10_000}\n',
    )
    result = make_host(output_limit=500).call("custom__long", {}, ask=yes)
    assert result.truncated
    assert len(result.text) <= 600
    assert "10000 characters total" in result.text


def test_a_tool_registered_by_a_pip_pack_runs_through_the_same_runner(make_host, yes):
    from tooldrop import Tool, hookimpl, tool

    @tool(approval="never")
    def pack_add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    class Pack:
        @hookimpl
        def tooldrop_register_tools(self, register):
            register(pack_add)
            register({"name": "pack_dict", "description": "d", "execute": lambda a: "dict"})
            register(Tool(name="pack_tool", description="d", execute=lambda a, c: "tool"))
            register({"name": "bad pack", "description": "d", "execute": print})

    host = make_host(Pack())
    assert [t.name for t in host.tools()] == ["pack_add", "pack_dict", "pack_tool"]
    assert host.get("pack_add").origin.source.startswith("entrypoint:")
    assert host.call("pack_add", {"a": 2, "b": 40}).text == "42"
    assert host.call("pack_dict", {}, ask=yes).text == "dict"
    assert host.call("pack_tool", {}, ask=yes).text == "tool"
    [problem] = host.problems()
    assert "name: must be letters, digits and underscores only, got 'bad pack'" in problem.message


def test_what_a_tool_returns_after_being_cancelled_is_not_reported(dirs, host, yes):
    """Deterministic: once the token is set the call is cancelled, however the tool reacts."""
    dirs.personal(
        "quick.py",
        """
        def execute(args, cancel):
            cancel.wait(30)
            return "stopped politely"

        default = {"name": "quick", "description": "d", "execute": execute, "timeoutMs": 100}
        """,
    )
    for _ in range(20):
        assert host.call("custom__quick", {}, ask=yes).text == "Custom tool timed out after 100ms"
