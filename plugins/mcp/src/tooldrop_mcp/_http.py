"""``tooldrop serve --http``: the MCP server on the SDK's Streamable HTTP transport.

Layers, outermost first: :class:`~._guard.Guard` (Host and Origin), CORS (only with
``--allow-origin``), :class:`~._limits.BodyLimit`, bearer authentication (the SDK's
middleware with our :class:`~._auth.TokenVerifier`), then the SDK's session manager at
``/mcp``. Calls go through :class:`HttpToolServer`: the stdio server's handlers plus limits,
an audit line per call, and draining.

Shutdown (SIGTERM or SIGINT): calls not yet started are refused, running ones get ``grace``
seconds, then are cancelled (their process groups killed), then uvicorn closes what is left
and the process exits 0. A second signal skips the grace period.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from types import FrameType
from typing import Any

import anyio
import mcp_types as types
from attrs import field, frozen
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import (
    AuthenticatedUser,
    BearerAuthBackend,
    RequireAuthMiddleware,
)
from mcp.server.context import ServerRequestContext
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import Route

from tooldrop import Mode, ToolResult

from ._auth import Token, TokenVerifier
from ._guard import Bind, Guard, default_hosts
from ._limits import SHUTTING_DOWN, BodyLimit, CallGate, Limits, check_arguments
from ._server import HostFactory, ToolServer, _log

__all__ = ["HttpOptions", "HttpToolServer", "build_app", "serve_http"]

ENDPOINT = "/mcp"
#: Seconds uvicorn gives connections (open event streams) once the calls are done.
CLOSE_TIMEOUT = 1
#: Seconds a cancelled call may take to kill its processes before the server stops anyway.
KILL_TIMEOUT = 15.0


@frozen(kw_only=True)
class HttpOptions:
    bind: Bind
    tokens: list[Token]
    stateless: bool = False
    allow_hosts: list[str] = field(factory=list)
    allow_origins: list[str] = field(factory=list)
    limits: Limits = field(factory=Limits)
    grace: float = 10.0


def _caller(ctx: ServerRequestContext[Any], stateless: bool) -> tuple[str, str]:
    """Who is calling (token id) and the key of their session, from the HTTP request.

    Stateless, there are no sessions: the header is whatever the client wrote (a fresh one
    per call would dodge the per-session limit), so the token is the key.
    """
    request = ctx.request
    scope = getattr(request, "scope", None) or {}
    user = scope.get("user")
    who = user.username if isinstance(user, AuthenticatedUser) else "anonymous"
    headers = getattr(request, "headers", None)
    session = None if stateless or headers is None else headers.get("mcp-session-id")
    return who, session or f"token:{who}"


class HttpToolServer(ToolServer):
    """The stdio server's handlers, with limits, an audit log and draining."""

    offer_always = False  # a remote client never leaves a grant behind

    def __init__(
        self,
        hosts: HostFactory,
        *,
        mode: Mode | None,
        poll_interval: float,
        limits: Limits,
        skill: str | None = None,
        stateless: bool = False,
    ) -> None:
        super().__init__(hosts, mode=mode, poll_interval=poll_interval, skill=skill)
        self.stateless = stateless
        self.limits = limits
        self.gate = CallGate(limits.calls_per_session, limits.calls_total)
        self.draining = False
        self._running: set[anyio.CancelScope] = set()

    async def _initialized(self, ctx: ServerRequestContext[Any], params: Any) -> None:
        await super()._initialized(ctx, params)
        # Sessions come and go: forget this one when its connection ends, or the list of
        # sessions to notify would grow for the life of the server. (The SDK's session
        # object is per request; the connection it wraps is the session's.)
        connection = getattr(ctx.session, "_connection", None)
        if connection is not None:
            connection.exit_stack.callback(self._forget, ctx.session)

    def _forget(self, session: Any) -> None:
        if session in self._sessions:
            self._sessions.remove(session)
        _log(f"session ended ({len(self._sessions)} open)")

    async def _notify_list_changed(self) -> None:
        _log(f"tools changed: telling {len(self._sessions)} session(s)")
        await super()._notify_list_changed()

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        who, session = _caller(ctx, self.stateless)
        try:
            if self.draining:
                raise MCPError(SHUTTING_DOWN, "The server is shutting down; call again later")
            check_arguments(params.arguments, self.limits.max_arguments)
            self.gate.acquire(session)
        except MCPError as exc:
            _log(f"refused token={who} tool={params.name} reason={exc.message!r}")
            raise
        try:
            with anyio.CancelScope() as scope:  # cancelled only by a drain
                self._running.add(scope)
                try:
                    return await super()._call_tool(ctx, params)
                finally:
                    self._running.discard(scope)
        finally:
            self.gate.release(session)
        _log(f"cancelled token={who} tool={params.name} reason=shutting-down")
        text = f'Tool "{params.name}" was cancelled: the server is shutting down'
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)], is_error=True
        )

    def _audit(
        self,
        ctx: ServerRequestContext[Any],
        params: types.CallToolRequestParams,
        result: ToolResult | None,
    ) -> None:
        who, session = _caller(ctx, self.stateless)
        if result is None:
            outcome = "result=server-error"
        elif result.denied:
            reason = result.text.removeprefix("Tool call denied: ").splitlines()[0]
            outcome = f"result=denied reason={reason!r}"
        else:  # allowed (by the rules or a person), or refused before approval (bad input)
            outcome = "result=error" if result.is_error else "result=ok"
        duration = 0.0 if result is None else result.duration
        _log(
            f"call token={who} session={session[:12]} tool={params.name} {outcome} {duration:.3f}s"
        )

    def cancel_running(self) -> int:
        """Cancel every running call; how many there were."""
        for scope in list(self._running):
            scope.cancel()
        return len(self._running)


def build_app(
    server: HttpToolServer,
    options: HttpOptions,
    on_shutdown: Callable[[], None] | None = None,
) -> tuple[Starlette, StreamableHTTPSessionManager]:
    """The ASGI app serving ``server`` at ``/mcp`` with the options' protections.

    :param on_shutdown: Called once the app has stopped (every call ended), to close hosts.
    """
    limits = options.limits
    hosts: list[str] | None = [*default_hosts(options.bind), *options.allow_hosts] or None
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=hosts is not None,
        allowed_hosts=hosts or [],
        allowed_origins=list(options.allow_origins),
    )
    manager = StreamableHTTPSessionManager(
        app=server.server,
        stateless=options.stateless,
        security_settings=security,
        session_idle_timeout=limits.session_idle,
        # Ours (BodyLimit) answers first, with a JSON-RPC error; this one never fires.
        max_request_body_size=limits.max_body + 1,
        max_sessions=limits.max_sessions,
    )
    endpoint: Any = StreamableHTTPASGIApp(manager)
    middleware = [Middleware(Guard, hosts=hosts, origins=list(options.allow_origins))]
    if options.allow_origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(options.allow_origins),
                allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
                allow_headers=[
                    "Authorization",
                    "Content-Type",
                    "Accept",
                    "Last-Event-ID",
                    "Mcp-Session-Id",
                    "Mcp-Protocol-Version",
                ],
                expose_headers=["Mcp-Session-Id", "WWW-Authenticate"],
            )
        )
    middleware.append(Middleware(BodyLimit, limit=limits.max_body))
    if options.tokens:
        backend = BearerAuthBackend(TokenVerifier(options.tokens))
        middleware += [
            Middleware(AuthenticationMiddleware, backend=backend),
            Middleware(AuthContextMiddleware),
        ]
        endpoint = RequireAuthMiddleware(endpoint, required_scopes=[])

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            await server._announce()  # why an untrusted project's tools ask or are hidden
            async with manager.run():
                yield
        finally:
            if on_shutdown is not None:
                on_shutdown()

    app = Starlette(
        routes=[Route(ENDPOINT, endpoint=endpoint, methods=["GET", "POST", "DELETE"])],
        middleware=middleware,
        lifespan=lifespan,
    )
    return app, manager


def _logging() -> None:
    """uvicorn's and the SDK's warnings on stderr, in our voice; no access log."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("tooldrop serve: %(message)s"))
    for name in ("uvicorn", "mcp"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(logging.WARNING)
        logger.propagate = False


def serve_http(server: HttpToolServer, options: HttpOptions) -> None:
    """Serve until SIGTERM or SIGINT, then drain (see the module docs). Returns normally."""
    import uvicorn

    app, _manager = build_app(server, options)
    _logging()
    config = uvicorn.Config(
        app,
        host=options.bind.host,
        port=options.bind.port,
        log_config=None,
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=CLOSE_TIMEOUT,
        server_header=False,
    )
    runner = _Runner(config, server, options)
    anyio.run(runner.run)
    if runner.failed:
        raise SystemExit(1)


class _Runner:
    def __init__(self, config: Any, server: HttpToolServer, options: HttpOptions) -> None:
        import uvicorn

        outer = self
        self.server, self.options = server, options
        self.signals = 0
        self.signalled: anyio.Event | None = None
        self.failed = False

        class Uvicorn(uvicorn.Server):
            def handle_exit(self, sig: int, frame: FrameType | None) -> None:
                # Not uvicorn's: it would stop at once and re-raise the signal at the end
                # (exit status 128+N). We drain first, and a drain is a clean exit.
                outer.on_signal(sig)

            async def startup(self, sockets: Any = None) -> None:
                await super().startup(sockets)
                if self.should_exit:
                    outer.failed = True
                    return
                address = self.servers[0].sockets[0].getsockname()
                host = f"[{address[0]}]" if ":" in address[0] else address[0]
                auth = "bearer tokens" if options.tokens else "no authentication (loopback only)"
                mode = ", stateless" if options.stateless else ""
                _log(f"listening on http://{host}:{address[1]}{ENDPOINT} ({auth}{mode})")

        self.uvicorn = Uvicorn(config)

    def on_signal(self, sig: int) -> None:
        self.signals += 1
        self.server.draining = True
        if self.signalled is not None and self._loop is not None:
            self._loop.call_soon_threadsafe(self.signalled.set)
        if self.signals > 1:  # impatient: no grace
            self.options = _no_grace(self.options)

    async def run(self) -> None:
        import asyncio

        self._loop = asyncio.get_running_loop()
        self.signalled = anyio.Event()
        async with anyio.create_task_group() as group:
            group.start_soon(self._drain)
            try:
                await self.uvicorn.serve()
            except SystemExit:  # uvicorn could not start (port taken, say); it said why
                self.failed = True
            group.cancel_scope.cancel()

    async def _drain(self) -> None:
        assert self.signalled is not None
        await self.signalled.wait()
        server = self.server
        _log(f"shutting down: {server.gate.running} call(s) running, new calls refused")
        with anyio.move_on_after(self.options.grace):
            while server.gate.running and self.signals < 2:
                await anyio.sleep(0.05)
        if server.gate.running:
            _log(f"cancelling {server.cancel_running()} call(s) still running")
            with anyio.move_on_after(KILL_TIMEOUT):
                while server.gate.running:
                    await anyio.sleep(0.05)
        self.uvicorn.should_exit = True

    _loop: Any = None


def _no_grace(options: HttpOptions) -> HttpOptions:
    import attrs

    return attrs.evolve(options, grace=0.0)
