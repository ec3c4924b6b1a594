"""The ``mcp`` plugin: adds ``tooldrop serve``.

(First cut: the command exists; the server arrives with the MCP issue.) The ``mcp`` SDK is
imported only when ``serve`` runs, so other commands stay fast.
"""

from __future__ import annotations

import click

from tooldrop import hookimpl


@hookimpl
def tooldrop_register_commands(cli: click.Group) -> None:
    @cli.command("serve")
    def serve() -> None:
        """Serve every available tool over MCP on stdio."""
        raise click.ClickException("tooldrop serve is not implemented yet")
