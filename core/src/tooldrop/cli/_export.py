"""``schema``: export tool definitions for a provider's API."""

from __future__ import annotations

import click

__all__ = ["schema_command"]


@click.command("schema")
def schema_command() -> None:
    """Export the available tools' definitions as JSON."""
    raise click.ClickException("not implemented yet")
