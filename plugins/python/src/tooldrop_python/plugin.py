"""The ``python`` plugin: loads personal ``*.py`` tool modules and runs ``python`` tools.

(First cut: runs callables registered by plugins; loading modules arrives with the
Python-tools issue.)
"""

from __future__ import annotations

from tooldrop import ToolCall, ToolHost, ToolResult, hookimpl


@hookimpl
def tooldrop_execute(call: ToolCall, host: ToolHost) -> ToolResult | None:
    if call.spec.runner != "python":
        return None
    value = call.spec.payload(dict(call.args), call.cancel)
    return ToolResult(text="" if value is None else str(value))
