"""Spawn a shell in its own process group, read its output, stop the whole group when asked.

One thread per call and no asyncio: the calling thread spawns the shell with
``start_new_session=True`` (never ``preexec_fn``, which disables the fast vfork path and is not
thread-safe), then waits in ``poll`` on both pipes and a self-pipe the cancel token writes to.

On timeout or cancel the group gets SIGTERM; we keep reading until the shell has exited and
the pipes are closed, for at most ``GRACE_PERIOD - DRAIN_PERIOD``; then the group gets
SIGKILL, whatever is left in the pipes is read for at most :data:`DRAIN_PERIOD` (a grandchild
that escaped the group with ``setsid`` may hold them forever) and the shell is reaped. A call
therefore returns within ``timeout + GRACE_PERIOD`` (plus the moment the kernel takes to
deliver SIGKILL).

The pieces: :mod:`._running` (the pipes and the poll), :mod:`._waker` (the self-pipe),
:mod:`._stopping` (SIGTERM, grace, SIGKILL, drain, reap).
"""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import time
from typing import Literal

from attrs import frozen

from tooldrop import CancelToken, OutputCallback

from ._capture import StreamCapture
from ._cgroup import CallCgroup, call_cgroup
from ._errors import StartError
from ._guardian import guardian
from ._running import POLL_IN, READ_SIZE, RunningProcess
from ._stopping import DRAIN_PERIOD, GRACE_PERIOD, signal_group, stop_group
from ._waker import Waker, thread_waker, woken

__all__ = ["DRAIN_PERIOD", "GRACE_PERIOD", "READ_SIZE", "Outcome", "run_process"]

Stopped = Literal["", "timeout", "cancelled"]


@frozen
class Outcome:
    """How a process ended and what it printed."""

    #: The shell's exit status; a death by signal N is ``128 + N``. ``None`` if never known.
    exit_code: int | None
    stdout: StreamCapture
    stderr: StreamCapture
    #: ``"timeout"`` or ``"cancelled"`` when we stopped it, else ``""``.
    stopped: Stopped


def _exit_code(returncode: int | None) -> int | None:
    if returncode is None:
        return None
    return 128 - returncode if returncode < 0 else returncode


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
    return str(exc)


@functools.cache
def _stdin() -> int:
    """One read-only ``/dev/null`` fd for every child's stdin, opened once, not per call."""
    return os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)


def _wait_for_exit(
    run: RunningProcess, waker: Waker, cancel: CancelToken, deadline: float
) -> Stopped:
    """The pipes are closed; wait for the shell itself to exit (it may have closed them early)."""
    if run.exited():
        return ""
    pidfd = run.watch_exit()
    while True:
        if pidfd is not None:
            ready = run.poll(deadline, pidfd)
            if waker.r in ready and woken(waker, cancel):
                return "cancelled"
            if pidfd in ready:
                return ""  # not reaped yet: its pid stays the group's id until we kill the rest
        else:  # no pidfd: look at the child, a few times a second
            ready = run.poll(min(deadline, time.monotonic() + 0.05))
            if waker.r in ready and woken(waker, cancel):
                return "cancelled"
            if run.exited():
                return ""
        if time.monotonic() >= deadline:
            return "timeout"


def run_process(
    argv: list[str],
    *,
    cwd: str,
    env: dict[str, str] | None,
    timeout: float,
    cancel: CancelToken,
    keep: int,
    pass_fds: tuple[int, ...] = (),
    keep_background: bool = False,
    on_output: OutputCallback | None = None,
) -> Outcome:
    """Run ``argv`` with stdin closed and both outputs captured, and say how it ended.

    When the call has ended, whatever is left in its process group (``cmd &``) is killed,
    unless ``keep_background``: then the call ends when the shell exits (output still
    arriving is read for :data:`DRAIN_PERIOD` more), and the group is left running.

    :param timeout: Seconds before the process group is stopped.
    :param cancel: Setting it stops the process group at once.
    :param keep: Characters kept at each end of each stream (at least the output limit).
    :param pass_fds: Descriptors the process inherits (a sandbox's seccomp filter); the
        caller still owns them.
    :param keep_background: Leave what the script started in the background running.
    :param on_output: Gets each stream's text as it is read and decoded, on this thread.
    :raises StartError: the process could not be started.
    """
    if os.name == "nt":  # pragma: no cover - Windows has no poll() on pipes
        from ._windows import run_process_windows

        return run_process_windows(
            argv,
            cwd=cwd,
            env=env,
            timeout=timeout,
            cancel=cancel,
            keep=keep,
            on_output=on_output,
        )
    with call_cgroup() as cgroup:
        return _run(
            argv, cwd, env, pass_fds, timeout, cancel, keep, keep_background, cgroup, on_output
        )


def _spawn(
    argv: list[str],
    cwd: str,
    env: dict[str, str] | None,
    pass_fds: tuple[int, ...],
    cgroup: CallCgroup | None,
) -> subprocess.Popen[bytes]:
    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            argv,
            stdin=_stdin(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
            start_new_session=True,
            bufsize=0,
            pass_fds=pass_fds,
        )

    try:
        return start() if cgroup is None else cgroup.spawn(start)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the script or env
        raise StartError(_describe(exc)) from exc


def _run(
    argv: list[str],
    cwd: str,
    env: dict[str, str] | None,
    pass_fds: tuple[int, ...],
    timeout: float,
    cancel: CancelToken,
    keep: int,
    keep_background: bool,
    cgroup: CallCgroup | None,
    on_output: OutputCallback | None,
) -> Outcome:
    deadline = time.monotonic() + timeout
    # Started before the tool, so the tool's group is known to it a moment after the spawn.
    guard = guardian()  # kills the group should tooldrop itself be killed meanwhile
    # The call's cgroup is known before the spawn, so the guardian holds it from the first
    # instant; the group's id only after (a moment in which tooldrop's death would orphan it).
    contained = str(cgroup.path) if cgroup is not None else ""
    if guard is not None and contained:
        guard.watch_cgroup(contained)
    try:
        proc = _spawn(argv, cwd, env, pass_fds, cgroup)
    except BaseException:
        if guard is not None and contained:
            guard.release_cgroup(contained)
        raise
    pgid = proc.pid  # start_new_session made the shell the leader of its own group
    if guard is not None:
        guard.watch(pgid)
    run = RunningProcess(proc, keep, on_output)
    waker = thread_waker()
    forget = cancel.add_callback(waker.wake)
    stopped: Stopped = ""
    try:
        run.poller.register(waker.r, POLL_IN)
        stopped = _read_until_done(run, waker, cancel, deadline, keep_background)
        if not stopped:
            stopped = _wait_for_exit(run, waker, cancel, deadline)
        run.poller.unregister(waker.r)  # from here on, a cancel changes nothing
        if stopped:
            stop_group(run)
        elif not keep_background:
            # The call is over: what it left in its group (`cmd &` with its output
            # redirected) goes too. The shell is not reaped yet, so the id is still ours.
            signal_group(pgid, signal.SIGKILL)
        proc.wait()
        if cgroup is not None and keep_background and not stopped:
            cgroup.release()  # the service stays, in tooldrop's own cgroup
        elif cgroup is not None:
            cgroup.kill()  # what escaped the group with setsid
    except BaseException:
        # KeyboardInterrupt, SystemExit from a stop signal, or a bug: never leave the group
        # running behind us. (Once the shell is reaped its pid may be reused, so the group is
        # only signalled before.)
        if proc.returncode is None:
            signal_group(pgid, signal.SIGKILL)
            proc.wait()
        if cgroup is not None:
            cgroup.kill()
        raise
    finally:
        forget()
        run.close()
        if guard is not None:
            guard.release(pgid)
            if contained:
                guard.release_cgroup(contained)
    return Outcome(_exit_code(proc.returncode), run.stdout, run.stderr, stopped)


def _read_until_done(
    run: RunningProcess, waker: Waker, cancel: CancelToken, deadline: float, keep_background: bool
) -> Stopped:
    """Read both pipes until they close (or, with ``keep_background``, the shell exits)."""
    drain_end: float | None = None
    pidfd = run.watch_exit() if keep_background else None
    while run.files:
        until = deadline if drain_end is None else min(deadline, drain_end)
        if keep_background and pidfd is None and drain_end is None:
            until = min(until, time.monotonic() + 0.05)  # no pidfd: look at the shell often
        ready = run.poll(until, pidfd if drain_end is None else None)
        now = time.monotonic()
        if not ready and now >= deadline:
            return "timeout"
        if waker.r in ready and woken(waker, cancel):
            return "cancelled"
        for fd in ready:
            if fd in run.files:
                run.read(fd)
        if keep_background and drain_end is None and run.exited():
            # The shell is done; a service it started may hold the pipes open for ever.
            drain_end = now + DRAIN_PERIOD
        if drain_end is not None and now >= drain_end:
            break
    return ""
