"""tooldrop's tools as a LangChain toolkit, with LangGraph interrupts for approval.

::

    from tooldrop_adapters.langchain import TooldropToolkit
    tools = TooldropToolkit(interrupt=True).get_tools()
    agent = create_react_agent(model, tools, checkpointer=InMemorySaver())

Approval: with ``interrupt=True`` a call that needs a person calls LangGraph's ``interrupt()``
with what to show (tool, arguments, reason, preview, script, fingerprint); resume the graph with
``Command(resume=True)`` (or ``False``, or ``{"approved": ..., "fingerprint": ...}``) and the call
the person saw runs, or nothing does. With ``ask=`` a callback answers inline. With neither, such
a call is denied with the reason, which the model reads.

Errors are ``ToolException``\\ s, LangChain's tool error channel: with ``errors="text"`` (the
default) ``handle_tool_error`` turns them into an error ``ToolMessage`` for the model; with
``errors="raise"`` they propagate.

Each tool's schema is tooldrop's, and ``tool.metadata["strict"]`` its strict decision;
:meth:`TooldropToolkit.definitions` gives OpenAI definitions carrying it. Do not pass
``strict=True`` to ``bind_tools``: that would override it for every tool.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from langchain_core.tools import BaseTool, BaseToolkit, ToolException
from pydantic import ConfigDict, Field

from tooldrop import PendingCall, ToolHost

from ._common import Ask, Errors, Source, ToolView

__all__ = ["TooldropTool", "TooldropToolkit"]


class TooldropTool(BaseTool):
    """One tooldrop tool as a LangChain tool (built by :class:`TooldropToolkit`)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    source: Source = Field(exclude=True)
    use_interrupt: bool = False

    def _run(self, **kwargs: Any) -> str:
        kwargs.pop("run_manager", None)
        source = self.source
        pending = source.prepare(self.name, kwargs)
        approved: bool | None = None
        if pending.needs_approval:
            pending, approved = self._approval(pending, kwargs, source.answer)
        return _text(source, pending.run(approved))

    async def _arun(self, **kwargs: Any) -> str:
        kwargs.pop("run_manager", None)
        source = self.source
        pending = await source.aprepare(self.name, kwargs)
        approved: bool | None = None
        if pending.needs_approval:
            if self.use_interrupt:
                pending, approved = self._approval(pending, kwargs, source.answer)
            else:
                approved = await source.aanswer(pending)
        return _text(source, await pending.arun(approved))

    def _approval(
        self, pending: PendingCall, args: Mapping[str, Any], answer: Any
    ) -> tuple[PendingCall, bool | None]:
        """The call to run and the person's answer: inline, or through a graph interrupt."""
        if not self.use_interrupt:
            return pending, answer(pending)
        from langgraph.types import interrupt

        # The node runs again from the top when the graph resumes: the call prepared the first
        # time is held under its fingerprint, and the answer goes to that very call.
        self.source.hold(pending.fingerprint, pending, args)
        reply = interrupt(
            {
                "tool": pending.name,
                "args": dict(pending.args),
                "reason": pending.reason,
                "preview": pending.preview,
                "script": pending.script,
                "fingerprint": pending.fingerprint,
            }
        )
        held = self.source.take(pending.fingerprint, args) or pending
        if isinstance(reply, Mapping):
            shown = reply.get("fingerprint")
            if shown is not None and shown != held.fingerprint:
                return held, False  # the answer was for another call
            reply = reply.get("approved")
        return held, reply is True


def _text(source: Source, result: Any) -> str:
    if result.is_error:
        raise ToolException(result.text)
    return str(result.text)


class TooldropToolkit(BaseToolkit):
    """Every available tooldrop tool (or those named in ``tools``) as LangChain tools.

    :param host: The :class:`~tooldrop.ToolHost` (default: one for ``project_dir``).
    :param tools: The tool names to offer (default: all available).
    :param skill: Offer and call the tools of skill bundle ``skill``'s agent (its scoped
        tools included), not the main agent's.
    :param ask: ``ask(pending) -> bool`` answers approval inline.
    :param interrupt: Ask through LangGraph's ``interrupt()`` (needs a checkpointer).
    :param errors: ``"text"``: failed calls become error ``ToolMessage``\\ s; ``"raise"``: their
        ``ToolException`` propagates.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    source: Source = Field(exclude=True)
    interrupt: bool = False

    def __init__(
        self,
        host: ToolHost | None = None,
        *,
        project_dir: str | os.PathLike[str] = ".",
        tools: Iterable[str] | None = None,
        skill: str | None = None,
        ask: Ask | None = None,
        interrupt: bool = False,
        errors: Errors = "text",
    ) -> None:
        source = Source(
            host, project_dir=project_dir, tools=tools, skill=skill, ask=ask, errors=errors
        )
        super().__init__(source=source, interrupt=interrupt)  # type: ignore[call-arg]

    def get_tools(self) -> list[BaseTool]:
        return [self._tool(view) for view in self.source.views()]

    def definitions(self) -> list[dict[str, Any]]:
        """OpenAI tool definitions with tooldrop's strict per tool, for ``bind_tools``."""
        return [
            {
                "type": "function",
                "function": {
                    "name": view.name,
                    "description": view.description,
                    "parameters": view.schema,
                    "strict": view.strict,
                },
            }
            for view in self.source.views()
        ]

    def _tool(self, view: ToolView) -> TooldropTool:
        return TooldropTool(
            name=view.name,
            description=view.description,
            args_schema=view.schema,
            source=self.source,
            use_interrupt=self.interrupt,
            handle_tool_error=self.source.errors == "text",
            metadata={"strict": view.strict, "read_only": view.spec.read_only},
        )
