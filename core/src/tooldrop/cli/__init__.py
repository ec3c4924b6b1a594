"""The ``tooldrop`` command line: list, check, try and serve tool files from a terminal.

Besides :func:`build_cli` and :func:`main`, the names a plugin's commands
(``tooldrop_register_commands``) build on are public here: :class:`CliContext` (``ctx.obj``
of every command: the global options and the host built from them), :func:`load_plugin_set`
(the :class:`PluginSet` it returns may be handed to ``ToolHost(plugins=...)``, so plugins
load once), and :func:`exit_status` / :func:`say_stopped` for a command stopped by a
signal. Everything in ``tooldrop.cli._*`` is private.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from .._errors import PluginError
from .._model import MODES, SANDBOX_SETTINGS
from ..host._essentials import load_plugin_set
from ..host._isolated import call_isolated
from ..host._plugins import PluginSet
from ._author import new_command, render_command
from ._call import call_command
from ._context import CliContext
from ._export import schema_command
from ._grants import grants_command
from ._group import GlobalOptionsGroup
from ._inspect import check_command, list_command, plugins_command, show_command
from ._signals import exit_status, say_stopped
from ._trust import trust_command

__all__ = [
    "CliContext",
    "PluginSet",
    "build_cli",
    "exit_status",
    "load_plugin_set",
    "main",
    "say_stopped",
]

CORE_COMMANDS = (
    list_command,
    show_command,
    check_command,
    render_command,
    call_command,
    new_command,
    schema_command,
    plugins_command,
    trust_command,
    grants_command,
)


def build_cli(plugin_set: PluginSet) -> click.Group:
    """The ``tooldrop`` group with the core's commands and those plugins add."""

    @click.group(cls=GlobalOptionsGroup, context_settings={"help_option_names": ["-h", "--help"]})
    @click.option(
        "--project",
        type=click.Path(file_okay=False, path_type=str),
        default=".",
        show_default=True,
        help="Project root; its tools live in .<app>/tools/.",
    )
    @click.option(
        "--user-dir",
        type=click.Path(file_okay=False, path_type=str),
        default=None,
        help="Personal config dir (default: $TOOLDROP_CONFIG_DIR or the platform's).",
    )
    @click.option(
        "--app",
        default="tooldrop",
        show_default=True,
        help="Names the folders: --app nanocoder reads .nanocoder/tools/.",
    )
    @click.option(
        "--mode",
        type=click.Choice(MODES),
        default="normal",
        show_default=True,
        help="Approval mode: which tools are offered and which calls ask first.",
    )
    @click.option(
        "--sandbox",
        type=click.Choice(SANDBOX_SETTINGS),
        default=None,
        help="Confine shell tools: off, auto (when bwrap works), required "
        "(default: the personal config's sandbox, else off).",
    )
    @click.version_option(package_name="tooldrop-core", prog_name="tooldrop")
    @click.pass_context
    def cli(
        ctx: click.Context,
        project: str,
        user_dir: str | None,
        app: str,
        mode: str,
        sandbox: str | None,
    ) -> None:
        """Turn files dropped into a folder into tools an LLM agent can call.

        The options above may also follow the command (tooldrop list --project DIR).
        """
        ctx.obj = CliContext(
            project=project,
            user_dir=user_dir,
            app=app,
            mode=mode,
            plugin_set=plugin_set,
            sandbox=sandbox,
        )
        ctx.call_on_close(ctx.obj.close)

    for command in CORE_COMMANDS:
        cli.add_command(command)

    def report(plugin: str, exc: BaseException) -> None:
        # A plugin's broken command must not break the CLI, nor the other plugins' commands.
        click.echo(f"tooldrop: plugin {plugin} could not add its commands: {exc}", err=True)

    call_isolated(plugin_set.pm.hook.tooldrop_register_commands, report, cli=cli)
    return cli


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI (the ``tooldrop`` console script)."""
    try:
        plugin_set = load_plugin_set()
    except PluginError as exc:  # TOOLDROP_STRICT_PLUGINS=1 and a plugin failed
        click.echo(f"tooldrop: {exc}", err=True)
        sys.exit(1)
    build_cli(plugin_set).main(args=argv, prog_name="tooldrop")
