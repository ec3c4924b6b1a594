"""The text of a new TOML tool file."""

from __future__ import annotations

from ._fields import NAME

__all__ = ["scaffold"]

_TEMPLATE = """\
# A tool the model can call. `tooldrop check` validates this file.
name = "{name}"
description = "Say hello to someone."
# The program and its arguments, one list element each. {{who}} is replaced by the
# argument's value and the element is quoted as one word: never add quotes of your own.
# An element whose parameter was left out (no value, no default) is dropped.
command = ["echo", "hello", "{{who}}"]
approval = "always"          # always: asks first; never: runs unasked; destructive
# read_only = false          # default: true when approval is "never"
# timeout_ms = 30000         # at most 300000
# cwd = "."                  # relative to the project; must stay inside it

[parameters.who]
type = "string"              # string, number, integer, boolean or array
description = "Who to greet"
required = true
# pattern = "^[a-z]+$"       # also: enum, default, minLength, maxLength, minimum, maximum
"""


def scaffold(name: str) -> tuple[str, str]:
    """``(file name, text)`` for tool ``name`` (``k8s-pods`` is the tool ``k8s_pods``).

    :raises ValueError: the name cannot become a tool name.
    """
    stem = name.removesuffix(".toml")
    tool_name = stem.replace("-", "_").lower()
    if not NAME.fullmatch(tool_name):
        raise ValueError(
            f'"{name}" cannot become a tool name: start with a letter and use letters, digits, '
            "- and _"
        )
    return f"{stem}.toml", _TEMPLATE.format(name=tool_name)
