"""The guardian: when tooldrop's end of its pipe closes, the groups still listed are killed."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tooldrop_shell._guardian import GUARDIAN_SCRIPT, Guardian

from .lifetime import kill_all, marker, wait_for, wait_gone

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX process groups")


def sleeper(mark: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(["sleep", mark], start_new_session=True)


def test_watched_groups_die_with_the_pipe_and_released_ones_live():
    guardian = Guardian()
    watched, released = marker(), marker()
    a, b = sleeper(watched), sleeper(released)
    try:
        guardian.watch(a.pid)
        guardian.watch(b.pid)
        guardian.release(b.pid)
        os.close(guardian._write)  # what tooldrop's death does
        assert guardian.process.wait(30) == 0
        assert wait_gone(watched) == []
        assert wait_for(released)
    finally:
        kill_all(wait_gone(watched, within=0) + wait_gone(released, within=0))
        a.wait()
        b.wait()


# The list bookkeeping, in every shell the guardian may run under: ids that are prefixes of
# one another, and cgroup paths with spaces.
LINES = "+12\n+123\n-12\n+7\nc+/a b/x\nc+/y\nc-/a b/x\n-999\nc-/nope\n"


@pytest.mark.parametrize("shell", ["dash", "bash", "sh", "busybox"])
def test_the_guardians_bookkeeping(shell):
    path = shutil.which(shell)
    if path is None:
        pytest.skip(f"no {shell}")
    argv = [path, "sh"] if shell == "busybox" else [path]
    script = GUARDIAN_SCRIPT.replace(
        'for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done', 'echo "groups=[$groups]"'
    ).replace(
        'for c in $cgroups; do echo 1 2>/dev/null >"$c/cgroup.kill"; done',
        'for c in $cgroups; do echo "cgroup=[$c]"; done',
    )
    assert script != GUARDIAN_SCRIPT
    done = subprocess.run(
        [*argv, "-c", script], input=LINES, capture_output=True, text=True, timeout=30, check=True
    )
    assert done.stdout.splitlines() == ["groups=[ 123 7 ]", "cgroup=[/y]"]
