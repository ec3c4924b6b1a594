"""Discovery's skill bundles: each layer's bundles (a project bundle shadows a personal one
of the same name) and the tools of one bundle, stamped with its name and visibility."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import evolve, fields

from .._model import LoadResult, Origin, Problem, Scope, ToolDir, ToolSpec, Visibility
from ..skills._skills import Bundle, Skill, member_problems, read_agents, read_commands, scan_root
from ._cache import DirCache
from ._scan import Collector, dir_cache, kept, scan_dir

if TYPE_CHECKING:
    from ._base import HostBase

__all__ = ["load_bundle", "skill_layers"]


def skill_layers(
    host: HostBase, problems: list[Problem]
) -> dict[Scope, tuple[list[tuple[Bundle, bool]], Any]]:
    """Each layer's bundles, each with whether it wins its skill name (a project bundle
    shadows a personal one of the same name, whole; the first of a name in a layer wins),
    and the layer's parse cache (one file for all its bundles' manifests, agents and tools).
    """
    roots: tuple[tuple[Scope, Path], ...] = (
        ("personal", host.personal_skills_dir),
        ("project", host.project_skills_dir),
    )
    found: dict[Scope, list[Bundle]] = {}
    caches: dict[Scope, Any] = {}
    winners: dict[str, Bundle] = {}
    for scope, root in roots:

        def open_cache(root: Path = root, scope: Scope = scope) -> DirCache | None:
            return dir_cache(host, ToolDir(path=root, scope=scope))

        bundles, trouble, caches[scope] = scan_root(root, scope, open_cache)
        problems.extend(trouble)
        found[scope] = bundles
        for bundle in bundles:
            name = bundle.manifest.name
            current = winners.get(name)
            if current is not None and current.scope == scope:
                continue  # a duplicate in this layer, already reported
            if current is not None:
                message = (
                    f'skill "{name}" overrides the {current.scope} skill of that name '
                    f"({current.path}); none of that bundle's tools load"
                )
                where = bundle.path / "skill.yaml"
                problems.append(Problem(path=where, field="name", message=message, severity="info"))
            winners[name] = bundle
    return {
        scope: ([(b, winners.get(b.manifest.name) is b) for b in bundles], caches[scope])
        for scope, bundles in found.items()
        if bundles or caches[scope] is not None
    }


def load_bundle(
    host: HostBase,
    collector: Collector,
    bundle: Bundle,
    wins: bool,
    last_good: dict[str, LoadResult],
    cache: DirCache | None = None,
) -> None:
    agent, problems = read_agents(bundle.path, cache)
    collector.problems.extend(problems)
    manifest = bundle.manifest
    commands = read_commands(bundle.path, manifest.name)
    tools: list[ToolSpec] = []
    tool_dir = ToolDir(path=bundle.path / "tools", scope=bundle.scope)
    name, visibility = manifest.name, manifest.visibility
    # Results are cached stamped with the bundle's name and visibility, which are part of
    # the key: a warm load stamps nothing, and an edited skill.yaml misses the cache.
    # ("/" is in no file name and ":" in no skill name: keys never clash.)
    key = f"{bundle.path.name}/tools/{name}:{visibility}/"

    def stamp(result: LoadResult) -> LoadResult:
        if not result.tools:
            return result
        stamped = [_stamped(spec, name, visibility) for spec in result.tools]
        return evolve(result, tools=stamped)

    for path, result in scan_dir(host, tool_dir, shared=cache, key=key, stamp=stamp):
        tools.extend(kept(collector, path, result, last_good))
    if not wins:
        return  # a duplicate or shadowed bundle: its files were checked, its tools never load
    names = tuple(spec.name for spec in tools)
    collector.problems.extend(member_problems(bundle, agent, commands, names))
    collector.admit(tools)
    collector.registry.skills[name] = Skill(
        name=name,
        description=manifest.description,
        scope=bundle.scope,
        path=bundle.path,
        visibility=visibility,
        manifest=manifest,
        agent=agent,
        commands=commands,
        tool_names=names,
    )


_SPEC_FIELDS = tuple(f.name for f in fields(ToolSpec))
_ORIGIN_FIELDS = tuple(f.name for f in fields(Origin))


def _stamped(spec: ToolSpec, skill: str, visibility: Visibility) -> ToolSpec:
    """``spec`` with its origin naming its bundle and visibility.

    The values were converted and validated when ``spec`` was made, so the copies are made
    slot by slot, as the parse cache restores them: ``attrs.evolve`` runs every converter
    again, and a thousand bundle tools pay for it twice each.
    """
    origin: Any = object.__new__(Origin)
    old: Any = spec.origin
    for name in _ORIGIN_FIELDS:
        object.__setattr__(origin, name, getattr(old, name))
    object.__setattr__(origin, "skill", skill)
    object.__setattr__(origin, "visibility", visibility)
    new: Any = object.__new__(ToolSpec)
    for name in _SPEC_FIELDS:
        object.__setattr__(new, name, getattr(spec, name))
    object.__setattr__(new, "origin", origin)
    return new  # type: ignore[no-any-return]
