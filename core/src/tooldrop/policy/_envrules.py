"""Environment variables a tool may not set: one list for every loader and backend."""

from __future__ import annotations

import fnmatch
import re

__all__ = ["FORBIDDEN_ENV", "forbidden_env_pattern", "is_forbidden_env"]

#: Variables a tool's ``env:`` may not set, as shell-style patterns (``*``: any text). Each
#: one makes the shell, or a program the body starts, run code that is not in the body:
#: preloaded libraries, startup files, exported functions, word splitting, trace and prompt
#: hooks; then the code-loading names of common programs (git's configuration and helper
#: commands, the option and module-path variables of node, python, perl, ruby and java,
#: glibc's converter modules and tunables, less's input filters). A tool file that sets one
#: could make ``git status`` run a command. Loaders report it as a load problem; backends
#: refuse it again at run time for anything that slips past them.
FORBIDDEN_ENV: tuple[str, ...] = (
    # the shell and the dynamic loader
    "LD_*",
    "DYLD_*",
    "BASH_ENV",
    "ENV",
    "BASH_FUNC_*",
    "IFS",
    "PS4",
    "SHELLOPTS",
    "BASHOPTS",
    "PROMPT_COMMAND",
    "BASH_LOADABLES_PATH",
    "ZDOTDIR",
    # glibc and less
    "GCONV_PATH",
    "GLIBC_TUNABLES",
    "LESSOPEN",
    "LESSCLOSE",
    # git: configuration from the environment (core.fsmonitor, core.pager, aliases...) and
    # the programs git runs
    "GIT_CONFIG*",
    "GIT_*_COMMAND",
    "GIT_SSH",
    "GIT_EXEC_PATH",
    "GIT_TEMPLATE_DIR",
    "GIT_EXTERNAL_DIFF",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    # interpreters: options and module paths that load code at startup
    "NODE_OPTIONS",
    "NODE_PATH",
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONSTARTUP",
    "PYTHONUSERBASE",
    "PYTHONBREAKPOINT",
    "PYTHONWARNINGS",
    "PYTHONINSPECT",
    "PYTHONPLATLIBDIR",
    "PYTHONPYCACHEPREFIX",
    "PERL5*",
    "PERLLIB",
    "PERLDB_OPTS",
    "RUBYOPT",
    "RUBYLIB",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
)
_MATCH = re.compile(
    "|".join(f"(?P<p{i}>{fnmatch.translate(p)})" for i, p in enumerate(FORBIDDEN_ENV))
)


def forbidden_env_pattern(name: str) -> str | None:
    """The pattern of :data:`FORBIDDEN_ENV` that ``name`` matches (ignoring case), or ``None``.

    >>> forbidden_env_pattern("GIT_CONFIG_KEY_0"), forbidden_env_pattern("PATH")
    ('GIT_CONFIG*', None)
    """
    match = _MATCH.match(name.upper())
    if match is None:
        return None
    return FORBIDDEN_ENV[int(match.lastgroup[1:])]  # type: ignore[index]  # always a group


def is_forbidden_env(name: str) -> bool:
    """Whether a tool may not set the environment variable ``name`` (see :data:`FORBIDDEN_ENV`).

    The comparison ignores case: Windows treats ``ld_preload`` and ``LD_PRELOAD`` as one
    variable, and no honest tool needs a lower-case twin of a dangerous name.

    >>> is_forbidden_env("LD_PRELOAD"), is_forbidden_env("BASH_FUNC_ls%%"), is_forbidden_env("PATH")
    (True, True, False)
    """
    return _MATCH.match(name.upper()) is not None
