"""Plugin loading: entry points one by one, failures isolated and reported.

``pluggy.PluginManager.load_setuptools_entrypoints`` stops at the first plugin whose import
raises, which makes one broken plugin break every command (llm #1280). We iterate the entry
points ourselves instead.
"""

from __future__ import annotations

import contextlib
import os
import sys
import types
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

import attrs
import pluggy
from attrs import field, frozen

from .. import hookspecs
from .._errors import PluginError
from .._model import Problem
from ._entrypoints import DistInfo, entry_points

if TYPE_CHECKING:
    import importlib.metadata

__all__ = ["PluginInfo", "PluginSet", "env_flag"]

ENTRY_POINT_GROUP = "tooldrop"


#: Hooks the core calls one implementation at a time (each gets what the previous returned),
#: so a wrapper could not wrap them: a plugin that tries is refused at registration, not
#: silently skipped. Every other hook is called through pluggy and takes wrappers.
NO_WRAPPERS = {
    "tooldrop_wrap_command": "each implementation gets the command the previous one returned",
}


def env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no", "off")


def _strings(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


@frozen(kw_only=True)
class PluginInfo:
    """One plugin as ``tooldrop plugins`` reports it."""

    #: The name it is registered under (an entry point's name, or the module's).
    name: str
    #: ``builtin`` (an essential plugin of the core, always registered), ``entrypoint``,
    #: ``explicit`` (passed to ``ToolHost(plugins=...)``) or ``registered``
    #: (``ToolHost.register``).
    origin: str
    #: The module (or object) that implements the hooks.
    module: str = ""
    #: The pip distribution that ships it, for entry-point plugins.
    distribution: str | None = None
    #: That distribution's version.
    version: str | None = None
    #: The hooks it implements.
    hooks: tuple[str, ...] = field(default=(), converter=_strings)
    #: Why the plugin failed to load; ``None`` when it is loaded.
    error: str | None = None

    @property
    def loaded(self) -> bool:
        return self.error is None


def _module_name(plugin: object) -> str:
    if isinstance(plugin, types.ModuleType):
        return plugin.__name__
    return f"{type(plugin).__module__}.{type(plugin).__qualname__}"


#: A plugin's distribution: found with its entry point, named (the core's own), or none.
_Dist: TypeAlias = "DistInfo | importlib.metadata.Distribution | str | None"


def _with_distribution(info: PluginInfo, dist: _Dist) -> PluginInfo:
    if dist is None:
        return info
    if isinstance(dist, str):
        import importlib.metadata  # only when asked: importing it costs a fifth of a start-up

        version = None
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):  # a bare source tree
            version = importlib.metadata.version(dist)
        return attrs.evolve(info, distribution=dist, version=version)
    return attrs.evolve(info, distribution=dist.name, version=dist.version)


def _entry_points() -> list[Any]:
    """The ``tooldrop`` entry points, sorted by name (stable: the same name keeps discovery
    order). Read by :mod:`._entrypoints` where it can, by importlib.metadata where not."""
    found: list[Any] | None = entry_points(ENTRY_POINT_GROUP)
    if found is None:
        import importlib.metadata

        found = list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))
    return sorted(found, key=lambda ep: ep.name)


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class PluginSet:
    """The host's plugin manager plus a record of what loaded and what failed."""

    def __init__(self) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
        self.pm.add_hookspecs(hookspecs)
        # Each plugin's record, and where its distribution's name and version can be read.
        # Reading a distribution's metadata parses a file (importlib.metadata.version() even
        # searches sys.path for it), so it waits until someone asks: `tooldrop plugins`, yes;
        # `tooldrop list`, no.
        self._records: list[tuple[PluginInfo, _Dist]] = []
        self._resolved: list[PluginInfo] = []
        self.problems: list[Problem] = []
        #: Names of the core's essential plugins, registered before anything is selected.
        self.essential_names: set[str] = set()
        self.strict = env_flag("TOOLDROP_STRICT_PLUGINS")
        if env_flag("TOOLDROP_TRACE_PLUGINS"):
            self._enable_tracing()

    @property
    def infos(self) -> list[PluginInfo]:
        """Every plugin tried, with its distribution and version (read on first access)."""
        for info, dist in self._records[len(self._resolved) :]:
            self._resolved.append(_with_distribution(info, dist))
        return list(self._resolved)

    def version_of(self, name: str) -> str | None:
        """The version of the distribution that provides plugin ``name``, when known."""
        for info, dist in self._records:
            if info.name == name:
                if isinstance(dist, DistInfo):
                    return dist.version  # its one field, not the whole record
                return _with_distribution(info, dist).version
        return None

    # -- loading -----------------------------------------------------------------------

    def load_entry_points(self) -> None:
        """Load the ``tooldrop`` entry points that ``TOOLDROP_PLUGINS`` selects (all if unset)."""
        selected = os.environ.get("TOOLDROP_PLUGINS")
        wanted = None if selected is None else {n.strip() for n in selected.split(",") if n.strip()}
        found: set[str] = set()
        essential = self.essential_names
        for ep in _entry_points():
            if ep.name in essential:
                continue  # registered already, whatever is selected (an older install's entry)
            if wanted is not None and ep.name not in wanted:
                continue
            found.add(ep.name)
            dist = getattr(ep, "dist", None)
            try:
                plugin = ep.load()
            except Exception as exc:  # noqa: BLE001 - any import failure is this plugin's problem.
                self._failed(ep.name, "entrypoint", ep.value, dist, exc)
                continue
            self._add(plugin, ep.name, "entrypoint", dist)
        for missing in sorted((wanted or set()) - found - essential):
            message = f"TOOLDROP_PLUGINS names {missing!r}, but no installed plugin has that name"
            self.problems.append(
                Problem(field=f"plugin {missing}", message=message, severity="warning")
            )

    def load_explicit(self, plugins: Iterable[object]) -> None:
        installed: dict[str, Any] | None = None
        for plugin in plugins:
            if self.pm.is_registered(plugin):
                continue  # an essential plugin named again (``plugins=[tooldrop.approval, ...]``)
            name, dist = None, None
            if isinstance(plugin, types.ModuleType):
                # An installed plugin's module keeps its entry point's name when an app composes
                # it by hand: its tools then come from the same place, with the same grants.
                if installed is None:
                    installed = {ep.value.strip(): ep for ep in _entry_points()}
                ep = installed.get(plugin.__name__)
                name = plugin.__name__ if ep is None else ep.name
                dist = None if ep is None else getattr(ep, "dist", None)
            self._add(plugin, name, "explicit", dist)

    def add_builtin(self, plugin: object, name: str) -> None:
        """Register one of the core's essential plugins (always present, whatever is selected)."""
        if self._add(plugin, name, "builtin", "tooldrop-core") is not None:
            self.essential_names.add(name)

    def register(self, plugin: object, name: str | None = None) -> str:
        """Register one more plugin; raise :class:`PluginError` when it is not valid."""
        strict, self.strict = self.strict, True
        try:
            return self._add(plugin, name, "registered", None) or ""
        finally:
            self.strict = strict

    def _stable_name(self, class_path: str) -> str:
        """A plugin object's name when it was given none: its class's dotted path.

        pluggy would name it by ``id()``, a number that changes every run, and a name is
        where the tools a plugin registers come from: grants given to them would never be found
        again after a restart. A second object of the same class gets ``#2``, and so on.
        """
        name, number = class_path, 1
        while self.pm.get_plugin(name) is not None or self.pm.is_blocked(name):
            number += 1
            name = f"{class_path}#{number}"
        return name

    def _add(
        self,
        plugin: object,
        name: str | None,
        origin: str,
        dist: _Dist,
    ) -> str | None:
        module = _module_name(plugin)
        if name is None and not isinstance(plugin, types.ModuleType):
            name = self._stable_name(module)
        try:
            registered = self.pm.register(plugin, name=name)
            if registered is None:
                raise PluginError(f"plugin {name or module!r} is blocked or already registered")
            self._check_hooks(plugin)
        except Exception as exc:  # noqa: BLE001 - a bad plugin must not take the others down.
            if self.pm.is_registered(plugin):
                self.pm.unregister(plugin)
            self._failed(name or module, origin, module, dist, exc)
            return None
        hooks = tuple(sorted(caller.name for caller in self.pm.get_hookcallers(plugin) or ()))
        info = PluginInfo(name=registered, origin=origin, module=module, hooks=hooks)
        self._records.append((info, dist))
        return registered

    def _check_hooks(self, plugin: object) -> None:
        """Refuse a misspelled hook (no spec declares it), and a wrapper where none can work."""
        for caller in self.pm.get_hookcallers(plugin) or ():
            if caller.name in NO_WRAPPERS:
                for impl in caller.get_hookimpls():
                    if impl.plugin is plugin and (impl.wrapper or impl.hookwrapper):
                        raise PluginError(
                            f"{caller.name} cannot take hook wrappers "
                            f"({NO_WRAPPERS[caller.name]}); "
                            "order a plain implementation with tryfirst/trylast instead"
                        )
            if caller.spec is not None:
                continue
            for impl in caller.get_hookimpls():
                if impl.plugin is plugin and not impl.optionalhook:
                    raise PluginError(
                        f"unknown hook {caller.name!r}: no such hook in tooldrop.hookspecs "
                        "(misspelled? see `tooldrop plugins` for the hooks that exist)"
                    )

    def _failed(
        self,
        name: str,
        origin: str,
        module: str,
        dist: _Dist,
        exc: BaseException,
    ) -> None:
        if self.strict:
            raise PluginError(f"plugin {name!r} failed to load: {_describe(exc)}") from exc
        info = PluginInfo(name=name, origin=origin, module=module, error=_describe(exc))
        self._records.append((info, dist))
        self.problems.append(
            Problem(field=f"plugin {name}", message=f"failed to load: {_describe(exc)}")
        )

    def finish(self) -> None:
        # Every plugin was checked on its own already; this is the belt to those braces.
        self.pm.check_pending()

    # -- introspection -----------------------------------------------------------------

    def plugin_name(self, plugin: object) -> str:
        return self.pm.get_name(plugin) or _module_name(plugin)

    def _enable_tracing(self) -> None:
        def before(
            hook_name: str, impls: Sequence[pluggy.HookImpl], kwargs: Mapping[str, Any]
        ) -> None:
            names = ", ".join(impl.plugin_name for impl in impls) or "no implementations"
            shown = ", ".join(f"{k}={_short(v)}" for k, v in kwargs.items())
            print(f"[tooldrop] {hook_name}({shown}) -> [{names}]", file=sys.stderr)

        def after(
            outcome: pluggy.Result[Any],
            hook_name: str,
            impls: Sequence[pluggy.HookImpl],
            kwargs: Mapping[str, Any],
        ) -> None:
            if outcome.exception is not None:
                shown = _describe(outcome.exception)
            else:
                shown = _short(outcome.get_result())
            print(f"[tooldrop] {hook_name} => {shown}", file=sys.stderr)

        self.pm.add_hookcall_monitoring(before, after)


def _short(value: object, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
