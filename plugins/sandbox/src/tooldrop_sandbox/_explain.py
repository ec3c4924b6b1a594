"""The one line a result gets when the sandbox made the tool fail, and how to allow it.

Read from the tool's own output: a write the sandbox refused fails with ``EROFS`` ("Read-only
file system": every path the tool may not write is a read-only mount), and a connection
without the network fails as "Network is unreachable", "Connection refused" (only an empty
loopback exists), a name that does not resolve, or, for a UNIX socket, "Address family not
supported" (the seccomp filter). These are the C library's messages, which
bash, coreutils, Python, curl and git all print.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tooldrop import ToolSpec

__all__ = ["WRITE_REFUSED", "explainer"]

WRITE_REFUSED = re.compile(r"Read-only file system|\[Errno 30\]")
CONNECTION_BLOCKED = re.compile(
    r"Network is unreachable|Connection refused|Couldn't connect to server"
    r"|Could not resolve host|Temporary failure in name resolution"
    r"|Name or service not known|nodename nor servname|\[Errno -[23]\]|\[Errno 101\]"
    r"|Address family not supported|\[Errno 97\]"
)


def _tool_file(spec: ToolSpec, project: Path) -> str:
    path = spec.origin.path
    if path is None:
        return "the tool's definition"
    try:
        return str(path.relative_to(project))
    except ValueError:
        return str(path)


def explainer(spec: ToolSpec, project: Path) -> Callable[[str], str | None]:
    """A function from the result text to the sandbox's line about it, or ``None``."""
    where = _tool_file(spec, project)
    if spec.read_only:
        allow_write = (
            f"to let it write, list the paths inside the project under writable: in {where}, "
            "or drop read_only: true there"
        )
    else:
        allow_write = (
            "a sandboxed tool writes only inside the project and its own private /tmp; "
            "nothing outside the project can be allowed"
        )

    def explain(text: str) -> str | None:
        blocked = []
        if WRITE_REFUSED.search(text):
            blocked.append(f"a write outside what it may write was refused ({allow_write})")
        if not spec.network and CONNECTION_BLOCKED.search(text):
            blocked.append(f"it has no network (to allow it, add network: true to {where})")
        if not blocked:
            return None
        return f"⚒ The sandbox blocked this tool: {'; '.join(blocked)}."

    return explain
