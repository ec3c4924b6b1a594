"""tooldrop's tools as OpenAI Agents SDK function tools.

::

    from tooldrop_adapters.openai_agents import tooldrop_tools
    agent = Agent(name="dev", tools=tooldrop_tools())

Approval goes through the SDK's ``needs_approval``: the call is prepared when the SDK asks
whether it needs approval, the run stops with ``result.interruptions``, and after
``state.approve(item)`` the SDK invokes the tool, which runs exactly the prepared call
(``state.reject(item)``: nothing runs). ``strict_json_schema`` is tooldrop's own decision per tool,
so an optional parameter stays optional.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from agents import FunctionTool, RunContextWrapper
from agents.tool_context import ToolContext

from tooldrop import ToolHost, ToolResult

from ._common import Ask, Errors, Source, ToolError, ToolView

__all__ = ["ToolError", "tooldrop_tools"]


def tooldrop_tools(
    host: ToolHost | None = None,
    *,
    project_dir: str | os.PathLike[str] = ".",
    tools: Iterable[str] | None = None,
    skill: str | None = None,
    ask: Ask | None = None,
    errors: Errors = "text",
) -> list[FunctionTool]:
    """Every available tooldrop tool (or those named in ``tools``) as a ``FunctionTool``.

    :param host: The :class:`~tooldrop.ToolHost` (default: one for ``project_dir``).
    :param tools: The tool names to offer (default: all available).
    :param skill: Offer and call the tools of skill bundle ``skill``'s agent (its scoped
        tools included), not the main agent's.
    :param ask: ``ask(pending) -> bool`` answers approval inline instead of interrupting the run.
    :param errors: ``"text"`` (default): a failed call's text is the tool's output, which the model
        reads; ``"raise"``: it raises :class:`ToolError` into the SDK's tool-failure handling.
    """
    source = Source(host, project_dir=project_dir, tools=tools, skill=skill, ask=ask, errors=errors)
    return [_function_tool(source, view) for view in source.views()]


def _function_tool(source: Source, view: ToolView) -> FunctionTool:
    name = view.name

    async def needs_approval(
        ctx: RunContextWrapper[Any], args: dict[str, Any], call_id: str
    ) -> bool:
        if source.ask is not None:
            return False  # answered inline when the tool is invoked
        if source.holding(call_id):
            return True  # asked again on resume: the held call is what the person saw
        pending = await source.aprepare(name, args)
        if not pending.needs_approval:
            return False
        approved = getattr(ctx, "is_tool_approved", None)
        if callable(approved) and approved(name, call_id):
            # Approved before anyone saw this call: a standing "always approve" in the SDK.
            # That is not a person's yes to this call; nothing is held, so the call is refused.
            return True
        source.hold(call_id, pending, args)
        return True

    async def invoke(ctx: ToolContext[Any], raw: str) -> str:
        try:
            args = json.loads(raw) if raw.strip() else {}
        except ValueError as exc:
            return source.output(ToolResult.error(f"⚒ The arguments are not JSON: {exc}"))
        # A call the SDK held for approval reaches here only after state.approve(item).
        pending = source.take(ctx.tool_call_id, args)
        approved: bool | None = True if pending is not None else None
        if pending is None:
            pending = await source.aprepare(name, args)
            if pending.needs_approval:
                approved = await source.aanswer(pending)
        return source.output(await pending.arun(approved))

    return FunctionTool(
        name=name,
        description=view.description,
        params_json_schema=view.schema,
        on_invoke_tool=invoke,
        strict_json_schema=view.strict,
        needs_approval=needs_approval,
    )
