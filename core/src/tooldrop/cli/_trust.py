"""``trust``: trust (or stop trusting) this project's tools (DESIGN §7.3)."""

from __future__ import annotations

import sys

import click

from ._call import setting_lines
from ._context import CliContext, pass_cli
from ._format import allowed, echo_json, shown_path

__all__ = ["trust_command"]


@click.command("trust")
@click.option("--revoke", is_flag=True, help="Stop trusting this project's tools.")
@click.option(
    "--status", is_flag=True, help="Only say whether the project is trusted (exit 1: not)."
)
@click.option(
    "--json", "as_json", is_flag=True, help='With --status: {"project", "trusted", "tools"}.'
)
@pass_cli
def trust_command(ctx: CliContext, revoke: bool, status: bool, as_json: bool) -> None:
    """Trust this project's tools, as they are now, to run under their own approval policy.

    Until then every project tool asks before each call (in every mode) and headless and plan
    modes hide them. Editing, adding or removing a project tool, or editing the project's
    config.yaml, voids the trust. --status exits 0 when trusted, 1 when not; --json
    implies --status.
    """
    host = ctx.host
    where = shown_path(host.project_tools_dir)
    project = sorted(
        (s for s in host.all_tools() if s.origin.scope == "project"), key=lambda s: s.name
    )
    names = [s.name for s in project]
    if status or as_json:
        trusted = host.is_trusted()
        if as_json:
            echo_json({"project": where, "trusted": trusted, "tools": names})
        else:
            state = "trusted" if trusted else "not trusted"
            click.echo(f"{where}: {state} ({len(names)} project tool{'s' * (len(names) != 1)})")
        sys.exit(0 if trusted else 1)  # scripts ask `if tooldrop trust --status; then`
    if revoke:
        if host.revoke_trust():
            click.echo(f"No longer trusting the tools in {where}.")
        else:
            click.echo(f"The tools in {where} were not trusted.")
        return
    host.trust()
    listed = ", ".join(names) if names else "none yet"
    click.echo(f"Trusted the {len(names)} tool{'s' * (len(names) != 1)} in {where}: {listed}.")
    if host.sandbox == "off" and project:
        click.echo("The sandbox is off: they run with your full rights (see --sandbox).")
    for spec in project:  # what a script alone does not show: what it may do, where, its env
        lines = setting_lines(spec, "  ")
        if host.sandbox != "off" or spec.network or spec.writable:
            lines.insert(0, f"  Allowed: {allowed(spec, host)}")
        if lines:
            click.echo(f"{spec.name}:")
            click.echo("\n".join(lines))
    click.echo("Editing any of them (or the project's config.yaml) voids the trust.", err=True)
