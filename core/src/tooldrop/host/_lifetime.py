"""Stopping every running call at once, when the process is told to stop (SIGTERM, SIGHUP, SIGINT).

The pipeline marks each call :func:`running` while its backend runs it. :func:`stop_all` sets
every running call's cancel token (the shell backend then stops the call's process group:
SIGTERM, a grace period, SIGKILL) and makes every call that starts afterwards cancelled from
the outset, so nothing new is spawned while the process shuts down.

Plain dict operations, no lock: :func:`stop_all` runs on a watcher thread or the event loop,
and whether a call is running is read from a signal handler, where taking a lock the
interrupted code may hold would deadlock. Each step is atomic under the GIL, and the order
(register, then look at the flag; set the flag, then look at the calls) means a call that
starts as the stop comes is seen by one side or the other.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager

from ..calls._cancel import CancelToken

__all__ = ["running", "running_calls", "stop_all", "stopped_by"]

_running: dict[int, CancelToken] = {}
_keys = itertools.count()  # next() is atomic: one token may serve several calls
_stop: list[int] = []


@contextmanager
def running(token: CancelToken) -> Iterator[None]:
    """Mark the call with ``token`` as running for the duration of the block."""
    key = next(_keys)
    _running[key] = token
    try:
        if _stop:  # the process is stopping: this call is cancelled before it starts
            token.cancel()
        yield
    finally:
        _running.pop(key, None)


def running_calls() -> int:
    """How many calls are running now (safe to read from a signal handler)."""
    return len(_running)


def stop_all(signum: int) -> None:
    """Cancel every running call, and every call that starts from now on.

    :param signum: The signal that asked for it; the first one is kept (:func:`stopped_by`).
    """
    if not _stop:
        _stop.append(signum)
    for token in list(_running.values()):
        token.cancel()


def stopped_by() -> int | None:
    """The signal :func:`stop_all` was called for, or ``None`` while nothing asked to stop."""
    return _stop[0] if _stop else None
