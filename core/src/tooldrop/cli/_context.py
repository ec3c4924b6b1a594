"""What every command needs: the host, built once from the global options and config files."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .._host import ToolHost, config_dir_for
from .._plugins import PluginSet
from .._skills import Skill
from ._config import load_settings

__all__ = ["CliContext", "pass_cli", "skill_option"]


class CliContext:
    def __init__(
        self,
        *,
        project: str,
        user_dir: str | None,
        app: str,
        mode: str,
        plugin_set: PluginSet,
        sandbox: str | None = None,
    ) -> None:
        self.project = Path(project)
        self.user_dir = user_dir
        self.app = app
        self.mode = mode
        self.plugin_set = plugin_set
        #: ``--sandbox``; ``None`` defers to the personal config (default ``off``).
        self.sandbox = sandbox
        self._host: ToolHost | None = None
        self.settings_problems: list[Any] = []

    @property
    def host(self) -> ToolHost:
        if self._host is None:
            config_dir = config_dir_for(self.app, self.user_dir)
            settings = load_settings(self.project.resolve(), config_dir, self.app)
            self.settings_problems = settings.problems
            self._host = ToolHost(
                project_dir=self.project,
                user_dir=config_dir,
                app=self.app,
                mode=self.mode,  # type: ignore[arg-type]  # click.Choice checked it is a Mode
                always_allow=settings.always_allow,
                disabled_tools=settings.disabled_tools,
                sandbox=self.sandbox or settings.sandbox or "off",  # type: ignore[arg-type]
                sandbox_untrusted_read_only=settings.sandbox_untrusted_read_only,
                _plugin_set=self.plugin_set,
            )
            if settings.project_always_allow and self._host.is_trusted():
                self._host.always_allow |= settings.project_always_allow
        return self._host

    def selected_skill(self, name: str | None) -> Skill | None:
        """The bundle ``--skill NAME`` names (``None`` without the option), or exit 1."""
        if name is None:
            return None
        found = self.host.skill(name)
        if found is None:
            names = ", ".join(s.name for s in self.host.skills()) or "none"
            click.echo(f'tooldrop: no skill bundle named "{name}" (skills: {names})', err=True)
            sys.exit(1)
        return found

    def close(self) -> None:
        if self._host is not None:
            self._host.close()


pass_cli = click.make_pass_decorator(CliContext)


def skill_option(help_text: str) -> Callable[[Any], Any]:
    """``--skill NAME``: act as skill bundle NAME's agent instead of the main agent."""
    return click.option("--skill", "skill", metavar="NAME", default=None, help=help_text)
