"""The seam between backends and sandboxes: :func:`wrap_command` and its one rule.

A backend about to start a process builds a :class:`Command` and passes it through here; every
``tooldrop_wrap_command`` implementation may rewrite it in turn (a sandbox plugin prefixes
``bwrap …``). The core adds one rule no plugin can forget: a call that must run confined
(``sandbox: required``, or an untrusted tool let through *because* it would be confined) and
that no implementation confined is refused, so a missing or broken sandbox plugin fails
closed, never open.
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING

from .._errors import SandboxError
from .._model import Command, ToolCall
from ..policy._invariants import runs_confined_instead

if TYPE_CHECKING:
    from ..host._host import ToolHost

__all__ = ["close_fds", "wrap_command"]

NOT_CONFINED = (
    "⚒ Refused to run {name}: {why}, but nothing could confine it (no sandbox plugin "
    "confined the command; install tooldrop-sandbox and bubblewrap). Nothing ran."
)


def must_confine(call: ToolCall, host: ToolHost) -> str:
    """Why this call may only run confined, or ``""`` when it may run as it is."""
    if host.sandbox == "required":
        return "the sandbox is required (sandbox: required)"
    if not host.is_trusted(call.spec) and runs_confined_instead(call.spec, host):
        return "this project is not trusted and its read-only tools run only confined"
    return ""


def wrap_command(call: ToolCall, command: Command, host: ToolHost) -> Command:
    """``command`` as every ``tooldrop_wrap_command`` implementation leaves it.

    Each implementation gets the command the previous one returned, in pluggy's call order
    (``tryfirst`` first, then the most recently registered).

    :raises SandboxError: an implementation refused the call, or the call must run confined
        and none confined it. The message is for the model.
    """
    for impl in reversed(host.hook.tooldrop_wrap_command.get_hookimpls()):
        kwargs = {"call": call, "command": command, "host": host}
        try:
            wrapped = impl.function(**{name: kwargs[name] for name in impl.argnames})
        except BaseException:
            close_fds(command)
            raise
        if wrapped is not None:
            command = wrapped
    if command.confinement is None and (why := must_confine(call, host)):
        close_fds(command)
        raise SandboxError(NOT_CONFINED.format(name=call.spec.name, why=why))
    return command


def close_fds(command: Command) -> None:
    """Close the descriptors a command would have handed to its process (it will not run)."""
    for fd in command.pass_fds:
        with contextlib.suppress(OSError):
            os.close(fd)
