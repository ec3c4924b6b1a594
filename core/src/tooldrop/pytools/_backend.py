"""The core's backend for ``python`` tools: in-process callables, run by the core itself.

A :class:`~tooldrop.Tool`, an ``@tool`` function or a dict that a plugin registers
(``tooldrop_register_tools``) becomes, through :func:`~tooldrop.to_spec`, a spec with runner
``python`` whose payload is the callable. The core builds such specs, so it runs them too: this
backend is an essential plugin (``tooldrop.python``), registered whatever ``TOOLDROP_PLUGINS``
or ``plugins=[...]`` selects, and a tool pack needs no other distribution. tooldrop-python only
turns personal ``*.py`` files into such specs.

It implements ``tooldrop_execute`` with ``trylast``: a plugin that runs Python tools its own
way (in a subprocess, say) goes first, without having to say ``tryfirst``.
"""

from __future__ import annotations

from .._model import ToolCall, ToolResult
from ..hookspecs import hookimpl

__all__ = ["PythonBackend"]


class PythonBackend:
    """``tooldrop_execute`` for runner ``python`` (see :func:`._runner.run_call`)."""

    @hookimpl(trylast=True)
    def tooldrop_execute(self, call: ToolCall) -> ToolResult | None:
        if call.spec.runner != "python":
            return None
        # Threads and asyncio come with the first Python call, not with ``import tooldrop``.
        from ._runner import run_call

        return run_call(call)
