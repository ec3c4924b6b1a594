"""``tooldrop serve`` stopped by SIGTERM, SIGHUP or SIGINT: calls cancelled, groups killed, 128+N.

SIGTERM is how MCP clients stop a server. Python's default would end the process at once and
leave the tools it was running orphaned (each leads its own session, out of the signal's
reach). Here the event loop receives the signal (``loop.add_signal_handler`` under anyio: the
handler runs as an ordinary callback, so it may take locks), cancels every running call
(:func:`tooldrop.stop_all`; the shell backend stops each process group: SIGTERM,
grace period, SIGKILL), waits for those calls to return, and hands over to ``finish``, which
closes the hosts and ends the process with ``128 + N``.

``finish`` must end the process itself (``os._exit``): the SDK's stdio transport reads stdin
on a worker thread that no cancellation can interrupt, and the client that sent SIGTERM
usually still holds stdin open, so an orderly return from the event loop would wait for ever.
Everything that matters (the tools' processes, the hosts) is done by then.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Awaitable, Callable
from typing import NoReturn

import anyio

from tooldrop import running_calls, stop_all

__all__ = ["DRAIN_SECONDS", "STOP_SIGNALS", "serve_until_stopped"]

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name)
)
#: Seconds the cancelled calls get to return (the shell backend needs its 2 s grace period).
DRAIN_SECONDS = 10.0


async def serve_until_stopped(
    serve: Callable[[], Awaitable[None]], finish: Callable[[int], NoReturn]
) -> None:
    """Run ``serve()`` until it returns, or until a stop signal: then stop, and ``finish(N)``."""
    async with anyio.create_task_group() as group:

        async def watch() -> None:
            with anyio.open_signal_receiver(*STOP_SIGNALS) as signals:
                async for signum in signals:
                    stop_all(signum)  # every running call, and any that would start now
                    with anyio.move_on_after(DRAIN_SECONDS):
                        while running_calls():
                            await anyio.sleep(0.02)
                    finish(signum)

        if os.name == "posix":  # no loop signal handlers on Windows
            group.start_soon(watch)
        await serve()
        group.cancel_scope.cancel()
