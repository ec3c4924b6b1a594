"""Serve tooldrop's tools over the Model Context Protocol.

``tooldrop serve`` is the command; :class:`ToolServer` serves any :class:`tooldrop.ToolHost`
from your own program. The ``mcp`` SDK is imported only when :class:`ToolServer` is first
used: this package is loaded (as the ``mcp`` plugin) by every ``tooldrop`` command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._server import ToolServer

__all__ = ["ToolServer"]


def __getattr__(name: str) -> Any:
    if name == "ToolServer":
        from ._server import ToolServer

        return ToolServer
    raise AttributeError(f"module 'tooldrop_mcp' has no attribute {name!r}")
