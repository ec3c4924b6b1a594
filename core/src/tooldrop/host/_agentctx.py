"""``AgentContext``: one agent's view of a host's tools (the main agent, or a bundle's agent)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .._model import ToolResult, ToolSpec
    from ..calls._cancel import CancelToken
    from ..calls._pending import PendingCall
    from ..calls._pipeline import AskCallback
    from ..exports._export import ExportedTools
    from ..skills._skills import Skill
    from ._host import ToolHost

__all__ = ["AgentContext"]


class AgentContext:
    """The tools one agent is offered, and calls made as that agent.

    Made by :meth:`ToolHost.context`; every method is the host's own with ``skill`` filled
    in, so a context is cheap and always reflects the host's current tools and mode. A tool
    outside the context is, for these methods, a tool that does not exist.
    """

    __slots__ = ("host", "skill_name")

    def __init__(self, host: ToolHost, skill: str | None) -> None:
        self.host = host
        #: The bundle's name, or ``None`` for the main agent.
        self.skill_name = skill

    @property
    def skill(self) -> Skill | None:
        """The bundle (with its agent file), or ``None`` for the main agent."""
        return None if self.skill_name is None else self.host.skill(self.skill_name)

    def tools(self) -> list[ToolSpec]:
        """The tools offered to this agent in the host's mode."""
        return self.host.tools(self.skill_name)

    def get(self, name: str) -> ToolSpec | None:
        """The tool called ``name`` if this agent may call it (in some mode), else ``None``."""
        return self.host.lookup(name, self.skill_name)

    def export(self, fmt: str) -> ExportedTools:
        """This agent's tools as definitions for ``fmt`` (see :meth:`ToolHost.export`)."""
        return self.host.export(fmt, skill=self.skill_name)

    def render(self, name: str, args: Mapping[str, Any] | None = None) -> str:
        """The exact script a call would run (see :meth:`ToolHost.render`)."""
        return self.host.render(name, args, skill=self.skill_name)

    def prepare(
        self,
        name: str,
        args: Mapping[str, Any] | None = None,
        *,
        cancel: CancelToken | None = None,
    ) -> PendingCall:
        """A call by this agent, validated and judged, not run (see :meth:`ToolHost.prepare`)."""
        return self.host.prepare(name, args, cancel=cancel, skill=self.skill_name)

    async def aprepare(
        self,
        name: str,
        args: Mapping[str, Any] | None = None,
        *,
        cancel: CancelToken | None = None,
    ) -> PendingCall:
        """:meth:`prepare`, awaitable."""
        return await self.host.aprepare(name, args, cancel=cancel, skill=self.skill_name)

    def call(
        self,
        name: str,
        args: Mapping[str, Any] | None = None,
        *,
        ask: AskCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> ToolResult:
        """A call made by this agent (see :meth:`ToolHost.call`)."""
        return self.host.call(name, args, ask=ask, cancel=cancel, skill=self.skill_name)

    async def acall(
        self,
        name: str,
        args: Mapping[str, Any] | None = None,
        *,
        ask: Any = None,
        cancel: CancelToken | None = None,
    ) -> ToolResult:
        """:meth:`call`, awaitable (see :meth:`ToolHost.acall`)."""
        return await self.host.acall(name, args, ask=ask, cancel=cancel, skill=self.skill_name)

    def call_many(
        self,
        calls: Sequence[tuple[str, Mapping[str, Any] | None]],
        *,
        ask: AskCallback | None = None,
    ) -> list[ToolResult]:
        """Several calls by this agent (see :meth:`ToolHost.call_many`)."""
        return self.host.call_many(calls, ask=ask, skill=self.skill_name)

    async def acall_many(
        self,
        calls: Sequence[tuple[str, Mapping[str, Any] | None]],
        *,
        ask: AskCallback | None = None,
    ) -> list[ToolResult]:
        """:meth:`call_many`, awaitable."""
        return await self.host.acall_many(calls, ask=ask, skill=self.skill_name)

    def __repr__(self) -> str:
        who = "main agent" if self.skill_name is None else f"skill {self.skill_name!r}"
        return f"<AgentContext {who} of {self.host!r}>"
