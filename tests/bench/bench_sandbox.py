"""What confinement costs a call: the same trivial tool confined and unconfined, and a bare
``bwrap … true`` beside a bare ``bash -c true``, side by side.

Five timings, interleaved (one of each per round, in a rotating order) so machine noise hits
them alike: ``host.call`` with ``sandbox="required"`` (bubblewrap, the seccomp filter), the same
host call with ``sandbox="off"``, ``subprocess.run`` of the exact ``bwrap`` command line the
sandbox builds (also in a new session, as the backend starts it), and of bare bash. Reports
medians, the added cost in milliseconds and the ratios (aim: confinement adds under 3 ms).

    uv run python tests/bench/bench_sandbox.py [--rounds 200] [--script true]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import tooldrop.approval
import tooldrop_sandbox
import tooldrop_shell
from tooldrop import ToolHost

sys.path.insert(0, str(Path(__file__).parent))
from bench_call import BASH, OneTool  # a sibling script, not a package

LABELS = ("confined call", "unconfined call", "bare bwrap", "bwrap, new session", "bare bash")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--script", default="true")
    opts = parser.parse_args()
    probe = tooldrop_sandbox.probe_bwrap()
    if probe.path is None:
        sys.exit(f"bench_sandbox: {probe.problem}")

    with tempfile.TemporaryDirectory() as project, tempfile.TemporaryDirectory() as user:
        plugins = [tooldrop_shell.plugin, tooldrop.approval, tooldrop_sandbox.plugin]

        def host(sandbox: str) -> ToolHost:
            return ToolHost(
                project_dir=project,
                user_dir=user,
                sandbox=sandbox,  # type: ignore[arg-type]
                plugins=[*plugins, OneTool(opts.script)],
            )

        confined, unconfined = host("required"), host("off")
        spec = confined.get("trivial")
        assert spec is not None
        policy = tooldrop_sandbox.policy_for(spec, confined)
        # The sandbox's own command line, without the seccomp descriptor (a pipe per call).
        bwrap = tooldrop_sandbox.bwrap_argv(
            probe.path, policy, [BASH, "-c", opts.script], disable_userns=probe.disable_userns
        )
        for h in (confined, unconfined):
            result = h.call("trivial", {})
            assert result.text.startswith("EXIT_CODE: 0"), result.text

        runs: dict[str, Callable[[], object]] = {
            "confined call": lambda: confined.call("trivial", {}),
            "unconfined call": lambda: unconfined.call("trivial", {}),
            "bare bwrap": lambda: subprocess.run(bwrap, capture_output=True, check=True),
            # The backend starts every tool in a session of its own (start_new_session), the
            # way it can stop the whole group; bwrap pays for that, bash does not.
            "bwrap, new session": lambda: subprocess.run(
                bwrap, capture_output=True, check=True, start_new_session=True
            ),
            "bare bash": lambda: subprocess.run(
                [BASH, "-c", opts.script], capture_output=True, check=True
            ),
        }
        for _ in range(10):  # warm up every path
            for fn in runs.values():
                fn()
        times: dict[str, list[float]] = {label: [] for label in LABELS}
        for i in range(opts.rounds):
            order = LABELS[i % len(LABELS) :] + LABELS[: i % len(LABELS)]  # nobody always first
            for label in order:
                started = time.perf_counter()
                runs[label]()
                times[label].append(time.perf_counter() - started)
        confined.close()
        unconfined.close()

    median = {label: statistics.median(samples) for label, samples in times.items()}
    print(f"script: {opts.script!r}, {opts.rounds} rounds each, interleaved")
    for label in LABELS:
        q = statistics.quantiles(times[label], n=10)
        print(
            f"  {label:18} median {median[label] * 1e3:6.3f} ms  min {min(times[label]) * 1e3:6.3f}"
            f"  p10 {q[0] * 1e3:6.3f}  p90 {q[-1] * 1e3:6.3f}"
        )
    low = {label: min(samples) for label, samples in times.items()}
    for name, of in (("medians", median), ("minimums, least sensitive to load", low)):
        cost = of["confined call"] - of["unconfined call"]
        bare_cost = of["bare bwrap"] - of["bare bash"]
        print(
            f"  {name}: confinement adds {cost * 1e3:.3f} ms a call (aim: under 3 ms); "
            f"bwrap itself adds {bare_cost * 1e3:.3f} ms to bare bash"
        )
    ratio = median["confined call"] / median["unconfined call"]
    print(f"  ratio confined / unconfined call (medians): {ratio:.3f}x")
    ratio = median["confined call"] / median["bare bwrap"]
    print(f"  ratio confined call / bare bwrap (medians): {ratio:.3f}x")
    ratio = median["confined call"] / median["bwrap, new session"]
    print(f"  ratio confined call / bwrap in a new session (medians): {ratio:.3f}x")
    ratio = median["unconfined call"] / median["bare bash"]
    print(f"  ratio unconfined call / bare bash (medians): {ratio:.3f}x")


if __name__ == "__main__":
    main()
