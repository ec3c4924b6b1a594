"""How tools, problems and plugins look on a terminal and in ``--json`` output."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .._errors import UnknownToolError
from .._model import Problem, ToolSpec
from ..host._plugins import PluginInfo
from ..skills._skills import Skill

if TYPE_CHECKING:
    from ..host._host import ToolHost

__all__ = [
    "allowed",
    "echo_json",
    "no_tool",
    "plugin_json",
    "problem_json",
    "shown_path",
    "skill_json",
    "tool_json",
]


def shown_path(path: Path | None) -> str:
    """A path as a person wants to read it: relative to cwd, else with ``~``, else absolute."""
    if path is None:
        return ""
    cwd = Path.cwd()
    try:
        return str(path.relative_to(cwd))
    except ValueError:
        pass
    home = Path.home()
    try:
        return str(Path("~") / path.relative_to(home))
    except ValueError:
        return str(path)


def no_tool(host: ToolHost, name: str, known: Iterable[str]) -> str:
    """``tooldrop: no tool named "x" (see `tooldrop list`)``, with the count of tool files
    that failed to load and the ``known`` names closest to ``name``."""
    text = f'tooldrop: no tool named "{name}" (see `tooldrop list`)'
    failed = len({p.path for p in host.problems() if p.severity == "error" and p.path})
    if failed:
        text += f"; {failed} tool file(s) failed to load, see `tooldrop check`"
    close = UnknownToolError(name, known=known).suggestions
    if close:
        text += "; did you mean " + " or ".join(f'"{n}"' for n in close) + "?"
    return text


def problem_line(problem: Problem) -> str:
    """``file:line: field: message`` with the file shown as :func:`shown_path` does."""
    location = shown_path(problem.path)
    if location and problem.line:
        location = f"{location}:{problem.line}"
    parts = [p for p in (location, problem.field) if p]
    text = ": ".join([*parts, problem.message])
    return text if problem.severity == "error" else f"{text} [{problem.severity}]"


def _asks(spec: ToolSpec) -> str:
    asks = [f"writable: {', '.join(spec.writable)}"] if spec.writable else []
    if spec.network:
        asks.append("network: true")
    return f" (the tool asks for {' and '.join(asks)})" if asks else ""


def allowed(spec: ToolSpec, host: ToolHost) -> str:
    """What a tool's processes may do if it runs now: confined by a sandbox, or everything."""
    if spec.runner != "shell":
        return f"not confined: {spec.runner} tools run inside the host's process"
    confinement = host.confinement(spec)
    if confinement is not None:
        return confinement.describe(host.project_dir)
    if host.sandbox == "off":
        return f"not confined (sandbox: off): your full rights{_asks(spec)}"
    if host.sandbox == "required":
        return "refused: the sandbox is required and cannot confine it here"
    return f"not confined (sandbox: auto, but no sandbox works here): your full rights{_asks(spec)}"


def place_text(scope: str, place: str) -> str:
    """Where a grant holds, as a person reads it: ``project ~/src/app``, ``your personal tools``."""
    if scope == "project":
        return f"project {shown_path(Path(place))}"
    if scope == "personal":
        return f"personal tools in {shown_path(Path(place))}"
    return f"plugin tools from {shown_path(Path(place)) if place.startswith('/') else place}"


def grant_state(spec: ToolSpec, host: ToolHost, granted: bool | None = None) -> str:
    """``applies``, ``waits for trust`` or ``""``: what a remembered grant does for ``spec``.

    :param granted: Whether a grant covers the tool here, when already known (a listing reads
        the grants file once); read from ``host.grants`` otherwise.
    """
    if spec.requires_approval:
        return ""  # asks on every call: a grant never applies
    if granted is None:
        granted = host.grants.is_granted(spec)
    if not granted:
        return ""
    return "applies" if host.is_trusted(spec) else "waits for trust"


def tool_json(spec: ToolSpec, *, available: bool, grant: str = "") -> dict[str, Any]:
    origin = spec.origin
    return {
        "name": spec.name,
        "description": spec.description,
        "source": origin.source,
        "scope": origin.scope,
        "path": None if origin.path is None else str(origin.path),
        "line": origin.line,
        "approval": spec.approval,
        "read_only": spec.read_only,
        "requires_approval": spec.requires_approval,
        "timeout_ms": spec.timeout_ms,
        "network": spec.network,
        "writable": list(spec.writable),
        "runner": spec.runner,
        "available": available,
        "skill": origin.skill,
        "visibility": origin.visibility,
        # "applies", "waits for trust" (an untrusted project's tool), or null.
        "grant": grant or None,
        "input_schema": spec.input_schema,
    }


def skill_json(skill: Skill) -> dict[str, Any]:
    agent = skill.agent
    return {
        "name": skill.name,
        "description": skill.description,
        "scope": skill.scope,
        "path": str(skill.path),
        "visibility": skill.visibility,
        "version": skill.version,
        "agent": None
        if agent is None
        else {
            "name": agent.name,
            "description": agent.description,
            "path": str(agent.path),
            "tools": list(agent.tools),
            "disallowed_tools": list(agent.disallowed_tools),
        },
        "commands": list(skill.commands),
        "tools": list(skill.tool_names),
    }


def problem_json(problem: Problem) -> dict[str, Any]:
    return {
        "path": None if problem.path is None else str(problem.path),
        "line": problem.line,
        "field": problem.field,
        "message": problem.message,
        "severity": problem.severity,
    }


def plugin_json(info: PluginInfo) -> dict[str, Any]:
    return {
        "name": info.name,
        "origin": info.origin,
        "module": info.module,
        "distribution": info.distribution,
        "version": info.version,
        "hooks": list(info.hooks),
        "loaded": info.loaded,
        "error": info.error,
    }


def echo_json(data: object) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def first_line(text: str, width: int | None) -> str:
    """The first line of ``text``, cut to ``width`` characters (``None``: whole)."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if width is None or len(line) <= width else line[: width - 1] + "…"


def on_a_terminal() -> bool:
    """stdout is a terminal: fit lines to its width (a pipe gets the full text)."""
    isatty = getattr(sys.stdout, "isatty", None)  # None: no stream at all (pythonw)
    return bool(isatty()) if callable(isatty) else False


def use_colour() -> bool:
    """Colour on a terminal, unless ``NO_COLOR`` is set (https://no-color.org) or TERM=dumb."""
    return on_a_terminal() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def paint(text: str, **style: Any) -> str:
    """``text`` styled as click.style does, when :func:`use_colour` says so."""
    return click.style(text, **style) if use_colour() else text


def terminal_width() -> int:
    try:
        return max(60, min(os.get_terminal_size().columns, 160))
    except OSError:
        return 100
