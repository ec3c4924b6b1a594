"""Skill bundles: folders with a ``skill.yaml``, an agent and tools only that agent is offered.

A bundle is a directory directly under a skills root (the personal config dir's ``skills/``,
the project's ``.<app>/skills/``) holding a ``skill.yaml``; its members are ``tools/*`` (loaded
by the tool loaders, like any tools dir), ``agents/*.md`` (one subagent) and ``commands/*.md``.
This module reads the roots, manifests and agents; ``host._bundles`` loads the tools and decides
which bundle wins a name. Behaviour follows Nanocoder 1.30 except where docs/skills.md says.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from attrs import field, frozen

from .._files import read_regular_file
from .._model import Problem, Scope, ToolSpec
from ._manifest import (
    MAX_SKILL_VALUES,
    PLACEHOLDER_DESCRIPTION,
    Manifest,
    Subscription,
    Visibility,
    read_manifest,
)

__all__ = ["Agent", "Bundle", "Skill", "in_context", "read_agents", "scan_root"]

#: An agent file larger than this is refused unread.
MAX_AGENT_BYTES = 1024 * 1024


@frozen(kw_only=True)
class Agent:
    """A bundle's subagent, from ``agents/<file>.md``: what a host needs to build it."""

    #: The frontmatter's ``name``.
    name: str
    #: The frontmatter's ``description``: when a host should hand work to this agent.
    description: str
    #: The agent file.
    path: Path
    #: The ``tools:`` allow-list; empty means no filter (as in Nanocoder, ``tools: []`` too).
    tools: tuple[str, ...] = ()
    #: ``disallowedTools:``: never offered to this agent.
    disallowed_tools: tuple[str, ...] = ()
    #: The file's body: the agent's instructions (system prompt).
    prompt: str = field(default="", repr=False)


@frozen(kw_only=True)
class Skill:
    """A loaded skill bundle, read-only. Its tools are those whose ``origin.skill`` is its name."""

    #: The manifest's ``name`` (not the directory's).
    name: str
    #: The manifest's ``description``, trimmed.
    description: str
    #: ``personal`` or ``project``: the layer the bundle is in.
    scope: Scope
    #: The bundle's directory (its name need not be the skill's name).
    path: Path
    #: ``scoped`` (the default: only the bundle's agent is offered its tools) or ``global``.
    visibility: Visibility
    #: The whole ``skill.yaml``, checked.
    manifest: Manifest = field(repr=False)
    #: The bundle's agent (the first ``agents/*.md`` that loads), or ``None``.
    agent: Agent | None = None
    #: Command names, ``<skill>:<file>`` (``<skill>`` for ``commands/<skill>.md``).
    commands: tuple[str, ...] = ()
    #: Names of the tools the bundle's files define (whether or not they won their name).
    tool_names: tuple[str, ...] = ()

    @property
    def version(self) -> str | None:
        return self.manifest.version

    @property
    def subscriptions(self) -> tuple[Subscription, ...]:
        return self.manifest.subscribe


@frozen(kw_only=True)
class Parsed:
    """A manifest or agent file read: the object, or the problem (what the parse cache keeps)."""

    value: Manifest | Agent | None
    problem: Problem | None


class _Cache(Protocol):
    def get_value(self, name: str, st: os.stat_result, kind: type) -> Any: ...
    def put_value(self, name: str, before: os.stat_result, path: Path, value: Any) -> None: ...


def _cached(
    cache: _Cache | None, key: str, path: Path, st: os.stat_result, read: Callable[[Path], Parsed]
) -> Parsed:
    """``read(path)``, or what the parse cache kept for this very file."""
    found: Parsed | None = None if cache is None else cache.get_value(key, st, Parsed)
    if found is None:
        found = read(path)
        if cache is not None:
            cache.put_value(key, st, path, found)
    return found


def _read_manifest(path: Path) -> Parsed:
    manifest, problem = read_manifest(path)
    return Parsed(value=manifest, problem=problem)


@frozen(kw_only=True)
class Bundle:
    """A bundle directory whose manifest is valid, before its members are read."""

    manifest: Manifest
    path: Path
    scope: Scope


def _entries(directory: Path) -> list[os.DirEntry[str]]:
    with os.scandir(directory) as it:
        return sorted(it, key=lambda e: e.name)  # str order is byte order for UTF-8


def scan_root(
    root: Path, scope: Scope, open_cache: Callable[[], _Cache | None] | None = None
) -> tuple[list[Bundle], list[Problem], _Cache | None]:
    """The bundles directly under ``root`` in name order, the first of each skill name, and
    the problems: bad manifests (which drop their bundle) and duplicate names in the layer.

    ``open_cache`` gives the parse cache of this root, asked only when the root has entries;
    it is returned for the bundles' members.
    """
    try:
        entries = _entries(root)
    except (FileNotFoundError, NotADirectoryError):
        return [], [], None
    except OSError as exc:
        message = f"cannot read skills directory: {exc.strerror or exc}"
        return [], [Problem(path=root, message=message)], None
    cache = open_cache() if open_cache is not None and entries else None
    bundles: list[Bundle] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for entry in entries:
        directory = Path(entry.path)
        manifest_path = directory / "skill.yaml"
        try:
            st = manifest_path.stat()
        except OSError:
            continue  # not a bundle (skill.yml is not one either)
        parsed = _cached(cache, f"{entry.name}/skill.yaml", manifest_path, st, _read_manifest)
        if parsed.problem is not None:
            problems.append(parsed.problem)
        manifest = parsed.value
        if not isinstance(manifest, Manifest):
            continue
        if manifest.name in seen:
            name = manifest.name
            message = f'Duplicate skill name "{name}" in {scope} layer - keeping the first.'
            problems.append(Problem(path=manifest_path, field="name", message=message))
            bundles.append(Bundle(manifest=manifest, path=directory, scope=scope))
            continue  # kept in the list so its members are still checked; never registered
        seen.add(manifest.name)
        bundles.append(Bundle(manifest=manifest, path=directory, scope=scope))
    return bundles, problems, cache


def _member_files(directory: Path) -> Iterator[tuple[Path, os.stat_result]]:
    """``*.md`` regular files (symlinks followed) directly in ``directory``, in name order."""
    try:
        entries = _entries(directory)
    except OSError:
        return
    for entry in entries:
        if not entry.name.endswith(".md"):
            continue
        try:
            st = entry.stat()
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            yield Path(entry.path), st


def _split(text: str) -> tuple[str, str, int] | None:
    """``(frontmatter, body, line of the frontmatter's first line)``, or ``None``."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip("\r") != "---":
        return None
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r") == "---":
            return "\n".join(lines[1:index]), "\n".join(lines[index + 1 :]).strip(), 2
    return None


def _names(value: object, key: str, path: Path) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _AgentError(f'"{key}" must be a list of tool names', key)
    return tuple(value)


class _AgentError(Exception):
    def __init__(self, message: str, field: str = "", line: int | None = 1) -> None:
        super().__init__(message)
        self.message, self.field, self.line = message, field, line


def read_agent(path: Path) -> Agent:
    """One agent file; raises :class:`_AgentError` saying why it is not one."""
    try:  # bounded and non-blocking: a FIFO is refused
        data = read_regular_file(path, MAX_AGENT_BYTES)
    except OSError as exc:
        raise _AgentError(f"cannot read the file: {exc.strerror or exc}", line=None) from None
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise _AgentError("the file is not UTF-8 text; save it as UTF-8") from None
    split = _split(text)
    if split is None:
        raise _AgentError(
            "Missing YAML frontmatter — agent files must declare name and description "
            "between --- markers"
        )
    frontmatter, body, first = split
    from ..yaml12 import YamlError, load, too_big  # imported when an agent file is read

    try:
        value = load(frontmatter, first)
    except YamlError as exc:
        raise _AgentError(f"Frontmatter is not valid YAML: {exc.message}", line=exc.line) from None
    if (why := too_big(value, MAX_SKILL_VALUES)) is not None:
        raise _AgentError(f"Frontmatter is not valid YAML: {why}", line=first)
    if not isinstance(value, dict):
        raise _AgentError("Frontmatter is not a YAML mapping", line=first)
    name, description = value.get("name"), value.get("description")
    if not isinstance(name, str) or not name.strip():
        raise _AgentError('Invalid or missing "name" — an agent needs a name', "name")
    if not isinstance(description, str) or not description.strip():
        raise _AgentError('Missing or empty "description"', "description")
    return Agent(
        name=name.strip(),
        description=description.strip(),
        path=path,
        tools=_names(value.get("tools"), "tools", path),
        disallowed_tools=_names(value.get("disallowedTools"), "disallowedTools", path),
        prompt=body,
    )


def _read_agent(path: Path) -> Parsed:
    try:
        return Parsed(value=read_agent(path), problem=None)
    except _AgentError as exc:
        problem = Problem(path=path, line=exc.line, field=exc.field, message=exc.message)
        return Parsed(value=None, problem=problem)


def read_agents(bundle: Path, cache: _Cache | None = None) -> tuple[Agent | None, list[Problem]]:
    """The bundle's agent (the first ``agents/*.md`` that parses) and the problems."""
    agents: list[Agent] = []
    problems: list[Problem] = []
    for path, st in _member_files(bundle / "agents"):
        parsed = _cached(cache, f"{bundle.name}/agents/{path.name}", path, st, _read_agent)
        if isinstance(parsed.value, Agent):
            agents.append(parsed.value)
        elif parsed.problem is not None:
            problems.append(parsed.problem)
    if len(agents) > 1:
        ignored = ", ".join(a.path.name for a in agents[1:])
        message = (
            "agents/ has multiple .md files (only one subagent per bundle is supported): "
            f"ignoring {ignored}."
        )
        problems.append(Problem(path=bundle / "agents", message=message))
    return (agents[0] if agents else None), problems


def read_commands(bundle: Path, skill: str) -> tuple[str, ...]:
    """Command names: ``commands/<f>.md`` is ``<skill>:<f>``, or ``<skill>`` when ``f`` is it."""
    names = []
    for path, _ in _member_files(bundle / "commands"):
        stem = path.name[: -len(".md")]
        names.append(skill if stem == skill else f"{skill}:{stem}")
    return tuple(names)


def member_problems(
    bundle: Bundle, agent: Agent | None, commands: Iterable[str], tools: Iterable[str]
) -> list[Problem]:
    """What ``/skills check`` adds: subscriptions that name no member, duplicates, and the
    warnings (no members, unreachable scoped tools, the placeholder description)."""
    manifest, at = bundle.manifest, bundle.path / "skill.yaml"
    tools = tuple(tools)
    commands = tuple(commands)
    members = {f"tool:{name}" for name in tools}
    members |= {f"command:{c.partition(':')[2] or c}" for c in commands}
    if agent is not None:
        members.add(f"agent:{agent.name}")
    problems: list[Problem] = []
    seen: set[tuple[str, str]] = set()
    for index, sub in enumerate(manifest.subscribe):
        where = f"subscribe[{index}].target"
        if sub.target not in members:
            message = f'{where} "{sub.target}" does not resolve to a member of this bundle.'
            problems.append(Problem(path=at, field=where, message=message, severity="warning"))
        key = (sub.kind, sub.target)
        if key in seen:
            message = (
                f"Duplicate subscription (kind={sub.kind}, target={sub.target}) - declared in "
                "both manifest and manifest."
            )
            problems.append(Problem(path=at, field=where, message=message, severity="warning"))
        seen.add(key)
    if not tools and not commands and agent is None:
        message = (
            "Bundle has no members. Add at least one .md file under commands/, agents/, or tools/."
        )
        problems.append(Problem(path=at, message=message, severity="warning"))
    if tools and agent is None and manifest.visibility == "scoped":
        message = (
            "Tools are scoped (the default) but the bundle has no agent. Scoped tools are only "
            "visible to the bundle's own subagent, so these tools are unreachable. Add an agent "
            'under agents/, or set "tools_visibility: global" in skill.yaml.'
        )
        problems.append(Problem(path=at, message=message, severity="warning"))
    if manifest.description == PLACEHOLDER_DESCRIPTION:
        message = (
            'Description is still the scaffold placeholder. Update "description" in skill.yaml.'
        )
        problems.append(Problem(path=at, field="description", message=message, severity="warning"))
    return problems


def in_context(spec: ToolSpec, skill: Skill | None) -> bool:
    """Whether ``spec`` belongs to the agent context of ``skill`` (``None``: the main agent).

    The main agent has every tool but scoped bundle tools. A bundle's agent has those plus its
    own bundle's scoped tools, narrowed by its agent's ``tools:`` (when not empty) and
    ``disallowedTools:``. Mode filters apply afterwards, as for any tool.
    """
    origin = spec.origin
    if skill is None:
        return origin.visibility != "scoped"
    if origin.visibility == "scoped" and origin.skill != skill.name:
        return False
    agent = skill.agent
    if agent is not None:
        if agent.tools and spec.name not in agent.tools:
            return False
        if spec.name in agent.disallowed_tools:
            return False
    return True
