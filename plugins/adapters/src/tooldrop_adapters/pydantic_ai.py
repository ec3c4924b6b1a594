"""tooldrop's tools as a pydantic-ai toolset.

::

    from tooldrop_adapters.pydantic_ai import TooldropToolset
    agent = Agent(model, toolsets=[TooldropToolset()], output_type=[str, DeferredToolRequests])

Approval goes through pydantic-ai's deferred tools: a call that needs a person raises
``ApprovalRequired`` (its metadata carries tooldrop's reason, preview and script), the run ends
with ``DeferredToolRequests``, and the run resumed with ``DeferredToolResults`` runs exactly the
call that was shown (or nothing, when denied). Invalid arguments are a ``ModelRetry`` (the model
corrects them); a denied or failed call is a ``ToolFailed`` the model reads.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterable
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.exceptions import ApprovalRequired, ModelRetry, ToolFailed
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.toolsets import AbstractToolset
from pydantic_ai.toolsets.abstract import ToolsetTool
from pydantic_ai.toolsets.external import TOOL_SCHEMA_VALIDATOR

from tooldrop import PendingCall, ToolHost

from ._common import Ask, Errors, Source

__all__ = ["TooldropToolset"]


class TooldropToolset(AbstractToolset[Any]):
    """Every available tooldrop tool (or those named in ``tools``) as a pydantic-ai toolset.

    :param host: The :class:`~tooldrop.ToolHost` (default: one for ``project_dir``).
    :param tools: The tool names to offer (default: all available).
    :param skill: Offer and call the tools of skill bundle ``skill``'s agent (its scoped
        tools included), not the main agent's.
    :param ask: ``ask(pending) -> bool`` answers approval inline instead of deferring.
    :param errors: ``"raise"``: ``ModelRetry`` / ``ToolFailed``; ``"text"``: the error text is
        the tool's return value.
    :param max_retries: How often the model may retry after invalid arguments.
    """

    def __init__(
        self,
        host: ToolHost | None = None,
        *,
        project_dir: str | os.PathLike[str] = ".",
        tools: Iterable[str] | None = None,
        skill: str | None = None,
        ask: Ask | None = None,
        errors: Errors = "raise",
        id: str | None = None,
        max_retries: int = 1,
    ) -> None:
        self.source = Source(
            host, project_dir=project_dir, tools=tools, skill=skill, ask=ask, errors=errors
        )
        self._id = id
        self.max_retries = max_retries

    @property
    def id(self) -> str | None:
        return self._id

    async def get_instructions(self, ctx: RunContext[Any]) -> str | None:
        return await asyncio.to_thread(self.source.notice) or None

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        views = await asyncio.to_thread(self.source.views)
        return {
            view.name: ToolsetTool(
                toolset=self,
                tool_def=ToolDefinition(
                    name=view.name,
                    description=view.description,
                    parameters_json_schema=view.schema,
                    strict=view.strict,
                    sequential=not view.spec.read_only,
                ),
                max_retries=self.max_retries,
                # tooldrop validates the arguments itself and says what to fix.
                args_validator=TOOL_SCHEMA_VALIDATOR,
            )
            for view in views
        }

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        source = self.source
        approved: bool | None = None
        pending: PendingCall | None = None
        if ctx.tool_call_approved:
            # Resumed after the person said yes: run the very call they were shown.
            pending = await source.aresumed(ctx.tool_call_id, name, tool_args)
            approved = True
        else:
            pending = await source.aprepare(name, tool_args)
            if pending.needs_approval:
                approved = await source.aanswer(pending)
                if approved is None and ctx.tool_call_id is not None:
                    source.hold(ctx.tool_call_id, pending, tool_args)
                    raise ApprovalRequired(
                        metadata={
                            "tooldrop": {
                                "reason": pending.reason,
                                "preview": pending.preview,
                                "script": pending.script,
                                "fingerprint": pending.fingerprint,
                            }
                        }
                    )
        refused_before_running = pending.result is not None and not pending.result.denied
        result = await pending.arun(approved)
        if result.is_error and source.errors == "raise":
            raise (ModelRetry if refused_before_running else ToolFailed)(result.text)
        return result.text
