"""``render`` and ``new``: write and try tool files without running them."""

from __future__ import annotations

import click

__all__ = ["new_command", "render_command"]


@click.command("render")
@click.argument("name")
def render_command(name: str) -> None:
    """Print the script NAME would run; nothing is executed."""
    raise click.ClickException("not implemented yet")


@click.command("new")
@click.argument("name")
def new_command(name: str) -> None:
    """Scaffold a new tool file; never overwrites."""
    raise click.ClickException("not implemented yet")
