"""Running ``python`` tools: each call in its own daemon thread, bounded by its timeout.

A Python function cannot be killed from outside. So the call runs in a fresh daemon thread
(an ``async`` tool in its own event loop there) and the caller waits for whichever comes
first: the result, the call's cancel token, or the deadline. On cancel or timeout the token
is set (and an async tool's task cancelled) and the caller returns at once; a tool that
ignores its token is abandoned, still running, and can no longer hold up the host. A fresh
thread per call (rather than a pool) means such a thread never takes a worker from others.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from .._model import ToolCall, ToolResult
from ..calls._cancel import CancelToken
from ._results import result_from_exception, result_from_value

__all__ = ["CANCELLED", "run_call", "timed_out_message"]

CANCELLED = "Tool call cancelled"


def timed_out_message(timeout_ms: int) -> str:
    return f"Custom tool timed out after {timeout_ms}ms"


async def _await(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


def _close_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel what the tool left running, then close its loop (as ``asyncio.run`` does)."""
    try:
        pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.run_until_complete(loop.shutdown_default_executor())
    finally:
        asyncio.set_event_loop(None)
        loop.close()


class _Run:
    """One call of ``execute``, made in a worker thread; ``done`` is set with ``result``."""

    __slots__ = ("args", "cancel", "done", "execute", "result", "wake")

    def __init__(
        self,
        execute: Callable[[Mapping[str, Any], CancelToken], Any],
        args: Mapping[str, Any],
        cancel: CancelToken,
        wake: threading.Event,
    ) -> None:
        self.execute = execute
        self.args = args
        self.cancel = cancel
        self.wake = wake
        self.done = threading.Event()
        self.result: ToolResult | None = None

    def _finish(self, result: ToolResult | None) -> None:
        # A result that arrives after the token was set is not reported: the call was already
        # cancelled or timed out, and the caller says so, whatever the tool did then.
        self.result = None if self.cancel.is_set() else result
        self.done.set()
        self.wake.set()

    def __call__(self) -> None:
        try:
            value = self.execute(self.args, self.cancel)
            if inspect.isawaitable(value):
                self._run_async(value)
                return
            result = result_from_value(value)
        except BaseException as exc:  # noqa: BLE001 - SystemExit too: the tool failed, say so.
            result = result_from_exception(exc)
        self._finish(result)

    def _run_async(self, awaitable: Awaitable[Any]) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)  # for tools that call asyncio.get_event_loop()
        task = loop.create_task(_await(awaitable))

        def cancel_task() -> None:
            loop.call_soon_threadsafe(task.cancel)

        remove = self.cancel.add_callback(cancel_task)
        try:
            try:
                value = loop.run_until_complete(task)
                result = result_from_value(value)
            except BaseException as exc:  # noqa: BLE001 - CancelledError and SystemExit too.
                result = result_from_exception(exc)
            finally:
                remove()
            # Report before cleaning up: work the tool left behind must not delay the result.
            self._finish(result)
        finally:
            _close_loop(loop)


def run_call(call: ToolCall) -> ToolResult:
    """Run a ``python`` tool's call and return its result, within ``spec.timeout_ms``.

    ``call.spec.payload`` is ``execute(args, cancel)`` (sync, or returning an awaitable),
    as :func:`tooldrop.to_spec` makes it. ``call.args`` are already validated.
    """
    spec = call.spec
    execute = spec.payload
    if not callable(execute):
        return ToolResult.error(f'Tool "{spec.name}" has no Python function to run')
    cancel = call.cancel
    wake = threading.Event()
    run = _Run(execute, dict(call.args), cancel, wake)
    remove = cancel.add_callback(wake.set)
    deadline = time.monotonic() + spec.timeout_ms / 1000
    # The tool sees the caller's context variables (a host's request id, a tracing span).
    context = contextvars.copy_context()
    worker = threading.Thread(
        target=context.run, args=(run,), name=f"tooldrop-python:{spec.name}", daemon=True
    )
    try:
        worker.start()
        while not run.done.is_set() and not cancel.is_set():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            wake.wait(remaining)
    finally:
        remove()
    if run.done.is_set() and run.result is not None:
        return run.result
    if cancel.is_set() and cancel.reason != "timeout":
        return ToolResult.error(CANCELLED)
    # Setting the token also cancels an async tool's task (see _Run._run_async).
    cancel.cancel("timeout")
    return ToolResult.error(timed_out_message(spec.timeout_ms), timed_out=True)
