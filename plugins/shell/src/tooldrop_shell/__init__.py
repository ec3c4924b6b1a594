"""Shell backends for tooldrop: run rendered scripts under bash, sh or cmd.exe.

The plugin itself is :mod:`tooldrop_shell.plugin`; the names here are the rules it applies,
for loaders and hosts that want to apply the same ones (a markdown loader refusing a
forbidden ``env:`` name at load time uses :func:`is_forbidden_env`).
"""

from __future__ import annotations

import typing as _typing

from . import plugin
from ._cwd import CWD_ESCAPES, resolve_cwd
from ._env import FORBIDDEN_ENV, build_env, env_name_problem, expand_vars, is_forbidden_env
from ._select import SHELLS, shell_argv

if _typing.TYPE_CHECKING:
    from ._process import DRAIN_PERIOD, GRACE_PERIOD

__all__ = [
    "CWD_ESCAPES",
    "DRAIN_PERIOD",
    "FORBIDDEN_ENV",
    "GRACE_PERIOD",
    "SHELLS",
    "build_env",
    "env_name_problem",
    "expand_vars",
    "is_forbidden_env",
    "plugin",
    "resolve_cwd",
    "shell_argv",
]


def __getattr__(name: str) -> _typing.Any:
    # The process runner (subprocess, signals, cgroups) is imported by the first call, not
    # by every start-up that merely lists tools.
    if name in ("DRAIN_PERIOD", "GRACE_PERIOD"):
        from . import _process

        value = getattr(_process, name)
        globals()[name] = value  # next time, a plain attribute
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
