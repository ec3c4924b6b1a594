"""``call``: validate, approve and run one tool, printing exactly what the model would see."""

from __future__ import annotations

import click

__all__ = ["call_command"]


@click.command("call")
@click.argument("name")
def call_command(name: str) -> None:
    """Call tool NAME and print the text the model would see."""
    raise click.ClickException("not implemented yet")
