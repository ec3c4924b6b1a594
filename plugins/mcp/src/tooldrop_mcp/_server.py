"""The MCP server: every available tool, called through the host's own pipeline.

Built on the official SDK's low-level :class:`mcp.server.lowlevel.Server`: our tools carry a
ready-made JSON Schema, and our pipeline validates arguments itself, so a bad call comes back
as an ``isError`` result with the reference-style message the model can act on (the
low-level server does no input validation of its own on stdio).

Approval: a client that declared form-mode elicitation gets normal-mode rules and is asked
(``elicitation/create`` on the 2025 wire, an ``InputRequiredResult`` on the 2026 one; see
:mod:`._elicit`); any other client gets headless rules, so it only sees tools that never need
a person. ``--mode`` fixes the mode for every client.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectSendStream
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.session import ServerSession
from mcp.server.stdio import stdio_server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp.shared.message import SessionMessage
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from tooldrop import Mode, Problem, ToolHost, ToolResult

from ._elicit import InputRound, client_can_elicit, elicitation_ask
from ._ids import message_id, recover_id
from ._progress import output_progress
from ._streams import ReadStream, WriteStream
from ._watch import signature, watched_dirs

__all__ = ["ToolServer"]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600

#: Builds the host for a mode; called once per mode the server needs.
HostFactory = Callable[[Mode], ToolHost]

_INSTRUCTIONS = (
    "Tools from tool files (tooldrop). Each call is validated against the tool's schema and "
    "approved under the user's policy before it runs; an error result explains what to fix."
)


def _log(message: str) -> None:
    print(f"tooldrop serve: {message}", file=sys.stderr, flush=True)


def _version() -> str:
    from importlib.metadata import version

    return version("tooldrop-mcp")


class ToolServer:
    """Serves a :class:`~tooldrop.ToolHost`'s tools over MCP.

    :param hosts: A host, or a factory making the host for a mode. With a factory and no
        ``mode``, the mode follows the client: ``normal`` (asking through elicitation) for a
        client that can be asked, ``headless`` otherwise.
    :param mode: The mode for every client (only with a factory).
    :param poll_interval: Seconds between checks of the tools dirs; ``0`` turns watching off.
    :param skill: Serve the agent context of this skill bundle (its agent's tools) instead of
        the main agent's.
    """

    #: Whether a prompt offers "always allow" (a grant kept on this machine). A server for
    #: remote clients turns it off: grants stay the server owner's.
    offer_always = True

    def __init__(
        self,
        hosts: ToolHost | HostFactory,
        *,
        mode: Mode | None = None,
        poll_interval: float = 1.0,
        skill: str | None = None,
    ) -> None:
        self._owns_hosts = not isinstance(hosts, ToolHost)
        if isinstance(hosts, ToolHost):
            fixed = hosts
            self._factory: HostFactory = lambda _mode: fixed
            self._mode: Mode | None = fixed.mode
        else:
            self._factory, self._mode = hosts, mode
        self.poll_interval = poll_interval
        self.skill = skill
        self._hosts: dict[Mode, ToolHost] = {}
        self._lock = threading.Lock()
        self._sessions: list[ServerSession] = []
        self._bus = InMemorySubscriptionBus()
        self._reported: set[str] = set()
        self.server: Server[Any] = Server(
            "tooldrop",
            version=_version(),
            instructions=_INSTRUCTIONS,
            lifespan=self._lifespan,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_subscriptions_listen=ListenHandler(self._bus),
        )
        self.server.add_notification_handler(
            "notifications/initialized", types.NotificationParams, self._initialized
        )

    # -- hosts ----------------------------------------------------------------------------

    def _mode_for(self, ctx: ServerRequestContext[Any]) -> tuple[Mode, bool]:
        """The mode for this request's client, and whether it can be asked."""
        can_ask = client_can_elicit(ctx.session.client_capabilities)
        if self._mode is not None:
            return self._mode, can_ask
        return ("normal" if can_ask else "headless"), can_ask

    def _host(self, mode: Mode) -> ToolHost:
        with self._lock:
            host = self._hosts.get(mode)
            if host is None:
                host = self._hosts[mode] = self._factory(mode)
                _log(f"{mode} mode, project {host.project_dir}")
                self._notice(host)
            return host

    def _notice(self, host: ToolHost) -> str:
        """Say once, on stderr, why the project's tools ask or are missing (untrusted)."""
        notice = host.untrusted_notice()
        if notice and notice not in self._reported:
            self._reported.add(notice)
            _log(notice.removeprefix("tooldrop: "))
        return notice

    async def _announce(self) -> None:
        """Before the first client: the trust notice on stderr and in the instructions.

        The host made here is the one clients that cannot be asked get (``headless``), or the
        fixed mode's: a client reads in the instructions why tools are hidden or ask.
        """
        host = await anyio.to_thread.run_sync(self._host, self._mode or "headless")
        notice = await anyio.to_thread.run_sync(host.untrusted_notice)
        self.server.instructions = f"{_INSTRUCTIONS} {notice}" if notice else _INSTRUCTIONS

    def _export(self, host: ToolHost) -> Any:
        return host.export("mcp", skill=self.skill)

    def _report(self, problems: list[Problem]) -> None:
        for problem in problems:
            line = problem.format()
            if problem.severity != "info" and line not in self._reported:
                self._reported.add(line)
                _log(line)

    # -- handlers -------------------------------------------------------------------------

    async def _initialized(self, ctx: ServerRequestContext[Any], params: Any) -> None:
        self._sessions.append(ctx.session)

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        mode, _ = self._mode_for(ctx)
        host = self._host(mode)
        exported = await anyio.to_thread.run_sync(self._export, host)
        self._report([*host.problems(), *exported.problems])
        return types.ListToolsResult(tools=[types.Tool.model_validate(d) for d in exported])

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        mode, can_ask = self._mode_for(ctx)
        ask: Any = None
        try:
            host = self._host(mode)
            if can_ask and ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
                # no server-to-client requests on the 2026 wire
                ask = InputRound(params, host, offer_always=self.offer_always)
            elif can_ask:
                ask = elicitation_ask(
                    ctx.session, ctx.request_id, host=host, offer_always=self.offer_always
                )
            async with output_progress(ctx) as on_output:
                result = await host.acall(
                    params.name, params.arguments or {}, ask=ask, skill=self.skill,
                    on_output=on_output,
                )  # fmt: skip
        except Exception as exc:  # noqa: BLE001 - a host bug is an error result, never a dead server.
            failure = f"{type(exc).__name__}: {exc}"
            text, is_error = f'Tool "{params.name}" failed in the server: {failure}', True
            self._audit(ctx, params, None)
        else:
            if isinstance(ask, InputRound) and ask.needed is not None and result.denied:
                return ask.needed
            text, is_error = result.text, result.is_error
            self._audit(ctx, params, result)
        content: list[types.ContentBlock] = [types.TextContent(type="text", text=text)]
        return types.CallToolResult(content=content, is_error=is_error)

    def _audit(
        self,
        ctx: ServerRequestContext[Any],
        params: types.CallToolRequestParams,
        result: ToolResult | None,
    ) -> None:
        """A call ended (``None``: it failed in the server); a subclass may log it."""

    # -- watching -------------------------------------------------------------------------

    @asynccontextmanager
    async def _lifespan(self, server: Server[Any]) -> AsyncIterator[dict[str, Any]]:
        async with anyio.create_task_group() as group:
            if self.poll_interval > 0:
                group.start_soon(self._watch)
            try:
                yield {}
            finally:
                group.cancel_scope.cancel()

    def _dirs(self) -> list[Any]:
        return sorted({d for host in list(self._hosts.values()) for d in watched_dirs(host)})

    async def _watch(self) -> None:
        # TOOLDROP_TRACE_WATCH=1: a line on stderr per check, once the check (and any
        # notification) is done; how a test (or a puzzled user) knows a check saw a change.
        trace = bool(os.environ.get("TOOLDROP_TRACE_WATCH"))
        seen = await anyio.to_thread.run_sync(lambda: signature(self._dirs()))
        while True:
            await anyio.sleep(self.poll_interval)
            now = await anyio.to_thread.run_sync(lambda: signature(self._dirs()))
            outcome = "nothing changed"
            if now != seen:
                seen = now
                outcome = "files changed, the tool list did not"
                if await anyio.to_thread.run_sync(self._reload):
                    await self._notify_list_changed()
                    outcome = "the tool list changed, clients told"
            if trace:
                _log(f"watch: {outcome}")

    def _reload(self) -> bool:
        """Re-scan every host; whether any tool listing changed."""
        changed = False
        for host in list(self._hosts.values()):
            before = self._export(host)
            host.reload()
            after = self._export(host)
            changed = changed or list(before) != list(after)
        return changed

    async def _notify_list_changed(self) -> None:
        await self._bus.publish(ToolsListChanged())
        for session in list(self._sessions):
            try:
                await session.send_tool_list_changed()
            except Exception:  # noqa: BLE001 - a closed session just stops getting news.
                if session in self._sessions:
                    self._sessions.remove(session)

    # -- running --------------------------------------------------------------------------

    def initialization_options(self) -> Any:
        return self.server.create_initialization_options(NotificationOptions(tools_changed=True))

    async def run(
        self,
        read_stream: ReadStream[SessionMessage | Exception],
        write_stream: WriteStream[SessionMessage],
    ) -> None:
        """Serve one connection over a stream pair until the client goes away."""
        await self._announce()
        send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        async with anyio.create_task_group() as group:
            group.start_soon(_answer_garbage, read_stream, send, write_stream)
            await self.server.run(receive, write_stream, self.initialization_options())
            group.cancel_scope.cancel()

    async def run_stdio(self) -> None:
        """Serve over this process's stdin and stdout; nothing but protocol reaches stdout."""
        async with stdio_server() as (read_stream, write_stream):
            # fd 1 now points at stderr: whatever a plugin printed before serving (still in
            # sys.stdout's buffer) lands there, not on the wire.
            sys.stdout.flush()
            with _stdout_to_stderr():
                await self.run(read_stream, write_stream)

    def close(self) -> None:
        """Close the hosts the factory made (a host passed in is the caller's to close)."""
        if self._owns_hosts:
            for host in self._hosts.values():
                host.close()


async def _answer_garbage(
    source: ReadStream[SessionMessage | Exception],
    sink: MemoryObjectSendStream[SessionMessage | Exception],
    write_stream: WriteStream[SessionMessage],
) -> None:
    """Relay messages; answer a line that is not JSON-RPC with an error, as JSON-RPC asks.

    The SDK drops such lines silently, and a client waiting for an answer would wait
    forever. The error carries the request's id when it can still be read (else ``null``);
    the connection goes on.
    """
    async with sink:
        async for item in source:
            if not isinstance(item, Exception):
                await sink.send(item)
                continue
            code, message, request_id = _classify(item)
            _log(f"{message.lower()}: a line that is not a valid JSON-RPC message")
            error = types.JSONRPCError(
                jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message)
            )
            try:
                await write_stream.send(SessionMessage(error))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return


def _classify(exc: Exception) -> tuple[int, str, types.RequestId | None]:
    """JSON-RPC's code for a bad line, and the request id when one can still be read."""
    if not isinstance(exc, ValidationError):
        return PARSE_ERROR, "Parse error", None
    errors = exc.errors()
    for error in errors:
        if error.get("type") == "json_invalid":
            # Often valid JSON the SDK's parser refuses (a 5,000-digit number is "out of
            # range"): read it again with bounded numbers, so the client gets its answer.
            line = error.get("input")
            recovered = recover_id(line) if isinstance(line, str) else None
            return PARSE_ERROR, "Parse error", recovered
    for error in errors:
        request_id = message_id(error.get("input"))
        if request_id is not None:
            return INVALID_REQUEST, "Invalid Request", request_id
    return INVALID_REQUEST, "Invalid Request", None


@contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Point ``sys.stdout`` at stderr: a stray ``print`` in a plugin cannot corrupt the wire.

    The SDK's stdio transport already moved fd 1 to stderr for child processes and C code,
    and serves the protocol from a private copy of the real stdout.
    """
    saved = sys.stdout
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stdout = saved
