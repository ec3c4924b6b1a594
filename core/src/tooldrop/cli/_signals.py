"""SIGTERM, SIGHUP and SIGINT stop ``tooldrop call`` cleanly: the tool's processes first, then us.

``timeout``, ``kill``, a closed terminal and Ctrl-C all end a command with a signal. Left to
Python's defaults, SIGTERM and SIGHUP would kill tooldrop at once and orphan the tool's
process group (it leads its own session, so the signal never reaches it). Here the first
signal cancels every running call (:func:`tooldrop.host._lifetime.stop_all`: the shell backend
sends the group SIGTERM, waits its grace period, then SIGKILL), and the command then exits
with ``128 + N``, as a shell reports a death by signal N.

The handler itself only writes the signal's number to a pipe; a watcher thread does the
cancelling. A Python signal handler runs in the main thread between two bytecodes, maybe
while that thread holds the very lock a cancel takes (a token's, a thread start's), so it
must take none. When no call is running (the person is at the approval prompt, or tools are
being discovered) there is nothing to stop gracefully, and a second signal means "now": in
both cases the handler raises :class:`SystemExit` at once; the backend's cleanup still kills
a process group it has started (with SIGKILL) before the exception leaves it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from ..host._lifetime import running_calls, stop_all, stopped_by

__all__ = ["STOP_SIGNALS", "exit_status", "handle_stop_signals", "say_stopped", "signal_name"]

#: The signals that stop a command: each ends it with status ``128 + N``.
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name)
)


def exit_status(signum: int) -> int:
    """The exit status for a stop by signal ``signum``: ``128 + N``, as shells report it."""
    return 128 + signum


def signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def say_stopped(signum: int) -> None:
    """One line on stderr; a closed terminal (SIGHUP) cannot take it, and that is fine."""
    with contextlib.suppress(OSError, ValueError):
        print(f"tooldrop: stopped by {signal_name(signum)}", file=sys.stderr, flush=True)


@contextmanager
def handle_stop_signals() -> Iterator[None]:
    """While the block runs, a stop signal cancels the running calls instead of killing us.

    After the block, :func:`tooldrop.host._lifetime.stopped_by` says whether a signal came; the
    caller exits with :func:`exit_status` then. Only the main thread can install handlers;
    elsewhere (a test runner's worker thread) the block runs with the handlers as they are.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)

    def watch() -> None:
        try:
            data = os.read(read_end, 1)
        except OSError:
            return
        if data:
            stop_all(data[0])

    def handler(signum: int, frame: FrameType | None) -> None:
        first = stopped_by()
        if first is not None:  # a second signal: go now, SIGKILL for what still runs
            raise SystemExit(exit_status(first))
        if running_calls() == 0:  # nothing to stop gracefully (a prompt, discovery): go now
            stop_all(signum)  # records the signal; with no call running it takes no lock
            raise SystemExit(exit_status(signum))
        with contextlib.suppress(OSError):  # full: a byte is already there
            os.write(write_end, bytes([signum]))

    watcher = threading.Thread(target=watch, name="tooldrop-signals", daemon=True)
    watcher.start()
    previous = {signum: signal.signal(signum, handler) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)
        os.close(write_end)  # the watcher reads EOF and ends
        watcher.join(1)
        os.close(read_end)
