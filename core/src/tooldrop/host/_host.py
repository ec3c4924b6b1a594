"""``ToolHost``: the one object a host app talks to."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

from .. import approval
from .._errors import InvalidArgumentsError, RenderError, UnknownSkillError, UnknownToolError
from .._model import (
    MODES,
    SANDBOX_SETTINGS,
    Confinement,
    LoadResult,
    Mode,
    Problem,
    SandboxSetting,
    ToolCall,
    ToolResult,
    ToolSpec,
)
from ..calls._cancel import CancelToken
from ..calls._output import DEFAULT_OUTPUT_LIMIT
from ..calls._pending import PendingCall
from ..calls._pipeline import AskCallback, on_loop, pend, run_many
from ..calls._pipeline import call as pipeline_call
from ..exports._export import BUILTIN_EXPORTERS, ExportedTools, Exporter, export_tools
from ..policy._grants import GrantStore
from ..policy._trust import TrustStore, project_digest
from ..schemas._schema import SchemaValidation, apply_defaults, drop_null_optionals
from ..skills._skills import Skill, in_context
from ._agentctx import AgentContext
from ._discover import discover
from ._plugins import PluginInfo, PluginSet, env_flag
from ._settings import Settings, load_settings

if TYPE_CHECKING:
    import concurrent.futures

# asyncio, concurrent.futures and platformdirs are imported where they are needed: a host that
# only lists tools (``tooldrop list``) never needs them, and asyncio alone costs ~40 ms.

__all__ = ["ToolHost", "config_dir_for", "load_plugin_set"]

#: Calls running at once from ``acall`` / ``call_many`` before more wait for a free worker.
MAX_CONCURRENT_CALLS = 64


def config_dir_for(app: str, user_dir: str | os.PathLike[str] | None = None) -> Path:
    """The personal config dir: ``user_dir``, else ``$<APP>_CONFIG_DIR``, else the platform's."""
    if user_dir is not None:
        return Path(user_dir).expanduser().absolute()
    env = os.environ.get(f"{app.upper().replace('-', '_')}_CONFIG_DIR")
    if env:
        return Path(env).expanduser().absolute()
    import platformdirs

    return Path(platformdirs.user_config_dir(app, appauthor=False))


def load_plugin_set(plugins: Iterable[object] | None = None) -> PluginSet:
    """The core's essential plugins plus ``plugins``, or the installed entry points when ``None``.

    Essential plugins are always registered, like pytest's: the JSON Schema check and the
    default approval policy are what the documented behaviour rests on, so neither
    ``TOOLDROP_PLUGINS`` nor an explicit ``plugins`` list leaves them out. A policy of your own
    goes before the default one with ``tryfirst=True``.
    """
    plugin_set = PluginSet()
    plugin_set.add_builtin(SchemaValidation(), "tooldrop.schema")
    plugin_set.add_builtin(approval, "approval")
    if plugins is None:
        plugin_set.load_entry_points()
    else:
        plugin_set.load_explicit(plugins)
    plugin_set.finish()
    return plugin_set


class ToolHost:
    """Loads plugins, discovers tools, and runs calls through the pipeline.

    :param project_dir: The project root; its tools live in ``.<app>/tools/``.
    :param user_dir: The personal config dir (default: ``$<APP>_CONFIG_DIR`` or the platform's
        user config dir for ``app``); personal tools live in its ``tools/``.
    :param app: Names the folders: ``app="nanocoder"`` reads a Nanocoder project as it is.
    :param mode: ``normal``, ``auto-accept``, ``architect``, ``yolo``, ``plan`` or ``headless``.
    :param plugins: Compose exactly these plugins (modules or objects) and load no entry
        points; ``None`` loads the installed ``tooldrop`` entry points.
    :param always_allow: Tool names that skip the approval prompt wherever they are available,
        on top of the settings' ``alwaysAllow``.
    :param disabled_tools: Tool names that are never loaded, on top of the settings'
        ``disabledTools``.
    :param reserved_names: Names the host uses itself (its built-in and MCP tools); a tool
        that claims one is refused.
    :param output_limit: Characters of output the model sees per call.
    :param name_prefixes: Prefix per tool source; Python module tools are exposed as
        ``custom__<name>`` by default.
    :param cache: Keep the load results of unchanged tool files in the user cache dir, so
        they are not parsed again (loaders opt in per result; see ``LoadResult.cacheable``).
    :param sandbox: ``off``, ``auto`` (confine shell tools when a sandbox plugin can) or
        ``required`` (refuse to run a shell tool nothing confines); ``None``: the personal
        config's ``sandbox``, else ``off``.
    :param sandbox_untrusted_read_only: Let an untrusted project's read-only tools run,
        confined, without asking (see :func:`tooldrop.approval.runs_confined_instead`);
        ``None``: the personal config's ``sandboxUntrustedReadOnly``. Set it from the user's
        own settings only, never from the project's.
    :param settings: Use these settings instead of reading the config files. ``None`` (the
        default) reads them as the CLI does (:func:`tooldrop.load_settings`): the personal
        ``config.yaml`` and the project's ``.<app>/config.yaml``, whose ``alwaysAllow`` counts
        only while the project is trusted. What is wrong in them is in ``settings.problems``.
    """

    def __init__(
        self,
        project_dir: str | os.PathLike[str] = ".",
        user_dir: str | os.PathLike[str] | None = None,
        app: str = "tooldrop",
        mode: Mode = "normal",
        plugins: Iterable[object] | None = None,
        always_allow: Iterable[str] = (),
        disabled_tools: Iterable[str] = (),
        reserved_names: Iterable[str] = (),
        output_limit: int = DEFAULT_OUTPUT_LIMIT,
        name_prefixes: Mapping[str, str] | None = None,
        cache: bool = True,
        sandbox: SandboxSetting | None = None,
        sandbox_untrusted_read_only: bool | None = None,
        *,
        settings: Settings | None = None,
        _plugin_set: PluginSet | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; expected one of: {', '.join(MODES)}")
        if sandbox is not None and sandbox not in SANDBOX_SETTINGS:
            expected = ", ".join(SANDBOX_SETTINGS)
            raise ValueError(f"unknown sandbox setting {sandbox!r}; expected one of: {expected}")
        self.project_dir = Path(project_dir).resolve()
        self.app = app
        self.config_dir = config_dir_for(app, user_dir)
        self.mode: Mode = mode
        if settings is None:
            settings = load_settings(self.project_dir, self.config_dir, app)
        #: The settings this host was made with; ``.problems`` says what is wrong in them.
        self.settings = settings
        self._always_allow = frozenset(always_allow) | settings.always_allow
        # The project's alwaysAllow: a cloned repository must not approve tools by shipping a
        # config file, so it counts only while the project is trusted (see always_allow).
        self._project_always_allow = frozenset(settings.project_always_allow)
        self.disabled_tools = frozenset(disabled_tools) | settings.disabled_tools
        self.reserved_names = frozenset(reserved_names)
        self.output_limit = output_limit
        self.sandbox: SandboxSetting = sandbox or settings.sandbox or "off"
        self.sandbox_untrusted_read_only = (
            settings.sandbox_untrusted_read_only
            if sandbox_untrusted_read_only is None
            else sandbox_untrusted_read_only
        )
        self.name_prefixes = (
            {"python": "custom__"} if name_prefixes is None else dict(name_prefixes)
        )
        #: Reuse load results of unchanged files across runs (``TOOLDROP_NO_CACHE=1``: never).
        self.cache = cache and not env_flag("TOOLDROP_NO_CACHE")
        self.grants = GrantStore(self.config_dir / "grants.json", self.project_dir, self.config_dir)
        self.trust_store = TrustStore(self.config_dir / "trust.json")
        self._trusted: tuple[object, bool] | None = None  # (registry it was computed for, answer)

        # The CLI passes the plugin set it loaded to find plugin commands, so it loads once.
        self._plugins = _plugin_set or load_plugin_set(plugins)

        self._lock = threading.RLock()
        self._registry: Any = None
        self._load_problems: list[Problem] = []
        self._exporter_problems: list[Problem] = []
        self._last_good: dict[str, LoadResult] = {}
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None

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
            raise UnknownSkillError(name)
        return found

    def context(self, skill: str | None = None) -> AgentContext:
        """One agent's view of the tools: listing, export and calls, all in that context.

        :param skill: ``None`` for the main agent, or a bundle's name for its agent.
        :raises UnknownSkillError: no bundle of that name loaded.
        """
        self._skill(skill)
        return AgentContext(self, skill)

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

    # -- calls --------------------------------------------------------------------------

    def render(
        self, name: str, args: Mapping[str, Any] | None = None, *, skill: str | None = None
    ) -> str:
        """The exact script a call would run. Nothing is approved or executed.

        :param skill: The agent context (see :meth:`tools`).
        :raises UnknownToolError: no such tool in that context.
        :raises InvalidArgumentsError: the arguments do not meet the schema.
        :raises RenderError: the tool is not rendered (Python tools), or refuses the values.
        """
        spec = self.lookup(name, skill)
        if spec is None:
            raise UnknownToolError(name, known=[s.name for s in self.tools(skill)])
        current = drop_null_optionals(spec, args or {})
        messages = [
            message
            for group in self.hook.tooldrop_validate_args(spec=spec, args=current, host=self)
            for message in group or ()
        ]
        if messages:
            raise InvalidArgumentsError(messages)
        call = ToolCall(spec=spec, args=apply_defaults(spec, current), mode=self.mode)
        script = self.hook.tooldrop_render(call=call, host=self)
        if script is None:
            raise RenderError(f'"{name}" is a {spec.runner} tool; it runs without a script')
        return str(script)

    def prepare(
        self,
        name: str,
        args: Mapping[str, Any] | None = None,
        *,
        cancel: CancelToken | None = None,
        skill: str | None = None,
    ) -> PendingCall:
        """Validate, apply defaults, render and ask the approval policy; run nothing.

        The :class:`PendingCall` says whether a person must approve and why, shows what would
        run, or holds the error result the model should get. ``pending.run(approved=...)``
        then runs exactly that call, once. Never raises for the model's mistakes.

        :param cancel: Set it (from another thread) to stop the call once it runs.
        :param skill: The agent context making the call (see :meth:`call`).
        """
        return pend(self, name, args, cancel=cancel, skill=skill)

    async def aprepare(
        self,
        name: str,
        args: Mapping[str, Any] | None = None,
        *,
        cancel: CancelToken | None = None,
        skill: str | None = None,
    ) -> PendingCall:
        """:meth:`prepare`, awaitable (hooks run in a worker thread, off the event loop)."""
        import asyncio

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool(), lambda: pend(self, name, args, cancel=cancel, skill=skill)
        )

    def call(
        self,
        name: str,
        args: Mapping[str, Any] | None = None,
        *,
        ask: AskCallback | None = None,
        cancel: CancelToken | None = None,
        skill: str | None = None,
    ) -> ToolResult:
        """Validate, approve and run one call; every failure is an error result, never raised.

        The same as :meth:`prepare`, then asking ``ask`` when the call needs a person, then
        :meth:`PendingCall.run`.

        :param ask: Answers the prompt when approval says *ask*: ``ask(call)`` returns
            ``True``/``False`` or a :class:`Decision`. Without it the ``tooldrop_ask`` hook
            is asked; with no answer the call is denied.
        :param cancel: Set it (from another thread) to stop the call and kill its processes.
        :param skill: The agent context calling (see :meth:`tools`): a tool outside it is an
            unknown tool. An unknown skill is an error result too.
        """
        return pipeline_call(self, name, args, ask=ask, cancel=cancel, skill=skill)

    async def acall(
        self,
        name: str,
        args: Mapping[str, Any] | None = None,
        *,
        ask: Any = None,
        cancel: CancelToken | None = None,
        skill: str | None = None,
    ) -> ToolResult:
        """:meth:`call`, awaitable. Cancelling the awaiting task cancels the call.

        ``ask`` may be a coroutine function here; it runs on the caller's event loop.
        """
        token = cancel or CancelToken()
        import asyncio

        loop = asyncio.get_running_loop()
        sync_ask = None if ask is None else on_loop(ask, loop)
        future = loop.run_in_executor(
            self._pool(), lambda: self.call(name, args, ask=sync_ask, cancel=token, skill=skill)
        )
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            token.cancel()
            # Give the backend the moment it needs to kill the process tree, then go.
            await asyncio.wait([future], timeout=10)
            raise

    def call_many(
        self,
        calls: Sequence[tuple[str, Mapping[str, Any] | None]],
        *,
        ask: AskCallback | None = None,
        skill: str | None = None,
    ) -> list[ToolResult]:
        """Run several calls, in order; consecutive read-only calls run at the same time.

        Approval happens first, one call after another (a person answers prompts in order);
        then each run of consecutive approved read-only calls executes concurrently. Results
        come back in the order of ``calls``.
        """
        return run_many(self, calls, ask=ask, pool=self._pool(), skill=skill)

    async def acall_many(
        self,
        calls: Sequence[tuple[str, Mapping[str, Any] | None]],
        *,
        ask: AskCallback | None = None,
        skill: str | None = None,
    ) -> list[ToolResult]:
        """:meth:`call_many`, awaitable."""
        # Not on our own pool: call_many submits its batches there, and waiting on the pool
        # from inside the pool could starve it.
        import asyncio

        return await asyncio.to_thread(self.call_many, calls, ask=ask, skill=skill)

    def _pool(self) -> concurrent.futures.ThreadPoolExecutor:
        if self._executor is None:
            with self._lock:
                if self._executor is None:
                    import concurrent.futures

                    self._executor = concurrent.futures.ThreadPoolExecutor(
                        MAX_CONCURRENT_CALLS, thread_name_prefix="tooldrop-call"
                    )
        return self._executor

    # -- lifecycle ----------------------------------------------------------------------

    def close(self) -> None:
        """Stop the worker threads (running calls finish first)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None

    def __enter__(self) -> ToolHost:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ToolHost project={str(self.project_dir)!r} app={self.app!r} mode={self.mode!r}>"
