"""The ``tooldrop`` group, which also takes its global options after the command.

``tooldrop render k8s_logs --project ../other`` is how people type it; click alone answers
``No such option '--project'``. Before parsing, such options are moved in front of the command,
unless the command has an option of the same name. ``--`` ends the search, and the values of
the command's own options (``--args '--mode x'``) are never read as options.
"""

from __future__ import annotations

import click

__all__ = ["GlobalOptionsGroup"]


def _takes_value(param: click.Parameter) -> bool:
    return isinstance(param, click.Option) and not param.is_flag and not param.count


class GlobalOptionsGroup(click.Group):
    """A :class:`click.Group` whose value-taking options may also follow the command."""

    def _global_names(self) -> set[str]:
        return {name for p in self.params if _takes_value(p) for name in p.opts}

    def _command_at(self, args: list[str]) -> int | None:
        """Where the command's name is in ``args``, skipping the group's own options."""
        names, i = self._global_names(), 0
        while i < len(args):
            arg = args[i]
            if arg == "--" or not arg.startswith("-"):
                return i if arg != "--" else None
            i += 2 if arg in names else 1
        return None

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        at = self._command_at(args)
        command = self.get_command(ctx, args[at]) if at is not None else None
        if at is None or command is None:
            return super().parse_args(ctx, args)
        own = {name for p in command.params for name in (*p.opts, *p.secondary_opts)}
        own_valued = {name for p in command.params if _takes_value(p) for name in p.opts}
        hoistable = self._global_names() - own
        moved: list[str] = []
        kept: list[str] = []
        rest = args[at + 1 :]
        i = 0
        while i < len(rest):
            arg = rest[i]
            name = arg.partition("=")[0]
            if arg == "--":
                kept.extend(rest[i:])
                break
            if arg in own_valued:  # the command's option and its value, whatever it looks like
                kept.extend(rest[i : i + 2])
                i += 2
            elif name in hoistable and "=" in arg:
                moved.append(arg)
                i += 1
            elif arg in hoistable and i + 1 < len(rest):
                moved.extend(rest[i : i + 2])
                i += 2
            else:
                kept.append(arg)
                i += 1
        return super().parse_args(ctx, [*args[:at], *moved, args[at], *kept])
