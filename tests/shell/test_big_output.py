"""A tool that prints a gigabyte costs the host almost no memory.

The host runs in a child Python process, so its peak RSS (``ru_maxrss``) is its own and not
inflated by the test runner's history.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from tooldrop import truncation_marker

GIGABYTE = 1_000_000_000
LINE = "a line of output that is repeated"

CHILD = textwrap.dedent(
    """
    import json, resource, sys, tempfile, time
    import tooldrop.approval, tooldrop_shell
    from tooldrop import Origin, ToolHost, ToolSpec, hookimpl

    class Pack:
        @hookimpl
        def tooldrop_register_tools(self, register):
            for name, script in (("warm", "echo warm"), ("big", sys.argv[1])):
                register(ToolSpec(
                    name=name, description=name, input_schema={"type": "object"},
                    approval="never", read_only=True, timeout_ms=240_000,
                    origin=Origin(source="test", scope="plugin"), runner="shell",
                    payload=script))

        @hookimpl
        def tooldrop_render(self, call):
            return call.spec.payload

    host = ToolHost(project_dir=tempfile.mkdtemp(), user_dir=tempfile.mkdtemp(),
                    plugins=[tooldrop_shell.plugin, tooldrop.approval, Pack()])
    assert host.call("warm", {}).text == "EXIT_CODE: 0\\nwarm"  # imports and caches are warm
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    result = host.call("big", {})
    seconds = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    json.dump({"text": result.text, "truncated": result.truncated, "is_error": result.is_error,
               "growth_kib": after - before, "seconds": seconds}, sys.stdout)
    """
)


@pytest.mark.slow
def test_printing_a_gigabyte_keeps_memory_flat():
    script = f"yes '{LINE}' | head -c {GIGABYTE}; echo; echo done"
    child = subprocess.run(
        [sys.executable, "-c", CHILD, script],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    report = json.loads(child.stdout)
    print(f"1 GB: peak RSS growth {report['growth_kib']} KiB in {report['seconds']:.1f} s")

    assert report["growth_kib"] < 64 * 1024
    assert not report["is_error"]
    assert report["truncated"]
    text = report["text"]
    assert len(text) == 2000
    # every character was counted: the EXIT_CODE line, 1e9 bytes, "\n", "done"
    total = len("EXIT_CODE: 0\n") + GIGABYTE + len("\ndone")
    assert truncation_marker(total) in text
    assert text.startswith(f"EXIT_CODE: 0\n{LINE}\n{LINE}\n")
    assert text.endswith("\ndone")
