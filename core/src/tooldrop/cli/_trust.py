"""``trust``: trust (or stop trusting) this project's tools."""

from __future__ import annotations

import click

__all__ = ["trust_command"]


@click.command("trust")
def trust_command() -> None:
    """Trust this project's tools so they may run under their own approval policy."""
    raise click.ClickException("not implemented yet")
