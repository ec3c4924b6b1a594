"""What one HTTP server takes before it says no, and how it says it.

Every refusal is a JSON-RPC error object a client can read: in the HTTP body (with a status
code) when the request never reaches MCP, as the ``tools/call`` error otherwise. A refused
call never queues: a client that is told "busy" can retry, one left waiting cannot tell a
slow tool from a stuck server.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from attrs import frozen
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, INVALID_REQUEST, ErrorData, JSONRPCError
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "BUSY",
    "SHUTTING_DOWN",
    "BodyLimit",
    "CallGate",
    "Limits",
    "arguments_size",
    "check_arguments",
    "error_response",
]

#: JSON-RPC "server error" codes (the -32000..-32099 range is the implementation's).
BUSY = -32001
SHUTTING_DOWN = -32002


@frozen(kw_only=True)
class Limits:
    """The server's limits; ``None`` means no limit."""

    #: Bytes in one HTTP request body.
    max_body: int = 4 * 1024 * 1024
    #: Bytes of one call's arguments, as compact JSON.
    max_arguments: int = 1024 * 1024
    #: Calls running at once for one session (in stateless mode: for one token).
    calls_per_session: int = 64
    #: Calls running at once in this process.
    calls_total: int = 1024
    #: Seconds without a request after which a session is closed.
    session_idle: float | None = 30 * 60
    #: Sessions open at once.
    max_sessions: int | None = 1000


def error_response(status: int, code: int, message: str) -> Response:
    """An HTTP answer whose body is a JSON-RPC error (no request id: the request was not read)."""
    body = JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=code, message=message))
    return Response(
        body.model_dump_json(by_alias=True, exclude_unset=True),
        status_code=status,
        media_type="application/json",
    )


class BodyLimit:
    """Refuse a body over ``limit`` bytes with 413 and a JSON-RPC error, before anything parses it.

    A declared ``Content-Length`` over the limit is refused unread; a chunked body is counted
    as it arrives. The body is buffered (it is small: at most ``limit``) and replayed.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    def _refusal(self) -> Response:
        return error_response(
            413,
            INVALID_REQUEST,
            f"Request body too large: this server takes at most {self.limit} bytes",
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await error_response(400, INVALID_REQUEST, "Bad Content-Length")(
                        scope, receive, send
                    )
                    return
                if declared > self.limit:
                    await self._refusal()(scope, receive, send)
                    return
        body = bytearray()
        messages: list[Message] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                messages.append(message)
                break
            body += message.get("body", b"")
            if len(body) > self.limit:
                await self._refusal()(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        messages.insert(0, {"type": "http.request", "body": bytes(body), "more_body": False})

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


def arguments_size(arguments: Mapping[str, Any] | None) -> int:
    """The size of the arguments as compact JSON, the way they would be sent."""
    if not arguments:
        return 2
    text = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"), default=str)
    return len(text.encode())


def check_arguments(arguments: Mapping[str, Any] | None, limit: int | None) -> None:
    """Raise the JSON-RPC error for arguments over ``limit`` bytes."""
    if limit is None:
        return
    size = arguments_size(arguments)
    if size > limit:
        raise MCPError(
            INVALID_PARAMS, f"Arguments too large: {size} bytes; this server takes at most {limit}"
        )


class CallGate:
    """Counts running calls, per session and in total; a call over either limit is refused.

    Only touched from the event loop's thread, so plain counters are enough.
    """

    def __init__(self, per_session: int | None, total: int | None) -> None:
        self.per_session, self.total = per_session, total
        self.running = 0
        self._by_session: dict[str, int] = {}

    def acquire(self, session: str) -> None:
        """Count a call in, or raise the JSON-RPC error saying which limit it hit."""
        mine = self._by_session.get(session, 0)
        if self.total is not None and self.running >= self.total:
            raise MCPError(
                BUSY,
                f"Server busy: {self.running} calls are running "
                f"(at most {self.total}); retry later",
            )
        if self.per_session is not None and mine >= self.per_session:
            raise MCPError(
                BUSY,
                f"Too many calls at once: this session has {mine} running "
                f"(at most {self.per_session}); wait for one to finish",
            )
        self.running += 1
        self._by_session[session] = mine + 1

    def release(self, session: str) -> None:
        self.running -= 1
        left = self._by_session[session] - 1
        if left:
            self._by_session[session] = left
        else:
            del self._by_session[session]
