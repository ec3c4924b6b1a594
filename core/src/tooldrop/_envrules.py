"""Environment variables a tool may not set: one list for every loader and backend."""

from __future__ import annotations

__all__ = ["FORBIDDEN_ENV", "is_forbidden_env"]

#: Variables a tool's ``env:`` may not set, as shell-style patterns. Each one changes how the
#: shell or every program it starts behaves (preloaded libraries, startup files, exported
#: functions, word splitting, trace and prompt hooks), so a tool file that sets one could run
#: code that appears nowhere in its body. Loaders report it as a load problem; backends refuse
#: it again at run time for anything that slips past them.
FORBIDDEN_ENV: tuple[str, ...] = (
    "LD_*",
    "DYLD_*",
    "BASH_ENV",
    "ENV",
    "BASH_FUNC_*",
    "IFS",
    "PS4",
    "SHELLOPTS",
    "PROMPT_COMMAND",
)
_NAMES = frozenset(p for p in FORBIDDEN_ENV if not p.endswith("*"))
_PREFIXES = tuple(p[:-1] for p in FORBIDDEN_ENV if p.endswith("*"))


def is_forbidden_env(name: str) -> bool:
    """Whether a tool may not set the environment variable ``name`` (see :data:`FORBIDDEN_ENV`).

    The comparison ignores case: Windows treats ``ld_preload`` and ``LD_PRELOAD`` as one
    variable, and no honest tool needs a lower-case twin of a dangerous name.

    >>> is_forbidden_env("LD_PRELOAD"), is_forbidden_env("BASH_FUNC_ls%%"), is_forbidden_env("PATH")
    (True, True, False)
    """
    upper = name.upper()
    return upper in _NAMES or upper.startswith(_PREFIXES)
