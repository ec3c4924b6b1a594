"""Call overhead: ``host.call`` of a trivial shell tool against a bare ``subprocess.run``.

Both run in the same process, interleaved (one of each per round), so machine noise hits
them alike. Reports the median and the ratio; the budget (DESIGN §10) is 1.1x. ``--stream``
adds ``host.call`` with an ``on_output`` callback that counts what it gets (what streaming
costs: a person watching, ``tooldrop call`` on a terminal, MCP progress).

    uv run python tests/bench/bench_call.py [--rounds 300] [--script 'echo hi'] [--stream]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from typing import Any

import tooldrop.approval
import tooldrop_shell
from tooldrop import Origin, ToolHost, ToolSpec, hookimpl

BASH = "/bin/bash"


class OneTool:
    """A plugin registering one read-only bash tool whose script is fixed."""

    def __init__(self, script: str) -> None:
        self.script = script

    @hookimpl
    def tooldrop_register_tools(self, register: Callable[[Any], None]) -> None:
        register(
            ToolSpec(
                name="trivial",
                description="a trivial tool",
                input_schema={"type": "object", "properties": {}, "additionalProperties": False},
                approval="never",
                read_only=True,
                shell="bash",
                origin=Origin(source="bench", scope="plugin"),
                runner="shell",
                payload=self.script,
            )
        )

    @hookimpl
    def tooldrop_render(self, call: Any) -> str:
        return str(call.spec.payload)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--script", default="echo hi")
    parser.add_argument("--stream", action="store_true", help="also time host.call(on_output=)")
    opts = parser.parse_args()

    with tempfile.TemporaryDirectory() as project, tempfile.TemporaryDirectory() as user:
        host = ToolHost(
            project_dir=project,
            user_dir=user,
            plugins=[tooldrop_shell.plugin, tooldrop.approval, OneTool(opts.script)],
        )
        expected = subprocess.run([BASH, "-c", opts.script], capture_output=True, check=False)
        result = host.call("trivial", {})
        if not result.truncated:  # (a long output is cut to the host's output limit)
            whole = f"EXIT_CODE: 0\n{expected.stdout.decode().rstrip()}"
            assert result.text == whole, result.text[:2000]

        def tooldrop_call() -> None:
            host.call("trivial", {})

        def bare_run() -> None:
            subprocess.run([BASH, "-c", opts.script], capture_output=True, check=False)

        streamed = [0]

        def count(text: str, stream: str) -> None:
            streamed[0] += len(text)

        def streaming_call() -> None:
            host.call("trivial", {}, on_output=count)

        contenders = [("host.call", tooldrop_call), ("subprocess.run", bare_run)]
        if opts.stream:
            contenders.append(("+on_output", streaming_call))
        for _ in range(20):  # warm up every path (imports, jsonschema, page cache)
            for _, fn in contenders:
                fn()
        times: dict[str, list[float]] = {label: [] for label, _ in contenders}
        for i in range(opts.rounds):
            pair = contenders[i % len(contenders) :] + contenders[: i % len(contenders)]
            for label, fn in pair:  # none always goes first
                started = time.perf_counter()
                fn()
                times[label].append(time.perf_counter() - started)
        host.close()

    ours = statistics.median(times["host.call"])
    bare = statistics.median(times["subprocess.run"])
    print(f"script: {opts.script!r}, {opts.rounds} rounds each, interleaved")
    for label, samples in times.items():
        q = statistics.quantiles(samples, n=10)
        print(
            f"  {label:15} median {statistics.median(samples) * 1e3:6.3f} ms"
            f"  p10 {q[0] * 1e3:6.3f}  p90 {q[-1] * 1e3:6.3f}"
        )
    print(f"  ratio host.call / subprocess.run (medians): {ours / bare:.3f}x  (budget 1.1x)")
    # The fast tail is what the code costs; the slow tail is mostly the machine's other load.
    fast = statistics.quantiles(times["host.call"], n=10)[0]
    fast_bare = statistics.quantiles(times["subprocess.run"], n=10)[0]
    print(f"  ratio at p10 (less sensitive to load):        {fast / fast_bare:.3f}x")
    if opts.stream:
        with_output = statistics.median(times["+on_output"])
        print(f"  ratio host.call(on_output=) / host.call (medians): {with_output / ours:.3f}x")


if __name__ == "__main__":
    main()
