"""``ToolHost``: the one object a host app talks to.

Its state, places, plugins, tools, skills, trust and exports are in :class:`HostBase`
(``_base.py``); this module builds that state and runs the calls.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._errors import InvalidArgumentsError, RenderError, UnknownToolError
from .._model import (
    MODES,
    SANDBOX_SETTINGS,
    LoadResult,
    Mode,
    OutputCallback,
    Problem,
    SandboxSetting,
    ToolCall,
    ToolResult,
)
from ..calls._cancel import CancelToken
from ..calls._output import DEFAULT_OUTPUT_LIMIT
from ..policy._grants import GrantStore
from ..policy._trust import TrustStore
from ._agentctx import AgentContext
from ._base import HostBase
from ._essentials import load_plugin_set
from ._plugins import PluginSet, env_flag
from ._settings import Settings, config_dir_for, load_settings

if TYPE_CHECKING:
    import concurrent.futures

    from ..calls._pending import PendingCall
    from ..calls._pipeline import AskCallback

# asyncio, concurrent.futures and platformdirs are imported where they are needed, and so are
# the call pipeline and the schema checks (the methods below import them): a host that only
# lists tools (``tooldrop list``) never needs them, and asyncio alone costs ~40 ms.

__all__ = ["ToolHost"]

#: Calls running at once from ``acall`` / ``call_many`` before more wait for a free worker.
MAX_CONCURRENT_CALLS = 64


class ToolHost(HostBase):
    """Loads plugins, discovers tools, and runs calls through the pipeline.

    :param project_dir: The project root; its tools live in ``.<app>/tools/``.
    :param user_dir: The personal config dir (default: ``$<APP>_CONFIG_DIR`` or the platform's
        user config dir for ``app``); personal tools live in its ``tools/``.
    :param app: Names the folders: ``app="nanocoder"`` reads a Nanocoder project as it is.
    :param mode: ``normal``, ``auto-accept``, ``architect``, ``yolo``, ``plan`` or ``headless``.
    :param plugins: Compose exactly these plugins (modules or objects) and load no entry
        points; ``None`` loads the installed ``tooldrop`` entry points. A plugin set loaded
        once with :func:`tooldrop.cli.load_plugin_set` is used as it is (the core's essential
        plugins are in every set); hosts given one set share it, so a plugin one of them
        registers is registered for all of them.
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
        plugins: Iterable[object] | PluginSet | None = None,
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
        self._plugins = plugins if isinstance(plugins, PluginSet) else load_plugin_set(plugins)

        self._lock = threading.RLock()
        self._registry: Any = None
        self._load_problems: list[Problem] = []
        self._exporter_problems: list[Problem] = []
        self._last_good: dict[str, LoadResult] = {}
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None

    def context(self, skill: str | None = None) -> AgentContext:
        """One agent's view of the tools: listing, export and calls, all in that context.

        :param skill: ``None`` for the main agent, or a bundle's name for its agent.
        :raises UnknownSkillError: no bundle of that name loaded.
        """
        self._skill(skill)
        return AgentContext(self, skill)

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
        from ..schemas._schema import apply_defaults, drop_null_optionals

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
        from ..calls._pipeline import pend

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
            self._pool(), lambda: self.prepare(name, args, cancel=cancel, skill=skill)
        )

    def call(
        self,
        name: str,
        args: Mapping[str, Any] | None = None,
        *,
        ask: AskCallback | None = None,
        cancel: CancelToken | None = None,
        skill: str | None = None,
        on_output: OutputCallback | None = None,
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
        :param on_output: ``on_output(text, stream)`` gets the tool's output as it comes, for
            a person watching (see :meth:`PendingCall.run`); the result is unchanged.
        """
        from ..calls._pipeline import call as pipeline_call

        return pipeline_call(
            self, name, args, ask=ask, cancel=cancel, skill=skill, on_output=on_output
        )

    async def acall(
        self,
        name: str,
        args: Mapping[str, Any] | None = None,
        *,
        ask: Any = None,
        cancel: CancelToken | None = None,
        skill: str | None = None,
        on_output: OutputCallback | None = None,
    ) -> ToolResult:
        """:meth:`call`, awaitable. Cancelling the awaiting task cancels the call.

        ``ask`` may be a coroutine function here; it runs on the caller's event loop.
        ``on_output`` is called from a worker thread: hand the text to the loop with
        ``loop.call_soon_threadsafe``.
        """
        token = cancel or CancelToken()
        import asyncio

        from ..calls._pipeline import on_loop

        loop = asyncio.get_running_loop()
        sync_ask = None if ask is None else on_loop(ask, loop)
        future = loop.run_in_executor(
            self._pool(),
            lambda: self.call(
                name, args, ask=sync_ask, cancel=token, skill=skill, on_output=on_output
            ),
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
        from ..calls._pipeline import run_many

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
