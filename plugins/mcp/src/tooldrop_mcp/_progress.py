"""Progress notifications: a tool's output as it comes, for a client that asked for progress.

A ``tools/call`` whose ``_meta`` holds a ``progressToken`` gets ``notifications/progress``
while the tool runs, each with the output printed since the last one as its ``message`` (the
host's ``on_output``). The result is unchanged: the model's framed, bounded text. A client
that sends no token gets nothing more than before.

The output arrives on the worker thread that runs the call; it is handed to the event loop
and sent by one task, in order, a notification at a time: what piles up while one is being
sent goes in the next, cut to its last :data:`MAX_MESSAGE` characters (a person watching
needs the latest lines; the model gets the whole text in the result).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import mcp_types as types

from tooldrop import OutputCallback

__all__ = ["MAX_MESSAGE", "output_progress"]

#: The longest ``message`` of one progress notification, in characters.
MAX_MESSAGE = 4000
#: Seconds to finish sending what the tool printed once the call has ended.
_FLUSH_TIMEOUT = 5.0


@asynccontextmanager
async def output_progress(ctx: Any) -> AsyncIterator[OutputCallback | None]:
    """``on_output`` for the call of request ``ctx``, or ``None`` when the client sent no
    progress token. Every notification is sent before the block ends (or given up after
    :data:`_FLUSH_TIMEOUT` seconds: a client that stopped reading does not hold the result)."""
    token = (ctx.meta or {}).get("progress_token")
    if token is None:
        yield None
        return
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def on_output(text: str, stream: str) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, text)

    async def send() -> None:
        sent = 0
        done = False
        while not done:
            first = await queue.get()
            if first is None:
                return
            parts = [first]
            while not queue.empty():
                more = queue.get_nowait()
                if more is None:
                    done = True
                    break
                parts.append(more)
            message = "".join(parts)
            sent += len(message)
            if len(message) > MAX_MESSAGE:
                message = "…" + message[-(MAX_MESSAGE - 1) :]
            notification = types.ProgressNotification(
                params=types.ProgressNotificationParams(
                    progress_token=token, progress=sent, message=message
                )
            )
            try:
                await ctx.session.send_notification(notification, ctx.request_id)
            except Exception:  # noqa: BLE001 - the client went away: the result will say the rest.
                return

    sender = asyncio.create_task(send())
    try:
        yield on_output
    finally:
        # The call has returned: whatever it printed is already queued (handed over before
        # the call's own result reached this loop).
        queue.put_nowait(None)
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(sender), _FLUSH_TIMEOUT)
        sender.cancel()
