"""A self-pipe per thread that a call's cancel token writes to, so the ``poll`` that waits
on the call's pipes returns the moment the call is cancelled."""

from __future__ import annotations

import contextlib
import os
import threading

from tooldrop import CancelToken

__all__ = ["Waker", "thread_waker", "woken"]


class Waker:
    """A self-pipe the cancel token writes to, so ``poll`` returns the moment it is set.

    One per thread, reused by every call the thread runs: a pipe costs three system calls,
    a measurable share of a 1.5 ms call. Reuse means a byte may be stale (a token set just
    as its call ended), so a wake-up only counts when the current call's token is set, and
    :meth:`drain` clears the rest. Writing and closing share a lock, so a late callback
    never writes to a closed, possibly reused, fd number.
    """

    __slots__ = ("_closed", "_lock", "r", "w")

    def __init__(self) -> None:
        self.r, self.w = os.pipe()
        os.set_blocking(self.r, False)
        os.set_blocking(self.w, False)
        self._lock = threading.Lock()
        self._closed = False

    def wake(self) -> None:
        with self._lock:
            if not self._closed:
                with contextlib.suppress(OSError):  # the pipe is full: it is awake already
                    os.write(self.w, b"!")

    def drain(self) -> None:
        with contextlib.suppress(OSError):  # BlockingIOError: empty now
            while os.read(self.r, 512):
                pass

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                os.close(self.w)
                os.close(self.r)

    def __del__(self) -> None:  # the thread that owned it has ended
        # At interpreter exit ``os`` may already be torn down; nothing is left to do then.
        with contextlib.suppress(Exception):
            self.close()


_local = threading.local()


def thread_waker() -> Waker:
    """This thread's waker, made on first use."""
    waker: Waker | None = getattr(_local, "waker", None)
    if waker is None:
        waker = _local.waker = Waker()
    return waker


def woken(waker: Waker, cancel: CancelToken) -> bool:
    """The waker fired: is it this call's cancel, or a stale byte from an earlier call?"""
    waker.drain()
    return cancel.is_set()
