"""What a :class:`~tooldrop.ToolHost` knows: its places, plugins, tools, skills, trust, exports.

:class:`HostBase` is the part of ``ToolHost`` that runs no call (``_host.py`` adds the calls
and builds the state declared here); it is split off so each part reads on its own. Host apps
use ``ToolHost``; nothing here is public.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

from .._errors import UnknownSkillError
from .._model import (
    Confinement,
    LoadResult,
    Mode,
    Problem,
    SandboxSetting,
    ToolSpec,
)
from ..policy._grants import GrantStore
from ..policy._trust import TrustStore, project_digest
from ..skills._skills import Skill, in_context
from ._discover import discover
from ._plugins import PluginInfo, PluginSet
from ._settings import Settings

if TYPE_CHECKING:
    from ..exports._export import ExportedTools, Exporter

__all__ = ["HostBase"]


class HostBase:
    """Places, plugins, tools, skill bundles, trust and exports of a :class:`~tooldrop.ToolHost`."""

    # Built by ToolHost.__init__ (see its docstring for each parameter).
    project_dir: Path
    app: str
    config_dir: Path
    mode: Mode
    settings: Settings
    disabled_tools: frozenset[str]
    reserved_names: frozenset[str]
    output_limit: int
    sandbox: SandboxSetting
    sandbox_untrusted_read_only: bool
    name_prefixes: dict[str, str]
    cache: bool
    grants: GrantStore
    trust_store: TrustStore
    _always_allow: frozenset[str]
    _project_always_allow: frozenset[str]
    _trusted: tuple[object, bool] | None
    _plugins: PluginSet
    _lock: threading.RLock
    _registry: Any
    _load_problems: list[Problem]
    _exporter_problems: list[Problem]
    _last_good: dict[str, LoadResult]

    @property
    def always_allow(self) -> frozenset[str]:
        """Tool names that skip the approval prompt: the personal ``alwaysAllow`` and the
        ``always_allow`` argument, plus the project's ``alwaysAllow`` while the project is
        trusted (:meth:`is_trusted`; asking loads the tools)."""
        if self._project_always_allow and self.is_trusted():
            return self._always_allow | self._project_always_allow
        return self._always_allow

    @always_allow.setter
    def always_allow(self, names: Iterable[str]) -> None:
        # Replaces the personal and argument part; the project's still needs trust.
        self._always_allow = frozenset(names)

    # -- places -------------------------------------------------------------------------

    @property
    def project_tools_dir(self) -> Path:
        return self.project_dir / f".{self.app}" / "tools"

    @property
    def personal_tools_dir(self) -> Path:
        return self.config_dir / "tools"

    @property
    def project_skills_dir(self) -> Path:
        """Project skill bundles: ``.<app>/skills/`` (``.nanocoder/skills/`` for Nanocoder)."""
        return self.project_dir / f".{self.app}" / "skills"

    @property
    def personal_skills_dir(self) -> Path:
        """Personal skill bundles: the personal config dir's ``skills/``."""
        return self.config_dir / "skills"

    @property
    def cache_dir(self) -> Path:
        """Where plugins may cache derived data (honours ``XDG_CACHE_HOME``)."""
        import platformdirs

        return Path(platformdirs.user_cache_dir(self.app, appauthor=False))

    # -- plugins ------------------------------------------------------------------------

    @property
    def plugin_manager(self) -> pluggy.PluginManager:
        return self._plugins.pm

    @property
    def hook(self) -> Any:
        """``host.hook.tooldrop_<name>(...)``: call a hook on every registered plugin."""
        return self._plugins.pm.hook

    def register(self, plugin: object, name: str | None = None) -> str:
        """Add a plugin on top of those loaded; tools are re-discovered on next use.

        :raises PluginError: when the plugin implements an unknown hook or a wrong signature.
        """
        registered = self._plugins.register(plugin, name)
        with self._lock:
            self._registry = None
        return registered

    def unregister(self, plugin: object) -> None:
        """Remove a plugin (object or name) again."""
        if isinstance(plugin, str):
            self._plugins.pm.unregister(name=plugin)
        else:
            self._plugins.pm.unregister(plugin)
        with self._lock:
            self._registry = None

    def plugins(self) -> list[PluginInfo]:
        """Every plugin tried: loaded ones with their hooks and versions, failed ones with why."""
        return list(self._plugins.infos)

    # -- tools --------------------------------------------------------------------------

    def reload(self) -> None:
        """Scan again. A file that now fails keeps its last good tools until it is fixed."""
        with self._lock:
            self._load_problems = []
            registry, problems = discover(self, self._last_good)
            self._load_problems.extend(problems)
            self._registry = registry

    def _loaded(self) -> Any:
        registry = self._registry
        if registry is None:
            with self._lock:
                if self._registry is None:
                    self.reload()
                registry = self._registry
        return registry

    def all_tools(self) -> list[ToolSpec]:
        """Every loaded tool, including those hidden in the current mode and scoped ones."""
        return list(self._loaded())

    def tools(self, skill: str | None = None) -> list[ToolSpec]:
        """The tools offered to one agent context in this mode.

        :param skill: ``None`` for the main agent (every tool but scoped bundle tools), or a
            skill bundle's name for its agent (see :meth:`context`).
        :raises UnknownSkillError: no bundle of that name loaded.
        """
        selected = self._skill(skill)
        return [
            spec
            for spec in self._loaded()
            if in_context(spec, selected) and self.is_available(spec)
        ]

    def is_available(self, spec: ToolSpec) -> bool:
        try:
            available = self.hook.tooldrop_available(spec=spec, host=self)
        except Exception:  # noqa: BLE001 - when the policy cannot say, do not offer the tool.
            return False
        return available is not False

    def get(self, name: str) -> ToolSpec | None:
        """The loaded tool called ``name`` (available in this mode or not, in any agent
        context), or ``None``. For inspection: calls look tools up in their context."""
        spec: ToolSpec | None = self._loaded().get(name)
        return spec

    def lookup(self, name: str, skill: str | None = None) -> ToolSpec | None:
        """The tool called ``name`` if it belongs to the agent context of ``skill`` (``None``:
        the main agent), available in this mode or not; else ``None``, as if it did not exist.

        :raises UnknownSkillError: no bundle of that name loaded.
        """
        selected = self._skill(skill)
        spec: ToolSpec | None = self._loaded().get(name)
        return spec if spec is not None and in_context(spec, selected) else None

    # -- skill bundles and agent contexts -----------------------------------------------

    def skills(self) -> list[Skill]:
        """The skill bundles that loaded (one per name), personal ones first."""
        return list(self._loaded().skills.values())

    def skill(self, name: str) -> Skill | None:
        """The skill bundle called ``name`` (its ``skill.yaml`` name), or ``None``."""
        found: Skill | None = self._loaded().skills.get(name)
        return found

    def _skill(self, name: str | None) -> Skill | None:
        if name is None:
            return None
        found = self.skill(name)
        if found is None:
            raise UnknownSkillError(name, known=self._loaded().skills)
        return found

    def confinement(self, spec: ToolSpec) -> Confinement | None:
        """How ``spec`` would run confined now (``tooldrop_confinement``), or ``None``."""
        try:
            confinement: Confinement | None = self.hook.tooldrop_confinement(spec=spec, host=self)
        except Exception:  # noqa: BLE001 - a sandbox that cannot say does not vouch for a tool.
            return None
        return confinement

    # -- trust --------------------------------------------------------------------------

    def project_digest(self) -> str:
        """A digest of the project's tools, skill bundles and config: what trusting the
        project trusts."""
        config = self.project_dir / f".{self.app}" / "config.yaml"
        return project_digest(self.all_tools(), config, self.project_skills_dir)

    def is_trusted(self, spec: ToolSpec | None = None) -> bool:
        """Whether the project's tools, exactly as they are now, were trusted with :meth:`trust`.

        :param spec: Ask about one tool instead: ``True`` unless it is a project tool (scope
            ``project``) of a project that is not trusted. Personal tools and tools of installed
            plugins need no trust. An approval policy asks this before it allows a call; the
            core turns an ``allow`` of an untrusted tool into an ``ask`` all the same.
        """
        if spec is not None and spec.origin.scope != "project":
            return True  # no I/O: the common call needs no trust record
        registry = self._loaded()
        cached = self._trusted
        if cached is None or cached[0] is not registry:
            stored = self.trust_store.digest_for(self.project_dir)
            cached = (registry, stored is not None and stored == self.project_digest())
            self._trusted = cached
        return cached[1]

    def trust(self) -> str:
        """Trust the project's tools as they are now; return the digest recorded."""
        digest = self.project_digest()
        self.trust_store.trust(self.project_dir, digest)
        self._trusted = None
        return digest

    def untrusted_notice(self) -> str:
        """Why the project's tools ask, or are missing, because the project is not trusted.

        ``""`` when there is nothing to say (no project tools, or trusted). Every surface shows
        it once (``tooldrop serve`` and ``tooldrop call`` on stderr, the MCP server in its
        instructions, the framework adapters in their log) so a person knows what to do.
        """
        project = [spec for spec in self.all_tools() if spec.origin.scope == "project"]
        if not project or self.is_trusted():
            return ""
        hidden = sum(not self.is_available(spec) for spec in project)
        count = f"{len(project)} tool{'s' if len(project) != 1 else ''}"
        where = self.project_tools_dir
        if hidden == len(project):
            what = f"are hidden in {self.mode} mode, where nobody could approve them"
        elif hidden:
            what = f"ask before every call ({hidden} are hidden in {self.mode} mode)"
        else:
            what = "ask before every call"
        return (
            f"tooldrop: this project is not trusted, so its {count} in {where} {what}. "
            f"Read them, then run `tooldrop trust` in {self.project_dir}."
        )

    def revoke_trust(self) -> bool:
        """Stop trusting the project; return whether it was trusted."""
        self._trusted = None
        return self.trust_store.revoke(self.project_dir)

    def exporters(self) -> dict[str, Exporter]:
        """Every export format this host offers, by name: the built-in ones, then plugins'
        (``tooldrop_exporters``), a plugin's replacing a built-in one of the same name."""
        from ..exports._export import BUILTIN_EXPORTERS, Exporter  # used by exports only

        found = {exporter.name: exporter for exporter in BUILTIN_EXPORTERS}
        self._exporter_problems = []
        try:
            # pluggy calls the last-registered plugin first; reversed, later plugins win.
            for group in reversed(self.hook.tooldrop_exporters(host=self)):
                for exporter in group or ():
                    if not isinstance(exporter, Exporter):
                        raise TypeError(f"{exporter!r} is not a tooldrop.Exporter")
                    found[exporter.name] = exporter
        except Exception as exc:  # noqa: BLE001 - a broken plugin loses its formats, not ours.
            message = f"tooldrop_exporters failed: {type(exc).__name__}: {exc}"
            self._exporter_problems = [Problem(message=message)]
        return found

    def export(self, fmt: str, skill: str | None = None) -> ExportedTools:
        """The available tools as definitions for ``fmt``: a list, with ``.problems``.

        :param fmt: ``openai``, ``openai-responses``, ``anthropic``, ``gemini``, ``mcp``, or a
            format a plugin adds (see :meth:`exporters`).
        :param skill: The agent context (see :meth:`tools`).
        :raises ValueError: for an unknown format. See :func:`tooldrop.export_tools`.
        """
        from ..exports._export import export_tools

        return export_tools(self.tools(skill), fmt, exporters=self.exporters().values())

    def problems(self) -> list[Problem]:
        """Every plugin and load problem, each with its file and line when it has one.

        Also a notice (severity ``info``) when ``grants.json`` holds grants of an older format,
        which are ignored.
        """
        self._loaded()
        return [
            *self._plugins.problems,
            *self._load_problems,
            *self._exporter_problems,
            *self.grants.notices(),
        ]
