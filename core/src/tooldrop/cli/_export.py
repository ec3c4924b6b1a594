"""``schema``: export tool definitions for a provider's API."""

from __future__ import annotations

import click

from ._context import CliContext, pass_cli
from ._format import echo_json, problem_line

__all__ = ["schema_command"]


@click.command("schema")
@click.option(
    "--format",
    "fmt",
    default="openai",
    show_default=True,
    help="openai (Chat Completions), openai-responses, anthropic, gemini, mcp, "
    "or a format a plugin adds (`tooldrop plugins` shows which).",
)
@pass_cli
def schema_command(ctx: CliContext, fmt: str) -> None:
    """Export the available tools' definitions as JSON.

    The JSON list goes to stdout, ready to send as the API's tools. Tools left out (a name the
    target refuses) and notes (why a tool is not strict) go to stderr.
    """
    known = ctx.host.exporters()
    if fmt not in known:
        choices = ", ".join(known)
        raise click.BadParameter(f"{fmt!r} is not one of {choices}", param_hint="'--format'")
    exported = ctx.host.export(fmt)
    echo_json(list(exported))
    for problem in exported.problems:
        click.echo(problem_line(problem), err=True)
    failing = [p for p in [*ctx.settings_problems, *ctx.host.problems()] if p.severity == "error"]
    if failing:
        count = len(failing)
        click.echo(
            f"{count} load problem{'s' * (count != 1)}: some tools may be missing "
            "(see `tooldrop check`)",
            err=True,
        )
