"""The call pipeline: validate → defaults → render → approve → execute → after_call.

Every step that fails produces an error :class:`ToolResult` the model can read; nothing here
raises at the caller. The pipeline is synchronous (pluggy is); ``ToolHost.acall`` runs it in a
worker thread and turns task cancellation into the call's cancel token.
"""

from __future__ import annotations

import inspect
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from attrs import evolve

from ._cancel import CancelToken
from ._errors import RenderError
from ._invariants import enforce
from ._model import Decision, ToolCall, ToolResult, ToolSpec
from ._output import truncate
from ._schema import apply_defaults, drop_null_optionals

if TYPE_CHECKING:
    import asyncio
    import concurrent.futures

    from ._host import ToolHost

__all__ = ["AskCallback", "Prepared", "on_loop", "prepare", "run_many", "run_prepared"]

#: ``ask(call)`` answers a prompt: ``True``/``False``, a :class:`Decision`, or ``None`` (no one).
AskCallback = Callable[[ToolCall], "bool | Decision | None"]

#: How many times a person may edit the arguments at one prompt before we give up.
MAX_EDITS = 10
_SHOWN_NAMES = 30


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class Prepared:
    """A call that passed validation and approval, ready to run (or a result already)."""

    __slots__ = ("call", "result", "started")

    def __init__(self, call: ToolCall | None, result: ToolResult | None, started: float) -> None:
        self.call = call
        self.result = result
        self.started = started


def _unknown(host: ToolHost, name: str) -> ToolResult:
    names = [spec.name for spec in host.tools()]
    shown = ", ".join(names[:_SHOWN_NAMES]) + (", ..." if len(names) > _SHOWN_NAMES else "")
    return ToolResult.error(f'Unknown tool "{name}". Available tools: {shown or "none"}')


def _validate(host: ToolHost, spec: ToolSpec, args: Mapping[str, Any]) -> list[str]:
    try:
        groups = host.hook.tooldrop_validate_args(spec=spec, args=args, host=host)
    except Exception as exc:  # noqa: BLE001 - a crashing validator refuses the call.
        return [f"⚒ Argument validation failed: {_describe(exc)}"]
    messages: list[str] = []
    for group in groups:
        for message in group or ():
            if message not in messages:
                messages.append(message)
    return messages


def _approve(host: ToolHost, call: ToolCall) -> Decision:
    try:
        decision = host.hook.tooldrop_approve(call=call, host=host)
    except Exception as exc:  # noqa: BLE001 - an exception in approval is a deny (DESIGN §3.2).
        return Decision.deny(f"the approval policy failed ({_describe(exc)})")
    if decision is None:
        return Decision.ask()
    if not isinstance(decision, Decision):
        return Decision.deny(
            f"the approval policy returned {type(decision).__name__}, not a Decision"
        )
    return decision


def _as_decision(answer: object) -> Decision | None:
    if answer is None or isinstance(answer, Decision):
        return answer
    if answer is True:
        return Decision.allow("approved at the prompt")
    if answer is False:
        return Decision.deny("the user declined")
    return Decision.deny(f"the prompt answered {type(answer).__name__}, not a decision")


def _ask(host: ToolHost, call: ToolCall, ask: AskCallback | None, why: str) -> Decision:
    """A person's answer; ``why`` is the policy's reason for asking, for the deny message."""
    try:
        answer = ask(call) if ask is not None else host.hook.tooldrop_ask(call=call, host=host)
        if inspect.isawaitable(answer):
            raise TypeError("ask callbacks passed to host.call must be synchronous; use acall")
    except Exception as exc:  # noqa: BLE001 - a failing prompt denies the call.
        return Decision.deny(f"asking for approval failed ({_describe(exc)})")
    decision = _as_decision(answer)
    if decision is None:
        # Say why it needed a person: "run in yolo mode" is no help for an untrusted project.
        hint = why or (
            "approve it interactively, run in a mode that allows it, or add it to alwaysAllow"
        )
        return Decision.deny(
            f'"{call.name}" needs approval and there is no one to ask (mode: {host.mode}): {hint}'
        )
    if decision.outcome == "ask" and decision.args is None:
        return Decision.deny("the prompt gave no answer")
    return decision


def _finish(
    host: ToolHost, started: float, result: ToolResult, call: ToolCall | None
) -> ToolResult:
    text, cut = truncate(result.text, host.output_limit)
    result = evolve(
        result,
        text=text,
        truncated=result.truncated or cut,
        duration=time.monotonic() - started,
    )
    if call is not None:
        _after_call(host, call, result)
    return result


def _after_call(host: ToolHost, call: ToolCall, result: ToolResult) -> None:
    """Tell every observer, each on its own: one failing observer does not silence the rest."""
    kwargs = {"call": call, "result": result, "host": host}
    # pluggy calls implementations last-registered first; keep that order.
    for impl in reversed(host.hook.tooldrop_after_call.get_hookimpls()):
        try:
            impl.function(**{name: kwargs[name] for name in impl.argnames})
        except Exception as exc:  # noqa: BLE001 - observers cannot change or break a call.
            print(
                f"tooldrop: tooldrop_after_call of {impl.plugin_name} failed: {_describe(exc)}",
                file=sys.stderr,
            )


def prepare(
    host: ToolHost,
    name: str,
    args: Mapping[str, Any] | None,
    *,
    ask: AskCallback | None = None,
    cancel: CancelToken | None = None,
) -> Prepared:
    """Validate, render and approve; the result is either a runnable call or a final result."""
    started = time.monotonic()
    cancel = cancel or CancelToken()
    spec = host.get(name)
    if spec is None:
        return Prepared(None, _finish(host, started, _unknown(host, name), None), started)
    current: Any = {} if args is None else args
    call = ToolCall(spec=spec, args={}, mode=host.mode, cancel=cancel)

    def done(result: ToolResult) -> Prepared:
        return Prepared(None, _finish(host, started, result, call), started)

    if not host.is_available(spec):
        return done(ToolResult.error(f'Tool "{name}" is not available in {host.mode} mode'))
    for _ in range(MAX_EDITS + 1):
        if isinstance(current, Mapping):
            current = drop_null_optionals(spec, current)
        messages = _validate(host, spec, current)
        if messages:
            given = current if isinstance(current, Mapping) else {}
            call = ToolCall(spec=spec, args=given, mode=host.mode, cancel=cancel)
            return done(ToolResult.error("\n".join(messages)))
        args = apply_defaults(spec, current)
        call = ToolCall(spec=spec, args=args, mode=host.mode, cancel=cancel)
        try:
            script = host.hook.tooldrop_render(call=call, host=host)
            if script is not None:
                call = ToolCall(spec=spec, args=args, script=script, mode=host.mode, cancel=cancel)
        except RenderError as exc:
            return done(ToolResult.error(str(exc)))
        except Exception as exc:  # noqa: BLE001 - a renderer bug fails the call, readably.
            return done(ToolResult.error(f'Could not render tool "{name}": {_describe(exc)}'))
        # The policy plugins decide; the core's guarantees (trust, requires_approval) hold
        # whatever they return: an allow that needs a person's yes becomes an ask.
        decision = enforce(host, call, _approve(host, call))
        if decision.outcome == "ask":
            decision = _ask(host, call, ask, decision.reason)
        if decision.args is not None:
            current = decision.args  # edited at the prompt: validate, render, approve again
            continue
        break
    else:
        return done(ToolResult.error("Tool call denied: too many edits", denied=True))
    if not decision.allowed:
        return done(ToolResult.error(f"Tool call denied: {decision.reason}", denied=True))
    if decision.remember and not spec.requires_approval:
        host.grants.remember(spec)
    return Prepared(call, None, started)


def run_prepared(host: ToolHost, prepared: Prepared) -> ToolResult:
    """Execute a prepared call and finish its result (limit, duration, after_call)."""
    if prepared.result is not None:
        return prepared.result
    call = prepared.call
    assert call is not None
    if call.cancel.cancelled:
        return _finish(host, prepared.started, ToolResult.error("Tool call cancelled"), call)
    return _finish(host, prepared.started, _execute(host, call), call)


def _execute(host: ToolHost, call: ToolCall) -> ToolResult:
    try:
        outcome: object = host.hook.tooldrop_execute(call=call, host=host)
    except Exception as exc:  # noqa: BLE001 - a backend crash is an error result, not a crash.
        return ToolResult.error(f'Tool "{call.name}" crashed: {_describe(exc)}')
    if outcome is None:
        runner = call.spec.runner
        return ToolResult.error(
            f'No backend can run "{runner}" tools (is the tooldrop-{runner} plugin installed?)'
        )
    if not isinstance(outcome, ToolResult):
        return ToolResult.error(f"The backend returned {type(outcome).__name__}, not a ToolResult")
    return outcome


def run_many(
    host: ToolHost,
    calls: Sequence[tuple[str, Mapping[str, Any] | None]],
    *,
    ask: AskCallback | None,
    pool: concurrent.futures.Executor,
) -> list[ToolResult]:
    """Prepare every call in order, then run each stretch of read-only calls concurrently."""
    prepared = [prepare(host, name, args, ask=ask) for name, args in calls]
    results: list[ToolResult | None] = [None] * len(prepared)
    batch: list[int] = []

    def flush() -> None:
        if len(batch) == 1:
            results[batch[0]] = run_prepared(host, prepared[batch[0]])
        elif batch:
            futures = {i: pool.submit(run_prepared, host, prepared[i]) for i in batch}
            for i, future in futures.items():
                results[i] = future.result()
        batch.clear()

    for index, item in enumerate(prepared):
        if item.call is not None and item.call.spec.read_only:
            batch.append(index)
            continue
        flush()
        results[index] = run_prepared(host, item)
    flush()
    return [r for r in results if r is not None]


def on_loop(ask: Any, loop: asyncio.AbstractEventLoop) -> AskCallback:
    """Wrap an ask callback so a worker thread can call it, running coroutines on ``loop``."""

    def sync_ask(call: ToolCall) -> Any:
        answer = ask(call)
        if inspect.isawaitable(answer):
            import asyncio

            return asyncio.run_coroutine_threadsafe(_await(answer), loop).result()
        return answer

    return sync_ask


async def _await(awaitable: Any) -> Any:
    return await awaitable
