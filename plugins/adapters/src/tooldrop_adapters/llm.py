"""tooldrop's tools as an `llm <https://llm.datasette.io>`_ toolbox.

::

    from tooldrop_adapters.llm import Tooldrop
    model.chain("...", tools=[Tooldrop()]).text()

On the command line, after ``llm install llm-tools-tooldrop``: ``llm -T Tooldrop "..."``.

Approval: a call that needs a person is put to ``ask(pending)``; without one, to the person at
the terminal (the preview on stderr, then yes/no) when there is one, and otherwise it is
cancelled with the reason. A refused call raises llm's ``CancelToolCall``; other failures raise
:class:`~tooldrop_adapters.ToolError`; llm hands both to the model as the tool's error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import Any

import llm

from tooldrop import PendingCall, ToolHost

from ._common import Ask, Errors, Source, ToolError, ToolView

__all__ = ["Tooldrop"]


def _terminal_ask(pending: PendingCall) -> bool | None:
    """Ask the person at the terminal; ``None`` when there is none."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return None
    import click

    click.echo(pending.preview, err=True)
    if pending.reason:
        click.echo(f"({pending.reason})", err=True)
    return click.confirm("Run it?", default=False, err=True)


class Tooldrop(llm.Toolbox):  # type: ignore[no-untyped-call]
    """Every available tooldrop tool (or those named in ``tools``), each under its own name.

    :param project_dir: The project whose ``.tooldrop/tools`` (and your personal tools) to load.
    :param tools: The tool names to offer (default: all available).
    :param skill: Offer and call the tools of skill bundle ``skill``'s agent (its scoped
        tools included), not the main agent's.
    :param ask: ``ask(pending) -> bool`` answers approval (default: the terminal, if any).
    :param errors: ``"raise"`` (default; llm shows the model ``Error: ...``) or ``"text"``.
    :param host: A :class:`~tooldrop.ToolHost` to use instead of one for ``project_dir``.
    """

    def __init__(
        self,
        project_dir: str = ".",
        tools: Iterable[str] | None = None,
        ask: Ask | None = None,
        errors: Errors = "raise",
        host: ToolHost | None = None,
        skill: str | None = None,
    ) -> None:
        self._source = Source(
            host,
            project_dir=os.fspath(project_dir),
            tools=tools,
            skill=skill,
            ask=ask or _terminal_ask,
            errors=errors,
        )
        # Added now, not in prepare(): llm lists a toolbox's tools before preparing it.
        for view in self._source.views():
            self.add_tool(self._tool(view))

    def _tool(self, view: ToolView) -> llm.Tool:
        source, name = self._source, view.name

        def implementation(**kwargs: Any) -> str:
            pending = source.prepare(name, kwargs)
            approved: bool | None = None
            if pending.needs_approval:
                approved = source.answer(pending)
                if approved is not True:
                    refused = pending.run(approved)
                    raise llm.CancelToolCall(refused.text)
            result = pending.run(approved)
            if result.denied:
                raise llm.CancelToolCall(result.text)
            return source.output(result, ToolError)

        return llm.Tool(
            name=name,
            description=view.description,
            input_schema=view.schema,
            implementation=implementation,
            plugin="llm-tools-tooldrop",
        )
