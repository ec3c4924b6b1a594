"""The ``mcp`` plugin: adds ``tooldrop serve``, an MCP server on stdio.

The ``mcp`` SDK is imported only when ``serve`` runs: this module is loaded for every
``tooldrop`` command, and the SDK takes a second or two to import. Click and the CLI are
imported only when the CLI asks for commands: an app embedding ``ToolHost`` loads this
module through its entry point too, and needs neither.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, NoReturn, cast

from tooldrop import MODES, Mode, ToolHost, hookimpl

if TYPE_CHECKING:
    import click


def _explicit_mode(ctx: click.Context, mode: str | None) -> Mode | None:
    """``serve --mode``, else the global ``--mode`` when it was given, else ``None``."""
    from click.core import ParameterSource

    if mode is not None:
        return cast(Mode, mode)
    root = ctx.find_root()
    source = root.get_parameter_source("mode")
    if source in (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP):
        return None
    return cast(Mode, root.params["mode"])


@hookimpl
def tooldrop_register_commands(cli: click.Group) -> None:
    import click

    from tooldrop.cli import CliContext

    from ._cli_http import http_options

    @cli.command("serve")
    @click.option(
        "--mode",
        type=click.Choice(MODES),
        default=None,
        help="Approval mode for every client. Default: normal for clients that can be asked "
        "(MCP elicitation), headless for the others.",
    )
    @click.option(
        "--poll-interval",
        type=click.FloatRange(min=0),
        default=1.0,
        show_default=True,
        help="Seconds between checks of the tools dirs for added or changed tools; 0: never.",
    )
    @click.option(
        "--skill",
        metavar="NAME",
        default=None,
        help="Serve what skill bundle NAME's agent is offered (its scoped tools included), "
        "not the main agent's tools: for a subagent running as its own MCP client.",
    )
    @http_options
    @click.pass_context
    def serve(
        ctx: click.Context,
        /,
        mode: str | None,
        poll_interval: float,
        skill: str | None,
        **http: Any,
    ) -> None:
        """Serve every available tool over MCP on stdio.

        Register it with an MCP client as the command `tooldrop --project DIR serve`.
        Stdout carries only the protocol; messages for people go to stderr.

        With --http, serve many clients over MCP's Streamable HTTP transport at
        http://HOST:PORT/mcp instead; see docs/mcp.md, "Serving over HTTP".
        """
        import anyio

        from tooldrop.cli import exit_status, say_stopped

        from ._server import ToolServer
        from ._signals import serve_until_stopped

        cli_ctx = ctx.find_object(CliContext)
        if cli_ctx is None:  # pragma: no cover - serve always runs under the tooldrop group
            raise click.UsageError("serve must run as `tooldrop serve`")
        contexts: list[CliContext] = []
        if skill is not None:
            cli_ctx.selected_skill(skill)  # an unknown bundle: exit 1 now, not serve nothing

        def host_for(host_mode: Mode) -> ToolHost:
            context = CliContext(
                project=str(cli_ctx.project),
                user_dir=cli_ctx.user_dir,
                app=cli_ctx.app,
                mode=host_mode,
                plugin_set=cli_ctx.plugin_set,
            )
            contexts.append(context)
            host = context.host
            for problem in context.settings_problems:
                click.echo(f"tooldrop serve: {problem}", err=True)
            return host

        if http["http"] is not None:
            from ._cli_http import run_http

            try:
                run_http(host_for, _explicit_mode(ctx, mode), poll_interval, skill, http)
            finally:
                for context in contexts:
                    context.close()
            return
        stray = [k for k in ("token_file", "stateless", "allow_host", "allow_origin") if http[k]]
        if stray:
            option = "--" + stray[0].replace("_", "-")
            raise click.UsageError(f"{option} applies to --http only")
        server = ToolServer(
            host_for, mode=_explicit_mode(ctx, mode), poll_interval=poll_interval, skill=skill
        )

        def finish(signum: int) -> NoReturn:
            """Stopped by a signal, the calls cancelled and returned: close up, exit 128+N."""
            for context in contexts:
                context.close()
            say_stopped(signum)
            os._exit(exit_status(signum))  # stdin's reader thread would hold up a return

        try:
            anyio.run(serve_until_stopped, server.run_stdio, finish)
        except KeyboardInterrupt:
            pass
        finally:
            for context in contexts:
                context.close()
