"""The ``serve`` options for HTTP, and turning them into a running server.

Imported by the plugin for every ``tooldrop`` command, so nothing heavy at import time: the
SDK, Starlette and uvicorn load only when ``serve --http`` runs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from tooldrop import Mode, ToolHost

__all__ = ["http_options", "run_http"]

F = TypeVar("F", bound=Callable[..., Any])


def http_options(command: F) -> F:
    options = [
        click.option(
            "--http", "http", metavar="[HOST:PORT]", is_flag=False, flag_value="127.0.0.1:8765",
            default=None,
            help="Serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio "
            "(default 127.0.0.1:8765; port 0 picks a free one).",
        ),
        click.option(
            "--token-file", type=click.Path(dir_okay=False, path_type=Path), default=None,
            help="Bearer tokens clients must present, one per line (`id: token` or `token`). "
            "Also read from $TOOLDROP_SERVE_TOKENS. Required to listen beyond loopback.",
        ),
        click.option(
            "--stateless", is_flag=True,
            help="No sessions: any replica answers any request (no elicitation, no "
            "notifications; clients get headless rules).",
        ),
        click.option(
            "--allow-host", multiple=True, metavar="HOST[:*]",
            help="A Host header to accept besides the bind address (a DNS name, a proxy's).",
        ),
        click.option(
            "--allow-origin", multiple=True, metavar="ORIGIN",
            help="A browser origin allowed to call (enables CORS for it). Default: none.",
        ),
        click.option("--max-body", type=click.IntRange(min=1), default=4 * 1024 * 1024,
                     show_default=True, help="Bytes in one HTTP request body."),
        click.option("--max-arguments", type=click.IntRange(min=2), default=1024 * 1024,
                     show_default=True, help="Bytes of one call's arguments (JSON)."),
        click.option("--calls-per-session", type=click.IntRange(min=1), default=64,
                     show_default=True, help="Calls running at once in one session."),
        click.option("--calls-total", type=click.IntRange(min=1), default=1024,
                     show_default=True, help="Calls running at once in this process."),
        click.option("--max-sessions", type=click.IntRange(min=1), default=1000,
                     show_default=True, help="Sessions open at once."),
        click.option("--session-idle", type=click.FloatRange(min=0, min_open=True),
                     default=1800.0, show_default=True,
                     help="Seconds without a request before a session is closed."),
        click.option("--grace", type=click.FloatRange(min=0), default=10.0, show_default=True,
                     help="On SIGTERM, seconds running calls get before they are cancelled."),
    ]  # fmt: skip
    for option in reversed(options):
        command = option(command)
    return command


def run_http(
    host_for: Callable[[Mode], ToolHost],
    mode: Mode | None,
    poll_interval: float,
    skill: str | None,
    http: dict[str, Any],
) -> None:
    """Check the options, then serve until SIGTERM; usage errors exit 2 before listening."""
    from ._auth import TokenError, load_tokens
    from ._guard import is_loopback, parse_bind
    from ._http import HttpOptions, HttpToolServer, serve_http
    from ._limits import Limits
    from ._server import _log

    try:
        bind = parse_bind(http["http"])
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--http") from None
    try:
        tokens, warnings = load_tokens(http["token_file"])
    except TokenError as exc:
        raise click.UsageError(str(exc)) from None
    for warning in warnings:
        _log(warning)
    if not tokens and not is_loopback(bind.host):
        raise click.UsageError(
            f"refusing to listen on {bind.host} without authentication: anyone who can reach "
            "it could run your tools. Give --token-file FILE (or set $TOOLDROP_SERVE_TOKENS), "
            "or listen on 127.0.0.1."
        )
    limits = Limits(
        max_body=http["max_body"],
        max_arguments=http["max_arguments"],
        calls_per_session=http["calls_per_session"],
        calls_total=http["calls_total"],
        max_sessions=http["max_sessions"],
        session_idle=http["session_idle"],
    )
    options = HttpOptions(
        bind=bind,
        tokens=tokens,
        stateless=http["stateless"],
        allow_hosts=list(http["allow_host"]),
        allow_origins=list(http["allow_origin"]),
        limits=limits,
        grace=http["grace"],
    )
    server = HttpToolServer(
        host_for,
        mode=mode,
        poll_interval=poll_interval,
        limits=limits,
        skill=skill,
        stateless=options.stateless,
    )
    serve_http(server, options)
