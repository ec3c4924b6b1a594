"""Which shell runs a tool, and the exact argv it gets."""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from pathlib import Path

from ._errors import SetupError

__all__ = ["CMD_SWITCHES", "SHELLS", "command_line", "shell_argv"]

#: The values ``shell:`` may take.
SHELLS: tuple[str, ...] = ("bash", "sh", "cmd.exe")
#: cmd.exe: no AutoRun commands, no delayed ``!var!`` expansion, one outer pair of quotes.
CMD_SWITCHES: tuple[str, ...] = ("/d", "/v:off", "/s", "/c")

_BASH = "/bin/bash"
_SH = "/bin/sh"


@functools.cache
def _default_posix_shell() -> str:
    # Looked up once per process: a stat per call is a measurable share of a trivial call.
    return _BASH if Path(_BASH).exists() else _SH


def _comspec(environ: Mapping[str, str]) -> str:
    return environ.get("ComSpec") or environ.get("COMSPEC") or "cmd.exe"


def shell_argv(
    shell: str | None,
    script: str,
    *,
    environ: Mapping[str, str] | None = None,
    windows: bool | None = None,
) -> list[str]:
    """The argv that runs ``script`` under the tool's ``shell``.

    ``bash`` is ``/bin/bash`` and ``sh`` is ``/bin/sh`` (on every platform, as in the
    reference); ``cmd.exe`` is ``%ComSpec%`` with ``/d /v:off /s /c``. Unset means
    ``%ComSpec%`` on Windows, else ``/bin/bash`` when it exists, else ``/bin/sh``. The user's
    ``$SHELL`` is never consulted: a tool is written for one shell's quoting rules.

    :raises SetupError: ``shell`` names a shell this backend does not know.
    """
    if windows is None:
        windows = os.name == "nt"
    if shell is None:
        if windows:
            shell = "cmd.exe"
        else:
            return [_default_posix_shell(), "-c", script]
    if shell == "bash":
        return [_BASH, "-c", script]
    if shell == "sh":
        return [_SH, "-c", script]
    if shell == "cmd.exe":
        return [_comspec(os.environ if environ is None else environ), *CMD_SWITCHES, script]
    expected = ", ".join(SHELLS)
    raise SetupError(
        f'Custom tool failed to start: unknown shell "{shell}" (expected one of: {expected})'
    )


def command_line(argv: list[str]) -> str | list[str]:
    """What to hand to :class:`subprocess.Popen` on Windows for ``argv``.

    cmd.exe does not split its command line by the MSVC rules ``list2cmdline`` follows, so
    with ``/s /c`` the script goes inside one outer pair of double quotes, untouched; cmd
    strips exactly that pair. Other argv lists are returned as they are.
    """
    if len(argv) == len(CMD_SWITCHES) + 2 and tuple(argv[1:-1]) == CMD_SWITCHES:
        import subprocess  # here, not at start-up: only a Windows call needs it

        head = subprocess.list2cmdline(argv[:-1])
        return f'{head} "{argv[-1]}"'
    return argv
