"""Stopping a call's process group: SIGTERM, a grace period in which its output is still
read, SIGKILL, a bounded drain of the pipes, and the reaping of the shell.

The shell is the leader of its own group (``start_new_session``) and is reaped only after
the group is signalled, so its pid, the group's id, cannot have been reused meanwhile.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time

from ._running import RunningProcess

__all__ = ["DRAIN_PERIOD", "GRACE_PERIOD", "signal_group", "stop_group"]

#: Seconds from SIGTERM to the stopped call's return, at the latest: the group has
#: ``GRACE_PERIOD - DRAIN_PERIOD`` to exit on its own before SIGKILL.
GRACE_PERIOD = 2.0
#: Seconds we keep reading after SIGKILL before we stop listening to the pipes.
DRAIN_PERIOD = 0.25
#: Seconds we wait for a SIGKILLed shell to be reaped before leaving it to ``subprocess``.
_REAP_TIMEOUT = 1.0


def signal_group(pgid: int, signum: int) -> None:
    """Send ``signum`` to the group ``pgid``, if anything is left in it."""
    # ProcessLookupError: the group is gone. PermissionError: only zombies left (macOS).
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


def stop_group(run: RunningProcess) -> None:
    """SIGTERM the group, grace period, SIGKILL, bounded drain, reap."""
    pgid = run.proc.pid  # start_new_session made the shell the leader of its own group
    signal_group(pgid, signal.SIGTERM)
    grace_end = time.monotonic() + GRACE_PERIOD - DRAIN_PERIOD
    pidfd = run.watch_exit()
    exited = False
    while True:
        now = time.monotonic()
        if now >= grace_end:
            break
        if not exited:
            exited = run.exited()
        if exited and not run.files:
            break
        if exited or pidfd is not None:
            ready = run.poll(grace_end, None if exited else pidfd)
        else:  # no pidfd: look at the shell again a few times a second
            ready = run.poll(min(grace_end, now + 0.05))
        for fd in ready:
            if fd in run.files:
                run.read(fd)
    # Whatever ignored SIGTERM, or outlived the shell without holding the pipes, goes now.
    # The shell is not reaped yet, so its pid cannot have been reused as another group's id.
    signal_group(pgid, signal.SIGKILL)
    drain_end = time.monotonic() + DRAIN_PERIOD
    while run.files and time.monotonic() < drain_end:
        for fd in run.poll(drain_end):
            if fd in run.files:
                run.read(fd)
    # Stuck in the kernel (rare): subprocess reaps it on a later Popen.
    with contextlib.suppress(subprocess.TimeoutExpired):
        run.proc.wait(_REAP_TIMEOUT)
