"""``tooldrop new NAME --python``: the text of a new personal Python tool file."""

from __future__ import annotations

import keyword
import re

__all__ = ["python_tool_name", "scaffold"]

_TEMPLATE = '''\
"""{name}: a personal tooldrop tool, written in Python.

Python tools load only from your personal tools dir (this file's folder),
never from a project: importing a file runs it. Hosts offer this tool to
the model as `custom__{name}`.

Try it:
    tooldrop show custom__{name}
    tooldrop call custom__{name} text=hello repeat=2
"""

from __future__ import annotations

from tooldrop import CancelToken, tool


@tool(
    name="{name}",
    # "always" (the default) asks before every call, "destructive" asks
    # unless the host auto-accepts, "never" runs without asking. "Always
    # allow" at the prompt is remembered until this file changes.
    approval="always",
    # True says the tool changes nothing; left out, it is approval ==
    # "never". Plan mode offers only tools that are read-only AND never ask,
    # so with approval="always" this tool stays hidden there.
    read_only=True,
    # The call fails with an error after this long, and `cancel` is set.
    timeout_ms=30_000,
)
def {function}(
    text: str, repeat: int = 1, cancel: CancelToken | None = None
) -> str:
    """Repeat a text: replace this with what your tool does, for the model.

    The docstring's first paragraph is the tool's description. The type
    hints become its JSON Schema: parameters without a default are required.

    Args:
        text: The text to repeat. These entries describe the parameters.
        repeat: How many times to repeat it.
    """
    lines = []
    for _ in range(repeat):
        # Long work should stop when the call is cancelled or times out.
        # (An `async def` tool's task is cancelled then: it sees
        # asyncio.CancelledError at its next await.)
        if cancel is not None and cancel.is_set():
            break
        lines.append(text)
    # Return a str (shown verbatim), any JSON value (shown as JSON) or None
    # (empty). Raise an exception to report an error to the model.
    return "\\n".join(lines)


# What tooldrop loads: one tool, a list of tools, or a function (sync or
# async) that returns either.
default = {function}
'''


def python_tool_name(name: str) -> str:
    """``k8s-pods`` → ``k8s_pods``: what a Python tool may be called.

    :raises ValueError: when nothing usable is left.
    """
    cleaned = re.sub(r"[^A-Za-z0-9_]+", "_", name.strip()).strip("_")
    if not cleaned:
        raise ValueError(f"{name!r} has no letters or digits to name a tool with")
    return cleaned


def scaffold(name: str) -> tuple[str, str]:
    """``(file_name, text)`` of a working, commented example tool called ``name``."""
    tool_name = python_tool_name(name)
    function = tool_name
    if function[0].isdigit() or keyword.iskeyword(function):
        function = f"tool_{function}"
    text = _TEMPLATE.format(name=tool_name, function=function)
    return f"{tool_name}.py", text
