"""Variable expansion for ``cwd:`` and ``env:`` values, and the environment a tool runs in."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from tooldrop import FORBIDDEN_ENV, forbidden_env_pattern, is_forbidden_env

from ._errors import SetupError

__all__ = [
    "FORBIDDEN_ENV",
    "build_env",
    "env_name_problem",
    "expand_vars",
    "is_forbidden_env",
]


# The reference's forms: ``${VAR}``, ``${VAR:-default}`` and bare ``$VAR``. The default runs
# to the first ``}`` and is used as it is (not expanded again). Anything else (``${1}``,
# ``$1``, ``${A:=z}``, a lone ``$``) is left as written.
_VARIABLE = re.compile(
    r"\$\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)(?::-(?P<default>[^}]*))?\}"
    r"|\$(?P<bare>[A-Za-z_][A-Za-z0-9_]*)"
)


def env_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be set in a tool's environment, or ``None`` when it can."""
    if is_forbidden_env(name):
        return (
            f"may not set {name}: it changes how the shell or the programs it starts behave "
            f"(forbidden: {forbidden_env_pattern(name)}; the whole list is in docs/security.md)"
        )
    if not name or "=" in name or "\0" in name:
        return f"{name!r} is not a valid environment variable name"
    return None


def expand_vars(text: str, environ: Mapping[str, str] | None = None) -> str:
    """Expand ``${VAR}``, ``${VAR:-default}`` and ``$VAR`` in ``text`` from ``environ``.

    This is the reference's expansion, kept as it is so tool files behave the same:

    - an unset variable without a default expands to ``""``;
    - a variable that is set but empty **wins** over the default: ``${D:-x}`` with ``D=""``
      gives ``""`` (POSIX ``${D-x}`` semantics, despite the ``:-`` spelling);
    - there is no escaping: ``$$A`` is ``$`` followed by ``A``'s value, ``\\$A`` is ``\\``
      followed by it; ``${1}``, ``$1`` and ``${A:=z}`` stay literal;
    - values come from the host's environment, never from sibling ``env:`` keys.

    :param environ: Where values come from; :data:`os.environ` when ``None``.
    """
    source = os.environ if environ is None else environ
    if "$" not in text:
        return text

    def replace(match: re.Match[str]) -> str:
        name = match["braced"] or match["bare"]
        value = source.get(name)
        if value is not None:
            return value
        default = match["default"]
        return "" if default is None else default

    return _VARIABLE.sub(replace, text)


def build_env(
    tool_env: Mapping[str, str], environ: Mapping[str, str] | None = None
) -> dict[str, str] | None:
    """The environment for a tool: the host's plus the tool's ``env:`` (expanded), which wins.

    Returns ``None`` when the tool adds nothing, so the child simply inherits (cheaper).

    :raises SetupError: a name is forbidden or malformed, or a value holds a NUL byte.
    """
    if not tool_env:
        return None
    source = os.environ if environ is None else environ
    merged = dict(source)
    for name, raw in tool_env.items():
        problem = env_name_problem(name)
        if problem is not None:
            raise SetupError(f"Custom tool env {problem}")
        value = expand_vars(str(raw), source)
        if "\0" in value:
            raise SetupError(f"Custom tool env {name} holds a NUL byte, which no program accepts")
        merged[name] = value
    return merged
