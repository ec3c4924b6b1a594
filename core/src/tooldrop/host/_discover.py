"""Discovery: scan the tools directories, ask the loaders, fill the registry."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import evolve

from .._model import SCOPES, LoadResult, Origin, Problem, Scope, ToolDir, ToolSpec
from .._registry import Registry
from ..skills._manifest import read_manifest
from ..skills._skills import Bundle
from ._bundles import load_bundle, skill_layers
from ._isolated import call_isolated, running_plugin
from ._scan import Collector, describe, kept, load_one, scan_dir

if TYPE_CHECKING:
    from ._base import HostBase

__all__ = ["discover", "load_paths"]


def _ordered_dirs(host: HostBase) -> list[ToolDir]:
    dirs = [ToolDir(path=host.personal_tools_dir, scope="personal")]
    try:
        for extra in host.hook.tooldrop_tool_dirs(host=host):
            dirs.extend(extra or ())
    except Exception as exc:  # noqa: BLE001 - a plugin's failure is reported, not raised.
        host._load_problems.append(Problem(message=f"tooldrop_tool_dirs failed: {describe(exc)}"))
    dirs.append(ToolDir(path=host.project_tools_dir, scope="project"))
    rank = {scope: index for index, scope in enumerate(SCOPES)}
    return sorted(dirs, key=lambda d: rank[d.scope])  # sorted() is stable within a scope


def _plugin_tools(host: HostBase) -> Iterator[tuple[ToolSpec | None, Problem | None]]:
    """Call ``tooldrop_register_tools`` and stamp each tool with the plugin that registered it.

    Each implementation fails on its own (:mod:`._isolated`): one that raises keeps what it
    registered before, and the others still run.
    """
    # (plugin, tool) or (plugin, problem), in the order they happened.
    events: list[tuple[str, Any, Problem | None]] = []

    def register(obj: Any) -> None:
        events.append((running_plugin() or "unknown", obj, None))

    def report(plugin: str, exc: BaseException) -> None:
        message = f"tooldrop_register_tools failed: {describe(exc)}"
        events.append((plugin, None, Problem(field=f"plugin {plugin}", message=message)))

    call_isolated(host.hook.tooldrop_register_tools, report, register=register, host=host)
    if not events:
        return
    # The Python-tool machinery (signatures, type hints to schemas) is imported only when a
    # plugin registered something: a host of file tools alone never needs it.
    from ..pytools._tool import to_spec

    for plugin, obj, problem in events:
        if problem is not None:
            yield None, problem
            continue
        origin = Origin(source=f"entrypoint:{plugin}", scope="plugin")
        if isinstance(obj, ToolSpec):  # keep where it says it came from, and its hash
            origin = evolve(obj.origin, source=origin.source, scope="plugin")
        try:
            yield to_spec(obj, origin=origin), None
        except Exception as exc:  # noqa: BLE001 - a malformed tool is a problem, not a crash.
            yield None, Problem(field=f"plugin {plugin}", message=describe(exc))


def discover(host: HostBase, last_good: dict[str, LoadResult]) -> tuple[Registry, list[Problem]]:
    """Load every tool the plugins and directories provide into a fresh registry.

    ``last_good`` maps each file to its last load that produced tools; a file that now fails
    keeps those tools (and says so), so an edit in progress does not make a tool vanish.
    """
    return _discover(host, last_good)


def _discover(host: HostBase, last_good: dict[str, LoadResult]) -> tuple[Registry, list[Problem]]:
    collector = Collector(host)
    for spec, problem in _plugin_tools(host):
        if problem is not None:
            collector.problems.append(problem)
        if spec is not None:
            collector.admit([spec])

    layers = skill_layers(host, collector.problems)
    dirs = _ordered_dirs(host)
    for scope in SCOPES:
        for tool_dir in dirs:
            if tool_dir.scope == scope:
                for path, result in scan_dir(host, tool_dir, use_cache=True):
                    collector.admit(kept(collector, path, result, last_good))
        if scope in layers:
            bundles, cache = layers[scope]
            for bundle, wins in bundles:
                load_bundle(host, collector, bundle, wins, last_good, cache)
            if cache is not None:
                cache.save()
    return collector.registry, collector.problems


def load_paths(
    host: HostBase, paths: Iterable[str | os.PathLike[str]]
) -> tuple[Registry, list[Problem]]:
    """Load just these files and directories (``tooldrop check PATH...``), not the usual dirs.

    A path under the project's tools or skills dir loads with scope ``project``, anything
    else with scope ``personal``. A directory holding a ``skill.yaml`` is checked as a skill
    bundle (manifest, agents, tools); a directory right under a ``skills/`` folder without
    one is reported as a bundle that lacks its manifest.
    """
    collector = Collector(host)
    project_dirs = (host.project_tools_dir.resolve(), host.project_skills_dir.resolve())
    for raw in paths:
        path = Path(raw).absolute()
        resolved = path.resolve()
        inside = any(d == resolved or d in resolved.parents for d in project_dirs)
        scope: Scope = "project" if inside else "personal"
        if path.is_dir() and (path / "skill.yaml").exists():
            manifest, problem = read_manifest(path / "skill.yaml")
            if problem is not None:
                collector.problems.append(problem)
            if manifest is not None:
                bundle = Bundle(manifest=manifest, path=path, scope=scope)
                load_bundle(host, collector, bundle, True, {})
            continue
        if path.is_dir() and path.parent.name == "skills":
            message = (
                "No skill.yaml found - a bundle must contain a skill.yaml manifest at its root."
            )
            collector.problems.append(Problem(path=path, message=message))
            continue
        if path.is_dir():
            results = [result for _, result in scan_dir(host, ToolDir(path=path, scope=scope))]
        elif path.is_file():
            results = [load_one(host, path, scope)]
        else:
            missing = Problem(path=path, message="no such file or directory")
            results = [LoadResult(problems=[missing])]
        for result in results:
            collector.problems.extend(result.problems)
            collector.admit(result.tools)
    return collector.registry, collector.problems
