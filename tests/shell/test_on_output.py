"""``on_output``: the shell backend hands a running call's output over as it reads it.

Real bash, real pipes. The callback gets the decoded text of each stream as it comes, while
the tool still runs; the result the model gets is the same with or without it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from tooldrop import ToolHost

from .conftest import ShellPack

Chunks = list[tuple[str, str]]


def collect() -> tuple[Chunks, Callable[[str, str], None]]:
    chunks: Chunks = []
    return chunks, lambda text, stream: chunks.append((stream, text))


def joined(chunks: Chunks, stream: str) -> str:
    return "".join(text for where, text in chunks if where == stream)


def test_each_stream_arrives_whole_and_untrimmed_and_the_result_is_unchanged(
    host: ToolHost, pack: ShellPack
) -> None:
    pack.add("both", r"printf 'out 1\n'; printf 'err\n' >&2; printf 'out 2\n\n\n'")
    chunks, on_output = collect()
    streamed = host.call("both", {}, on_output=on_output)
    quiet = host.call("both", {})
    assert joined(chunks, "stdout") == "out 1\nout 2\n\n\n"  # as printed: nothing trimmed
    assert joined(chunks, "stderr") == "err\n"
    assert {stream for stream, _ in chunks} == {"stdout", "stderr"}
    assert streamed.text == quiet.text == "EXIT_CODE: 0\nSTDERR:\nerr\nSTDOUT:\nout 1\nout 2"
    assert (streamed.exit_code, streamed.truncated) == (quiet.exit_code, quiet.truncated)


def test_text_is_decoded_across_reads_and_bad_bytes_are_replaced(
    host: ToolHost, pack: ShellPack
) -> None:
    # é split over two writes with a pause between; then a byte that is not UTF-8.
    pack.add("bytes", r"printf 'caf\303'; sleep 0.2; printf '\251 \377 ok'")
    chunks, on_output = collect()
    result = host.call("bytes", {}, on_output=on_output)
    assert joined(chunks, "stdout") == "café \ufffd ok"
    assert all(text for _, text in chunks)  # never an empty chunk
    assert result.text == "EXIT_CODE: 0\ncafé \ufffd ok"


def test_output_arrives_while_the_tool_still_runs(
    host: ToolHost, pack: ShellPack, tmp_path: Path
) -> None:
    flag = tmp_path / "flag"
    pack.add(
        "waits",
        "echo start; while [ ! -e {{flag}} ]; do sleep 0.05; done; echo end",
        params={"flag": {"type": "string"}},
    )
    started = threading.Event()
    chunks, collect_chunk = collect()

    def on_output(text: str, stream: str) -> None:
        collect_chunk(text, stream)
        if "start" in text:
            started.set()

    results = []
    runner = threading.Thread(
        target=lambda: results.append(host.call("waits", {"flag": str(flag)}, on_output=on_output))
    )
    runner.start()
    try:
        # The tool waits for the flag: "start" can only have come while it runs.
        assert started.wait(30)
        assert runner.is_alive() and not results
    finally:
        flag.touch()
        runner.join(30)
    assert results[0].text == "EXIT_CODE: 0\nstart\nend"
    assert joined(chunks, "stdout") == "start\nend\n"


def test_a_timed_out_call_streams_what_it_printed_before_it_was_stopped(
    host: ToolHost, pack: ShellPack
) -> None:
    pack.add("hangs", "echo before; sleep 30", timeout_ms=500)
    chunks, on_output = collect()
    result = host.call("hangs", {}, on_output=on_output)
    assert result.timed_out
    assert joined(chunks, "stdout") == "before\n"


def test_a_callback_that_raises_is_dropped_and_the_call_goes_on(
    host: ToolHost, pack: ShellPack, capsys: pytest.CaptureFixture[str]
) -> None:
    pack.add("chatty", "echo one; sleep 0.2; echo two; sleep 0.2; echo three")
    calls: list[str] = []

    def broken(text: str, stream: str) -> None:
        calls.append(text)
        raise OSError("the terminal went away")

    result = host.call("chatty", {}, on_output=broken)
    assert result.text == "EXIT_CODE: 0\none\ntwo\nthree"
    assert calls == ["one\n"]  # called once, then no more
    err = capsys.readouterr().err
    assert 'on_output for "chatty" failed (OSError: the terminal went away)' in err


def test_pending_run_and_acall_stream_from_a_worker_thread(host: ToolHost, pack: ShellPack) -> None:
    pack.add("hello", "echo hello")
    chunks, on_output = collect()
    assert host.prepare("hello").run(on_output=on_output).text == "EXIT_CODE: 0\nhello"
    assert joined(chunks, "stdout") == "hello\n"

    async def main() -> tuple[list[int], int]:
        threads: list[int] = []
        result = await host.acall(
            "hello", {}, on_output=lambda text, stream: threads.append(threading.get_ident())
        )
        assert result.text == "EXIT_CODE: 0\nhello"
        pending = await host.aprepare("hello")
        await pending.arun(on_output=lambda text, stream: threads.append(threading.get_ident()))
        return threads, threading.get_ident()

    threads, loop_thread = asyncio.run(main())
    assert len(threads) == 2 and loop_thread not in threads  # never on the event loop


def test_a_call_that_does_not_run_calls_nothing(host: ToolHost, pack: ShellPack) -> None:
    pack.add("guarded", "echo ran", approval="always")
    chunks, on_output = collect()
    assert host.call("guarded", {}, on_output=on_output).denied
    assert host.call("nope", {}, on_output=on_output).is_error
    assert chunks == []
