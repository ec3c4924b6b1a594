"""The text of a new markdown tool file, for ``tooldrop new NAME``."""

from __future__ import annotations

from ._fields import NAME_PATTERN

__all__ = ["scaffold", "tool_name_for"]

_TEMPLATE = """\
---
# A tool the model can call. `tooldrop check` validates this file, and
# `tooldrop render {name} --args '{{}}'` prints the script a call would run.
name: {name}
description: A short description of what this tool does (shown to the LLM)
parameters: {{}}
# To take arguments, replace {{}} above with entries like this one:
#   namespace:
#     type: string              # string, number, integer, boolean or array
#     description: The Kubernetes namespace
#     required: true            # default: false
#     pattern: '^[a-z0-9-]+$'   # optional checks: enum, pattern, minLength, maxLength, min, max
approval: always                # always: asks first; never: runs unasked; destructive: asks
                                #   in normal mode only
# read_only: false              # default: true when approval is never
# timeout_ms: 30000             # at most 300000
#
# The body below is a shell script (bash, or sh with `shell: sh`):
#   {{{{ namespace }}}}  inserts the argument, already single-quoted: never put it inside
#                    quotes, $( ... ), backticks or a heredoc
#   {{{{# namespace }}}} ... {{{{/ namespace }}}}  keeps the text only when the argument is given
#   {{{{^ namespace }}}} ... {{{{/ namespace }}}}  keeps it only when it is not
---

echo "TODO: replace this body with the command you want to run"
"""


def tool_name_for(name: str) -> str:
    """The tool name a file name stands for: ``k8s-pods`` (or ``k8s-pods.md``) is ``k8s_pods``.

    :raises ValueError: the name would leave the tools directory, or cannot become a valid
        tool name; the message says which.
    """
    stem = name[:-3] if name.endswith(".md") else name
    if not stem or stem in (".", "..") or any(c in name for c in "/\\\0") or name.startswith("~"):
        raise ValueError(
            f'"{name}" is not a file name inside the tools directory: use a plain name such as '
            "k8s-pods"
        )
    tool_name = stem.replace("-", "_").lower()
    if not NAME_PATTERN.fullmatch(tool_name):
        raise ValueError(
            f'"{name}" cannot become a tool name ("{tool_name}" does not match '
            "^[a-z][a-z0-9_]*$): start with a letter and use letters, digits, - and _"
        )
    return tool_name


def scaffold(name: str) -> tuple[str, str]:
    """``(file name, text)`` of a new tool file that loads cleanly and says how to fill it in."""
    tool_name = tool_name_for(name)
    file_name = name if name.endswith(".md") else f"{name}.md"
    return file_name, _TEMPLATE.format(name=tool_name)
