"""The ``on_output`` contract a host relies on, whatever the backend does with it.

A backend gets ``call.on_output`` only when the host asked for the output; what the host's
callback sees is guarded by the core: one chunk at a time, no empty chunk, nothing after
the call has returned.
"""

from __future__ import annotations

import threading
from typing import Any

from tooldrop import ToolCall, ToolResult


def test_a_backend_sees_on_output_only_when_the_host_asks(make_host, tool_pack, spec_factory):
    seen: list[object] = []

    def run(call: ToolCall) -> ToolResult:
        seen.append(call.on_output)
        return ToolResult(text="ok")

    host = make_host(tool_pack(spec_factory("t", payload=run)))
    host.call("t", {})
    host.call("t", {}, on_output=lambda text, stream: None)
    assert seen[0] is None and callable(seen[1])


def test_nothing_reaches_the_host_after_the_call_returned(make_host, tool_pack, spec_factory):
    kept: list[Any] = []
    chunks: list[tuple[str, str]] = []

    def run(call: ToolCall) -> ToolResult:
        assert call.on_output is not None
        call.on_output("during", "stdout")
        call.on_output("", "stdout")  # an empty chunk is not passed on
        call.on_output("odd", "somewhere")  # an unknown stream name is read as stdout
        kept.append(call.on_output)  # a stray thread of a careless backend
        return ToolResult(text="ok")

    host = make_host(tool_pack(spec_factory("t", payload=run)))
    assert host.call("t", {}, on_output=lambda t, s: chunks.append((s, t))).text == "ok"
    kept[0]("after", "stdout")
    assert chunks == [("stdout", "during"), ("stdout", "odd")]


def test_chunks_from_several_backend_threads_reach_the_host_one_at_a_time(
    make_host, tool_pack, spec_factory
):
    busy = threading.Lock()
    overlaps: list[bool] = []
    received: list[str] = []

    def on_output(text: str, stream: str) -> None:
        if not busy.acquire(blocking=False):
            overlaps.append(True)
            return
        try:
            received.append(text)
            threading.Event().wait(0.0001)  # a moment in which another chunk could overlap
        finally:
            busy.release()

    def run(call: ToolCall) -> ToolResult:
        assert call.on_output is not None
        send = call.on_output
        threads = [
            threading.Thread(target=lambda n=n: [send(f"{n}", "stdout") for _ in range(200)])
            for n in range(4)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return ToolResult(text="ok")

    host = make_host(tool_pack(spec_factory("t", payload=run)))
    host.call("t", {}, on_output=on_output)
    assert overlaps == []
    assert sorted(received) == sorted(f"{n}" for n in range(4) for _ in range(200))


def test_a_backend_that_does_not_stream_never_calls_it(make_host, tool_pack, spec_factory):
    chunks: list[str] = []
    host = make_host(tool_pack(spec_factory("t")))  # the echo backend: one result, no stream
    result = host.call("t", {"msg": "hi"}, on_output=lambda text, stream: chunks.append(text))
    assert result.text == 't: {"msg": "hi"}'
    assert chunks == []


class _HungUp:
    """A terminal after a hang-up: every write fails."""

    def write(self, text: str) -> int:
        raise OSError(5, "Input/output error")

    def flush(self) -> None:
        raise OSError(5, "Input/output error")


def test_a_callback_failing_on_a_hung_up_terminal_does_not_fail_the_call(
    make_host, tool_pack, spec_factory, monkeypatch
):
    calls: list[str] = []

    def run(call: ToolCall) -> ToolResult:
        assert call.on_output is not None
        call.on_output("one", "stdout")
        call.on_output("two", "stdout")
        return ToolResult(text="ok")

    def show(text: str, stream: str) -> None:
        calls.append(text)
        raise OSError(5, "Input/output error")

    host = make_host(tool_pack(spec_factory("t", payload=run)))
    monkeypatch.setattr("sys.stderr", _HungUp())  # where the failure would be said
    result = host.call("t", {}, on_output=show)
    assert (result.text, result.is_error, calls) == ("ok", False, ["one"])
