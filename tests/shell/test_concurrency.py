"""Many read-only calls at once: each gets its own output, and no process is left behind."""

from __future__ import annotations

import asyncio
import re

import pytest

from tooldrop import truncate

N = 100
# Calls that must be running at the same moment for any of them to finish early: a barrier
# the calls meet at through files, so concurrency is shown without timing anything. Below
# the pool's 64 workers, so a busy worker or two cannot make it unreachable.
MEET = 40
LINES = 1000  # lines of stderr per call: more than the output limit, so it is cut

# Each call checks in, waits (bash globbing, no forks but sleep) until MEET calls have,
# then prints its own number many times, so crossed pipes would show.
SCRIPT = """
touch {{dir}}/{{n}}
i=0
while :; do
  set -- {{dir}}/*
  [ $# -ge {meet} ] && break
  i=$((i+1)); [ $i -gt 100 ] && break
  sleep 0.1
done
echo "n={{n}} met=$#"
for _ in $(seq 1 {lines}); do echo "{{n}}"; done >&2
echo "n={{n}} end"
""".replace("{meet}", str(MEET)).replace("{lines}", str(LINES))


@pytest.fixture
def meeting(pack, tmp_path):
    meet_dir = tmp_path / "meet"
    meet_dir.mkdir()
    pack.add(
        "meet",
        SCRIPT,
        params={"n": {"type": "integer"}, "dir": {"type": "string"}},
        approval="never",
        read_only=True,
        timeout_ms=60_000,
    )
    return str(meet_dir)


def _check(results, procs):
    assert len(results) == N
    for n, result in enumerate(results):
        assert not result.is_error, result.text
        met = re.search(rf"\nn={n} met=(\d+)\n", result.text)
        assert met, result.text[-200:]
        assert int(met[1]) >= MEET, f"call {n} gave up waiting: only {met[1]} calls ran with it"
        # Exactly this call's output, cut as usual: crossed pipes or lost chunks would show.
        stderr = "\n".join([str(n)] * LINES)
        full = f"EXIT_CODE: 0\nSTDERR:\n{stderr}\nSTDOUT:\nn={n} met={met[1]}\nn={n} end"
        assert result.text == truncate(full, 2000)[0]
        assert result.truncated
    assert procs.zombies() == []


@pytest.mark.slow
def test_call_many_runs_read_only_calls_concurrently(host, meeting, procs):
    results = host.call_many([("meet", {"n": n, "dir": meeting}) for n in range(N)])
    _check(results, procs)


@pytest.mark.slow
def test_acall_runs_calls_concurrently(host, meeting, procs):
    async def main():
        return await asyncio.gather(
            *(host.acall("meet", {"n": n, "dir": meeting}) for n in range(N))
        )

    _check(asyncio.run(main()), procs)
