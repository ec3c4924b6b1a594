"""Shell backends for tooldrop: run rendered scripts under bash, sh or cmd.exe.

The plugin itself is :mod:`tooldrop_shell.plugin`; the names here are the rules it applies,
for loaders and hosts that want to apply the same ones (a markdown loader refusing a
forbidden ``env:`` name at load time uses :func:`is_forbidden_env`).
"""

from __future__ import annotations

from . import plugin
from ._cwd import CWD_ESCAPES, resolve_cwd
from ._env import FORBIDDEN_ENV, build_env, env_name_problem, expand_vars, is_forbidden_env
from ._process import DRAIN_PERIOD, GRACE_PERIOD
from ._select import SHELLS, shell_argv

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
