"""Discovery: scan the tools directories, ask the loaders, fill the registry."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import evolve, fields

from .._model import SCOPES, LoadResult, Origin, Problem, Scope, ToolDir, ToolSpec, Visibility
from .._registry import Registry
from ..skills._manifest import read_manifest
from ..skills._skills import Bundle, Skill, member_problems, read_agents, read_commands, scan_root
from ._cache import DirCache, cache_file, fingerprint, joined_path
from ._isolated import call_isolated, running_plugin
from ._speccheck import spec_problems

if TYPE_CHECKING:
    from ._base import HostBase

__all__ = ["discover", "load_paths"]


_NAME = attrgetter("name")


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _ordered_dirs(host: HostBase) -> list[ToolDir]:
    dirs = [ToolDir(path=host.personal_tools_dir, scope="personal")]
    try:
        for extra in host.hook.tooldrop_tool_dirs(host=host):
            dirs.extend(extra or ())
    except Exception as exc:  # noqa: BLE001 - a plugin's failure is reported, not raised.
        host._load_problems.append(Problem(message=f"tooldrop_tool_dirs failed: {_describe(exc)}"))
    dirs.append(ToolDir(path=host.project_tools_dir, scope="project"))
    rank = {scope: index for index, scope in enumerate(SCOPES)}
    return sorted(dirs, key=lambda d: rank[d.scope])  # sorted() is stable within a scope


def _dir_cache(host: HostBase, tool_dir: ToolDir) -> DirCache | None:
    if not host.cache:
        return None
    impls = host.hook.tooldrop_load_file.get_hookimpls()
    version_of = host._plugins.version_of  # only the loaders' metadata is read
    loaders = [(i.plugin_name, version_of(i.plugin_name), i.plugin) for i in impls]
    file = cache_file(host.cache_dir, tool_dir.path, tool_dir.scope)
    return DirCache(file, fingerprint(loaders))


def _scan_dir(
    host: HostBase,
    tool_dir: ToolDir,
    *,
    use_cache: bool = False,
    shared: DirCache | None = None,
    key: str = "",
    stamp: Callable[[LoadResult], LoadResult] | None = None,
) -> Iterator[tuple[str, LoadResult]]:
    """``(file path, its load result)`` for every file a loader claims, in sorted order.

    Paths are plain strings here: a cache hit needs no :class:`~pathlib.Path` at all, and
    parsing 10,000 of them is a measurable share of warm discovery.

    ``shared`` is a cache several directories use (the bundles of one skills root: one file
    to read instead of one per bundle), with this directory's entries under ``key``; the
    caller saves it. ``stamp`` changes a fresh load's result before it is cached.
    """
    try:
        with os.scandir(tool_dir.path) as it:
            entries = sorted(it, key=_NAME)
    except (FileNotFoundError, NotADirectoryError):
        return  # no tools directory is the normal case, not an error
    except OSError as exc:
        message = f"cannot read tools directory: {exc.strerror}"
        yield (
            str(tool_dir.path),
            LoadResult(problems=[Problem(path=tool_dir.path, message=message)]),
        )
        return
    load_file = host.hook.tooldrop_load_file
    cache = shared
    if cache is None and use_cache and entries:
        cache = _dir_cache(host, tool_dir)
    for entry in entries:
        try:
            st = entry.stat()  # follows symlinks, like the reference
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        result = cache.get(key + entry.name, st) if cache is not None else None
        if result is None:
            path = joined_path(tool_dir.path, entry.name)  # Path(entry.path), made cheaper
            try:
                result = load_file(path=path, scope=tool_dir.scope, host=host)
            except Exception as exc:  # noqa: BLE001 - one broken loader must not stop the scan.
                problem = Problem(path=path, message=f"loader crashed: {_describe(exc)}")
                result = LoadResult(problems=[problem])
            if result is None:
                continue
            if stamp is not None:
                result = stamp(result)
            if cache is not None:
                cache.put(key + entry.name, st, path, result)
        yield entry.path, result
    if cache is not None and shared is None:
        cache.save()


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
        message = f"tooldrop_register_tools failed: {_describe(exc)}"
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
            yield None, Problem(field=f"plugin {plugin}", message=_describe(exc))


def _validate(host: HostBase, spec: ToolSpec, hook: Any) -> tuple[bool, list[Problem]]:
    """Ask every ``tooldrop_validate_spec`` (``hook``, looked up once per scan)."""
    try:
        groups = hook(spec=spec, host=host)
        found = [p for group in groups for p in group or ()]
    except Exception as exc:  # noqa: BLE001 - a failing linter is reported, the tool still checked.
        where = spec.origin
        found = [
            Problem(
                path=where.path, line=where.line, message=f"validate_spec failed: {_describe(exc)}"
            )
        ]
    return not (found and any(p.severity == "error" for p in found)), found


class _Collector:
    """Feeds loaded tools through ``tooldrop_validate_spec`` into a registry, keeping order."""

    def __init__(self, host: HostBase) -> None:
        self.host = host
        self.registry = Registry(
            reserved=host.reserved_names, disabled=host.disabled_tools, prefixes=host.name_prefixes
        )
        self.problems: list[Problem] = []
        # The hook's caller stays the same object while plugins come and go.
        self.validate = host.hook.tooldrop_validate_spec

    def admit(self, specs: Iterable[ToolSpec]) -> None:
        for spec in specs:
            refused = spec_problems(spec)
            if refused:  # the core's floor: no hook sees a tool it could not offer
                self.problems.extend(refused)
                continue
            ok, found = _validate(self.host, spec, self.validate)
            if found:
                self.problems.extend(found)
            if ok:
                registry = self.registry
                registry.add(spec)
                # Keep problems in load order: a duplicate is reported beside its file's errors.
                if registry.problems:
                    self.problems.extend(registry.problems)
                    registry.problems.clear()


def discover(host: HostBase, last_good: dict[str, LoadResult]) -> tuple[Registry, list[Problem]]:
    """Load every tool the plugins and directories provide into a fresh registry.

    ``last_good`` maps each file to its last load that produced tools; a file that now fails
    keeps those tools (and says so), so an edit in progress does not make a tool vanish.
    """
    return _discover(host, last_good)


def _discover(host: HostBase, last_good: dict[str, LoadResult]) -> tuple[Registry, list[Problem]]:
    collector = _Collector(host)
    for spec, problem in _plugin_tools(host):
        if problem is not None:
            collector.problems.append(problem)
        if spec is not None:
            collector.admit([spec])

    layers = _skill_layers(host, collector.problems)
    dirs = _ordered_dirs(host)
    for scope in SCOPES:
        for tool_dir in dirs:
            if tool_dir.scope == scope:
                for path, result in _scan_dir(host, tool_dir, use_cache=True):
                    collector.admit(_kept(collector, path, result, last_good))
        if scope in layers:
            bundles, cache = layers[scope]
            for bundle, wins in bundles:
                _load_bundle(host, collector, bundle, wins, last_good, cache)
            if cache is not None:
                cache.save()
    return collector.registry, collector.problems


def _kept(
    collector: _Collector, path: str, result: LoadResult, last_good: dict[str, LoadResult]
) -> tuple[ToolSpec, ...]:
    """The tools of one file's load, or its last good tools when it now fails."""
    failed = False
    if result.problems:
        collector.problems.extend(result.problems)
        failed = any(p.severity == "error" for p in result.problems)
    if result.tools:
        last_good[path] = result
    elif failed and path in last_good:
        note = "this file no longer loads; keeping its last good version until it is fixed"
        collector.problems.append(Problem(path=path, message=note, severity="warning"))
        result = last_good[path]
    return result.tools


def _skill_layers(
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
            return _dir_cache(host, ToolDir(path=root, scope=scope))

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


def _load_bundle(
    host: HostBase,
    collector: _Collector,
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

    for path, result in _scan_dir(host, tool_dir, shared=cache, key=key, stamp=stamp):
        tools.extend(_kept(collector, path, result, last_good))
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


def load_paths(
    host: HostBase, paths: Iterable[str | os.PathLike[str]]
) -> tuple[Registry, list[Problem]]:
    """Load just these files and directories (``tooldrop check PATH...``), not the usual dirs.

    A path under the project's tools or skills dir loads with scope ``project``, anything
    else with scope ``personal``. A directory holding a ``skill.yaml`` is checked as a skill
    bundle (manifest, agents, tools); a directory right under a ``skills/`` folder without
    one is reported as a bundle that lacks its manifest.
    """
    collector = _Collector(host)
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
                _load_bundle(host, collector, bundle, True, {})
            continue
        if path.is_dir() and path.parent.name == "skills":
            message = (
                "No skill.yaml found - a bundle must contain a skill.yaml manifest at its root."
            )
            collector.problems.append(Problem(path=path, message=message))
            continue
        if path.is_dir():
            results = [result for _, result in _scan_dir(host, ToolDir(path=path, scope=scope))]
        elif path.is_file():
            results = [_load_one(host, path, scope)]
        else:
            missing = Problem(path=path, message="no such file or directory")
            results = [LoadResult(problems=[missing])]
        for result in results:
            collector.problems.extend(result.problems)
            collector.admit(result.tools)
    return collector.registry, collector.problems


def _load_one(host: HostBase, path: Path, scope: Scope) -> LoadResult:
    try:
        result = host.hook.tooldrop_load_file(path=path, scope=scope, host=host)
    except Exception as exc:  # noqa: BLE001 - reported like a scan would report it.
        return LoadResult(
            problems=[Problem(path=path, message=f"loader crashed: {_describe(exc)}")]
        )
    if not isinstance(result, LoadResult):
        message = "no loader handles this kind of file (is the plugin for it installed?)"
        return LoadResult(problems=[Problem(path=path, message=message, severity="warning")])
    return result
