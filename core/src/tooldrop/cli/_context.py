"""What every command needs: the host, built once from the global options and config files."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .._errors import UnknownSkillError
from .._model import Problem
from ..host._host import ToolHost
from ..host._plugins import PluginSet
from ..skills._skills import Skill

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

    @property
    def host(self) -> ToolHost:
        """The host, built on first use; it reads the config files itself, as any host does."""
        if self._host is None:
            self._host = ToolHost(
                project_dir=self.project,
                user_dir=self.user_dir,
                app=self.app,
                mode=self.mode,  # type: ignore[arg-type]  # click.Choice checked it is a Mode
                sandbox=self.sandbox,  # type: ignore[arg-type]  # None: the personal config's
                plugins=self.plugin_set,
            )
        return self._host

    @property
    def settings_problems(self) -> list[Problem]:
        """What is wrong in the config files (building the host reads them)."""
        return self.host.settings.problems

    def selected_skill(self, name: str | None) -> Skill | None:
        """The bundle ``--skill NAME`` names (``None`` without the option), or exit 1."""
        if name is None:
            return None
        found = self.host.skill(name)
        if found is None:
            known = [s.name for s in self.host.skills()]
            message = (
                f'tooldrop: no skill bundle named "{name}" (skills: {", ".join(known) or "none"})'
            )
            close = UnknownSkillError(name, known=known).suggestions
            if close:
                message += "; did you mean " + " or ".join(f'"{n}"' for n in close) + "?"
            click.echo(message, err=True)
            sys.exit(1)
        return found

    def close(self) -> None:
        if self._host is not None:
            self._host.close()


pass_cli = click.make_pass_decorator(CliContext)


def skill_option(help_text: str) -> Callable[[Any], Any]:
    """``--skill NAME``: act as skill bundle NAME's agent instead of the main agent."""
    return click.option("--skill", "skill", metavar="NAME", default=None, help=help_text)
