"""Python tools as values: :class:`Tool`, and turning one into a :class:`ToolSpec`.

(A first cut; the ``@tool`` decorator and schemas derived from type hints arrive with the
Python-module tools.)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from attrs import evolve, field, frozen

from ._model import Approval, Origin, ToolSpec

__all__ = ["Tool", "to_spec"]

EMPTY_SCHEMA: Mapping[str, Any] = {"type": "object", "properties": {}}


@frozen(kw_only=True)
class Tool:
    """A tool implemented by a Python callable ``execute(args, cancel)``, sync or async."""

    name: str
    description: str
    execute: Callable[..., Any] = field(repr=False)
    input_schema: Mapping[str, Any] = field(factory=lambda: dict(EMPTY_SCHEMA))
    approval: Approval = "always"
    read_only: bool = False
    requires_approval: bool = False
    timeout_ms: int = 30_000


def _digest(tool: Tool, origin: Origin) -> str:
    blob = json.dumps(
        [tool.name, tool.description, tool.input_schema, origin.source], sort_keys=True, default=str
    )
    return hashlib.sha256(blob.encode()).hexdigest()


def to_spec(obj: object, *, origin: Origin) -> ToolSpec:
    """Turn a :class:`Tool` or :class:`ToolSpec` into a spec stamped with ``origin``."""
    if isinstance(obj, ToolSpec):
        return evolve(obj, origin=origin)
    if isinstance(obj, Tool):
        if not origin.content_hash:
            origin = evolve(origin, content_hash=_digest(obj, origin))
        return ToolSpec(
            name=obj.name,
            description=obj.description,
            input_schema=obj.input_schema,
            approval=obj.approval,
            read_only=obj.read_only,
            requires_approval=obj.requires_approval,
            timeout_ms=obj.timeout_ms,
            origin=origin,
            runner="python",
            payload=obj.execute,
        )
    raise TypeError(f"cannot register {type(obj).__name__!r} as a tool (expected Tool or ToolSpec)")
