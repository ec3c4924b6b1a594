"""A cancel token that works from threads and from asyncio alike."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

__all__ = ["CancelToken"]


class CancelToken:
    """Set once when a call is cancelled or times out.

    It quacks like :class:`threading.Event` (``is_set``, ``wait``) so a sync tool can poll or
    block on it, offers :meth:`wait_async` for async tools, and runs callbacks so a backend
    blocked in ``select`` can be woken the moment it is set.
    """

    __slots__ = ("_callbacks", "_event", "_lock", "_set", "reason")

    def __init__(self) -> None:
        # Every call gets a token and few are ever waited on: the Event is made on demand.
        self._event: threading.Event | None = None
        self._set = False
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], object]] = []
        #: Why it was set: ``"cancelled"`` or ``"timeout"``.
        self.reason = ""

    def cancel(self, reason: str = "cancelled") -> None:
        """Set the token (idempotent) and run the callbacks once."""
        with self._lock:
            if self._set:
                return
            self.reason = reason
            self._set = True
            if self._event is not None:
                self._event.set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            # One failing observer must not stop the others.
            with contextlib.suppress(Exception):
                callback()

    @property
    def cancelled(self) -> bool:
        return self._set

    def is_set(self) -> bool:
        return self._set

    def wait(self, timeout: float | None = None) -> bool:
        """Block until set or ``timeout`` seconds pass; return whether it is set."""
        with self._lock:
            if self._set:
                return True
            if self._event is None:
                self._event = threading.Event()
            event = self._event
        return event.wait(timeout)

    async def wait_async(self) -> None:
        """Return once the token is set, without blocking the event loop."""
        if self._set:
            return
        import asyncio  # here, not at the top: importing tooldrop should not cost asyncio

        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()

        def resolve() -> None:
            if not future.done():
                future.set_result(None)

        def wake() -> None:
            loop.call_soon_threadsafe(resolve)

        remove = self.add_callback(wake)
        try:
            await future
        finally:
            remove()

    def add_callback(self, callback: Callable[[], object]) -> Callable[[], None]:
        """Run ``callback`` when the token is set (at once if it already is).

        Returns a function that removes the callback again.
        """
        with self._lock:
            if not self._set:
                self._callbacks.append(callback)
                return lambda: self._remove(callback)
        callback()
        return lambda: None

    def _remove(self, callback: Callable[[], object]) -> None:
        with self._lock:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

    def __repr__(self) -> str:
        state = f"set ({self.reason})" if self.cancelled else "unset"
        return f"<CancelToken {state}>"
