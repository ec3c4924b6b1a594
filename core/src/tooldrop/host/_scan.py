"""Discovery's scanning: the files of one directory through the loaders (and the parse
cache), and the tools they give through the checks into a registry."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._model import LoadResult, Problem, Scope, ToolDir, ToolSpec
from .._registry import Registry
from ._cache import DirCache, cache_file, fingerprint, joined_path
from ._speccheck import spec_problems

if TYPE_CHECKING:
    from ._base import HostBase

__all__ = ["Collector", "describe", "dir_cache", "kept", "load_one", "scan_dir"]


_NAME = attrgetter("name")


def describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def dir_cache(host: HostBase, tool_dir: ToolDir) -> DirCache | None:
    if not host.cache:
        return None
    impls = host.hook.tooldrop_load_file.get_hookimpls()
    version_of = host._plugins.version_of  # only the loaders' metadata is read
    loaders = [(i.plugin_name, version_of(i.plugin_name), i.plugin) for i in impls]
    file = cache_file(host.cache_dir, tool_dir.path, tool_dir.scope)
    return DirCache(file, fingerprint(loaders))


def scan_dir(
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
        cache = dir_cache(host, tool_dir)
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
                problem = Problem(path=path, message=f"loader crashed: {describe(exc)}")
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


def _validate(host: HostBase, spec: ToolSpec, hook: Any) -> tuple[bool, list[Problem]]:
    """Ask every ``tooldrop_validate_spec`` (``hook``, looked up once per scan)."""
    try:
        groups = hook(spec=spec, host=host)
        found = [p for group in groups for p in group or ()]
    except Exception as exc:  # noqa: BLE001 - a failing linter is reported, the tool still checked.
        where = spec.origin
        found = [
            Problem(
                path=where.path, line=where.line, message=f"validate_spec failed: {describe(exc)}"
            )
        ]
    return not (found and any(p.severity == "error" for p in found)), found


class Collector:
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


def kept(
    collector: Collector, path: str, result: LoadResult, last_good: dict[str, LoadResult]
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


def load_one(host: HostBase, path: Path, scope: Scope) -> LoadResult:
    try:
        result = host.hook.tooldrop_load_file(path=path, scope=scope, host=host)
    except Exception as exc:  # noqa: BLE001 - reported like a scan would report it.
        return LoadResult(problems=[Problem(path=path, message=f"loader crashed: {describe(exc)}")])
    if not isinstance(result, LoadResult):
        message = "no loader handles this kind of file (is the plugin for it installed?)"
        return LoadResult(problems=[Problem(path=path, message=message, severity="warning")])
    return result
