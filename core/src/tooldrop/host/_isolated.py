"""Hooks whose implementations fail each on its own, called through pluggy all the same.

``tooldrop_register_tools``, ``tooldrop_after_call`` and ``tooldrop_register_commands`` promise
that one failing implementation does not stop the others: a tool pack that raises keeps the
tools it registered and the other packs keep theirs, an audit log that raises does not silence
the metrics. pluggy ends a hook call at the first exception, so these hooks used to be called
one implementation at a time, past pluggy, and hook wrappers, ``tryfirst``/``trylast`` order
and ``TOOLDROP_TRACE_PLUGINS`` never saw them (issue 13).

Now they are called through pluggy like every other hook, and each implementation's function is
wrapped, once, in a guard:

- a plain implementation's guard catches what it raises and hands it to the ``report``
  callback of the current call, naming the plugin, so pluggy goes on to the next one;
- every guard (wrappers included) records which plugin is running, so ``register`` can stamp
  each tool with the plugin that registered it (:func:`running_plugin`).

An exception a *wrapper* raises ends the hook call, as pluggy does; :func:`call_isolated`
reports it with the wrapper's plugin name.
"""

from __future__ import annotations

import contextvars
import functools
import threading
from collections.abc import Callable, Generator
from typing import Any

import pluggy

__all__ = ["ISOLATED_HOOKS", "Report", "call_isolated", "running_plugin"]

#: The hooks whose implementations are isolated from one another.
ISOLATED_HOOKS = frozenset(
    {"tooldrop_register_tools", "tooldrop_after_call", "tooldrop_register_commands"}
)

#: ``report(plugin_name, exception)``: what to do with one implementation's failure.
Report = Callable[[str, BaseException], None]

_running: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "tooldrop_running_plugin", default=None
)
_report: contextvars.ContextVar[Report | None] = contextvars.ContextVar(
    "tooldrop_isolated_report", default=None
)
_failed_in: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "tooldrop_failed_wrapper", default=None
)
_MARK = "__tooldrop_isolated__"
_lock = threading.Lock()


def running_plugin() -> str | None:
    """The plugin whose implementation of an isolated hook is running now, if any."""
    return _running.get()


def _plain_guard(function: Callable[..., Any], plugin: str) -> Callable[..., Any]:
    @functools.wraps(function)
    def guard(*args: Any, **kwargs: Any) -> Any:
        token = _running.set(plugin)
        try:
            return function(*args, **kwargs)
        except Exception as exc:
            report = _report.get()
            if report is None:
                raise  # called outside call_isolated: fail as pluggy would
            report(plugin, exc)
            return None
        finally:
            _running.reset(token)

    return guard


def _wrapper_guard(function: Callable[..., Any], plugin: str) -> Callable[..., Any]:
    @functools.wraps(function)
    def guard(*args: Any, **kwargs: Any) -> Generator[Any, Any, Any]:
        # The name stays set while the wrapper is suspended at its yield; the implementations
        # inside set and reset their own, so it is the wrapper's again when it resumes.
        token = _running.set(plugin)
        try:
            return (yield from function(*args, **kwargs))
        except Exception:
            _failed_in.set(plugin)
            raise
        finally:
            _running.reset(token)

    return guard


def _guard_all(caller: pluggy.HookCaller) -> None:
    with _lock:
        for impl in caller.get_hookimpls():
            if getattr(impl.function, _MARK, False):
                continue
            wrap = _wrapper_guard if (impl.wrapper or impl.hookwrapper) else _plain_guard
            guard = wrap(impl.function, impl.plugin_name)
            setattr(guard, _MARK, True)
            # HookImpl.function is declared Final, but it is the one place pluggy calls; the
            # guard takes the same arguments (pluggy passes them by position, from argnames).
            object.__setattr__(impl, "function", guard)


def call_isolated(caller: pluggy.HookCaller, report: Report, **kwargs: Any) -> None:
    """Call the hook through pluggy; each implementation's failure goes to ``report``."""
    _guard_all(caller)
    token = _report.set(report)
    failed = _failed_in.set(None)
    try:
        caller(**kwargs)
    except Exception as exc:  # noqa: BLE001 - a wrapper's failure, reported like the others.
        report(_failed_in.get() or "a hook wrapper", exc)
    finally:
        _failed_in.reset(failed)
        _report.reset(token)
