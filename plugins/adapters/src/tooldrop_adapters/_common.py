"""What every adapter shares: the host, the options, the pending calls awaiting a framework's
approval step, and how a result becomes the framework's text or error.

The rule that keeps approval honest across frameworks: ``run(approved=True)`` is only ever
called on a :class:`~tooldrop.PendingCall` whose ``needs_approval`` was handed to a person (the
``ask`` callback, or the framework's own approval step that then resumed *that* call). A call
the framework invokes without having been through its approval step is prepared afresh and
runs only if it needs no one.
"""

from __future__ import annotations

import inspect
import logging
import os
import threading
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, Literal

from tooldrop import (
    PendingCall,
    ToolHost,
    ToolResult,
    ToolSpec,
    UnknownToolError,
    export_tools,
    why_not_strict,
)

__all__ = ["Ask", "Errors", "Source", "ToolError", "ToolView"]

#: ``"raise"``: a failed call raises the framework's error (its error channel); ``"text"``: the
#: error's text is returned as the tool's output.
Errors = Literal["raise", "text"]
#: ``ask(pending) -> bool``: answer approval inline instead of the framework's approval step.
#: ``None``: nobody could answer (the call is denied). May be a coroutine function.
Ask = Callable[[PendingCall], "bool | Awaitable[bool | None] | None"]

log = logging.getLogger("tooldrop.adapters")


class ToolError(Exception):
    """A tooldrop call that failed: unknown tool, invalid arguments, denied, or the tool failed.

    ``str(error)`` is the text the model should read; ``error.result`` the whole result.
    """

    def __init__(self, result: ToolResult) -> None:
        super().__init__(result.text)
        self.result = result


class ToolView:
    """One tool as a framework sees it: name, description, JSON Schema, tooldrop's strict."""

    __slots__ = ("description", "name", "schema", "spec", "strict")

    def __init__(self, spec: ToolSpec, schema: dict[str, Any], strict: bool) -> None:
        self.spec = spec
        self.name = spec.name
        self.description = spec.description
        self.schema = schema
        self.strict = strict


class Source:
    """The host and the options an adapter was given, and its calls waiting for approval.

    :param host: The :class:`~tooldrop.ToolHost` to use; by default one for ``project_dir``
        with the installed plugins.
    :param tools: The tool names to offer (default: every available tool).
    :param skill: Offer and call the tools of skill bundle ``skill``'s agent (its scoped
        tools included), not the main agent's.
    :param ask: Answer approval inline instead of through the framework's approval step.
    :param errors: ``"raise"`` (the framework's error channel) or ``"text"``.
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
    ) -> None:
        if errors not in ("raise", "text"):
            raise ValueError(f"errors must be 'raise' or 'text', not {errors!r}")
        self.host = host if host is not None else ToolHost(project_dir=project_dir)
        self.names = None if tools is None else frozenset(tools)
        self.skill = skill
        self.ask = ask
        self.errors: Errors = errors
        self._waiting: dict[str, tuple[PendingCall, dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._noticed = False

    # -- listing --------------------------------------------------------------------------

    def views(self) -> list[ToolView]:
        """The tools to offer, each with its schema and strict decision as tooldrop exports it."""
        self.notice()
        specs = [
            s for s in self.host.tools(self.skill) if self.names is None or s.name in self.names
        ]
        if self.names is not None:
            missing = sorted(self.names - {s.name for s in specs})
            if missing:
                log.warning("tooldrop: no such tool available: %s", ", ".join(missing))
        exported = export_tools(specs, "openai")
        for problem in exported.problems:
            if problem.severity == "error":
                log.warning("tooldrop: %s", problem.format())
        by_name = {spec.name: spec for spec in specs}
        views = []
        for definition in exported:
            function = definition["function"]
            spec = by_name[function["name"]]
            schema = function["parameters"]
            views.append(ToolView(spec, schema, not why_not_strict(schema, "openai")))
        return views

    def notice(self) -> str:
        """Why project tools ask or are missing, logged once per adapter ("" when trusted)."""
        text = self.host.untrusted_notice()
        if text and not self._noticed:
            self._noticed = True
            log.warning("%s", text)
        return text

    # -- calls awaiting the framework's approval step -------------------------------------

    def hold(self, call_id: str, pending: PendingCall, args: Mapping[str, Any] | None) -> None:
        """Keep a call that needs approval until the framework resumes it (by its call id).

        A call already held for ``call_id`` stays: it is the one the person is being shown.
        """
        with self._lock:
            self._waiting.setdefault(call_id, (pending, dict(args or {})))

    def holding(self, call_id: str) -> bool:
        with self._lock:
            return call_id in self._waiting

    def take(self, call_id: str | None, args: Mapping[str, Any] | None) -> PendingCall | None:
        """The held call for ``call_id``, if the framework resumes it with the same arguments."""
        if call_id is None:
            return None
        with self._lock:
            held = self._waiting.pop(call_id, None)
        if held is None or held[1] != dict(args or {}):
            return None
        return held[0]

    async def aresumed(self, call_id: str | None, name: str, args: Any) -> PendingCall:
        """The call a person approved through the framework: the one they were shown.

        If nothing is held (a resume in another process, or arguments the person edited in
        the framework's approval step), the call is prepared again with the arguments the
        framework passes, which are the ones the person approved.
        """
        return self.take(call_id, args) or await self.aprepare(name, args)

    def resumed(self, call_id: str | None, name: str, args: Any) -> PendingCall:
        return self.take(call_id, args) or self.prepare(name, args)

    # -- running --------------------------------------------------------------------------

    def _not_offered(self, name: str) -> PendingCall | None:
        """A refusal for a tool left out by ``tools=``: the model may not reach around it."""
        if self.names is None or name in self.names:
            return None
        # The core's text, with a "did you mean" among the offered names only.
        result = ToolResult.error(str(UnknownToolError(name, known=self.names)))
        return PendingCall(name=name, spec=None, call=None, result=result, host=self.host)

    async def aprepare(self, name: str, args: Mapping[str, Any] | None) -> PendingCall:
        return self._not_offered(name) or await self.host.aprepare(name, args, skill=self.skill)

    def prepare(self, name: str, args: Mapping[str, Any] | None) -> PendingCall:
        return self._not_offered(name) or self.host.prepare(name, args, skill=self.skill)

    async def aanswer(self, pending: PendingCall) -> bool | None:
        """The ``ask`` callback's answer; ``None``: no callback, or it cannot say; ``False``: it
        failed."""
        if self.ask is None:
            return None
        try:
            answer = self.ask(pending)
            if inspect.isawaitable(answer):
                answer = await answer
        except Exception:
            log.exception("tooldrop: the ask callback failed; the call is denied")
            return False
        return None if answer is None else answer is True

    def answer(self, pending: PendingCall) -> bool | None:
        if self.ask is None:
            return None
        try:
            answer = self.ask(pending)
            if inspect.isawaitable(answer):
                close = getattr(answer, "close", None)
                if callable(close):
                    close()
                raise TypeError("this framework calls tools synchronously; pass a sync ask")
        except Exception:
            log.exception("tooldrop: the ask callback failed; the call is denied")
            return False
        return None if answer is None else answer is True

    def output(self, result: ToolResult, error: type[Exception] = ToolError) -> str:
        """The text for the model; with ``errors="raise"`` an error result raises ``error``."""
        if result.is_error and self.errors == "raise":
            if issubclass(error, ToolError):
                raise error(result)
            raise error(result.text)
        return result.text
