"""``grants``: list the remembered "always allow" grants, and revoke them."""

from __future__ import annotations

from typing import Any

import click

from ..host._host import ToolHost
from ..policy._grants import Grant
from ._context import CliContext, pass_cli
from ._format import echo_json, grant_state, place_text, shown_path

__all__ = ["grants_command"]


def _status(grant: Grant, host: ToolHost) -> str:
    """What the grant does for this host: applies, waits for trust, or nothing here."""
    if not host.grants.is_here(grant):
        return "another project" if grant.scope == "project" else "another config dir"
    spec = host.get(grant.name)
    if spec is None or host.grants.place_of(spec) != (grant.scope, grant.place):
        return "no such tool here"
    if spec.origin.content_hash != grant.hash:
        return "the tool changed since (does not apply)"
    return grant_state(spec, host, True) or "does not apply (asks on every call)"


def _grant_json(grant: Grant, host: ToolHost) -> dict[str, Any]:
    status = _status(grant, host)
    return {
        **grant.to_json(),
        "here": host.grants.is_here(grant),
        "applies": status == "applies",
        "status": status,
    }


@click.command("grants")
@click.option("--json", "as_json", is_flag=True, help="Print the grants as JSON.")
@click.option(
    "--revoke",
    "revoke",
    multiple=True,
    metavar="NAME",
    help="Forget the grants of tool NAME given here (this project, your personal tools, "
    "plugins). Repeatable.",
)
@click.option(
    "--revoke-all", is_flag=True, help="Forget every grant, in every project (and old ones)."
)
@pass_cli
def grants_command(
    ctx: CliContext, as_json: bool, revoke: tuple[str, ...], revoke_all: bool
) -> None:
    """List remembered "always allow" grants, or revoke them.

    A grant covers one version of one tool (its content hash) in the place it was given: the
    project (its resolved root), your personal tools, or a plugin's tools. It never bypasses
    project trust: an untrusted project's tools ask on every call, granted or not. Editing a
    tool's file voids its grant.
    """
    host = ctx.host
    store = host.grants
    if revoke or revoke_all:
        gone: list[Grant] = []
        if revoke_all:
            gone = store.revoke(everywhere=True)
        for name in revoke:
            gone.extend(store.revoke(name))
        if as_json:
            echo_json({"revoked": [g.to_json() for g in gone]})
            return
        for name in revoke:
            if not any(g.name == name for g in gone):
                click.echo(f"No grant for {name} here.", err=True)
        for grant in gone:
            click.echo(f"Revoked {grant.name} ({place_text(grant.scope, grant.place)}).")
        if revoke_all:
            click.echo(f"Revoked every grant ({len(gone)}).")
        return
    grants = store.all()
    notices = store.notices()
    if as_json:
        echo_json(
            {
                "path": str(store.path),
                "grants": [_grant_json(g, host) for g in grants],
                "notices": [n.message for n in notices],
            }
        )
        return
    click.echo(f"Grants ({len(grants)}) · {shown_path(store.path)}")
    if not grants:
        click.echo("  (none: answer [a] always allow at a prompt to remember one)")
    width = max((len(g.name) for g in grants), default=0)
    for grant in sorted(grants, key=lambda g: (not store.is_here(g), g.scope, g.place, g.name)):
        click.echo(
            f"  {grant.name:<{width}}  {place_text(grant.scope, grant.place)}  "
            f"{grant.hash[:12]}  {grant.granted_at or '-'}  {_status(grant, host)}"
        )
    for notice in notices:
        click.echo(f"\n{notice.message}", err=True)
