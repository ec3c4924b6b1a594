"""The call pipeline: validate → defaults → render → approve → (ask) → execute → after_call.

:func:`pend` does the steps up to the policy's decision and returns a
:class:`~tooldrop.PendingCall`; :func:`call` adds the prompt and runs it.

Every step that fails produces an error :class:`ToolResult` the model can read; nothing here
raises at the caller. The pipeline is synchronous (pluggy is); ``ToolHost.acall`` runs it in a
worker thread and turns task cancellation into the call's cancel token.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import evolve

from .._errors import RenderError, UnknownSkillError, UnknownToolError
from .._model import Decision, OutputCallback, Problem, ToolCall, ToolResult, ToolSpec
from ..policy._invariants import enforce
from ..schemas._schema import apply_defaults, drop_null_optionals
from ._cancel import CancelToken
from ._output import truncate
from ._pending import PendingCall, file_digest

if TYPE_CHECKING:
    import asyncio
    import concurrent.futures

    from ..host._host import ToolHost

__all__ = ["AskCallback", "call", "on_loop", "pend", "prepare", "run_many"]

#: ``ask(call)`` answers a prompt: ``True``/``False``, a :class:`Decision`, or ``None`` (no one).
AskCallback = Callable[[ToolCall], "bool | Decision | None"]

#: How many times a person may edit the arguments at one prompt before we give up.
MAX_EDITS = 10


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _path_parent(problem: Problem) -> Path | None:
    return problem.path.parent if problem.path is not None else None


def _failed_to_load(host: ToolHost, name: str) -> Problem | None:
    """The load error of a file whose name says it held tool ``name``, if one failed.

    Files inside a skill bundle (a folder with a ``skill.yaml`` above them) are left out: a
    scoped tool's name is not told to other contexts, not even as "it failed to load".
    """
    for problem in host.problems():
        path = problem.path
        if problem.severity != "error" or path is None:
            continue
        stem = path.stem.replace("-", "_").lower()
        if name.lower() != stem and not name.lower().endswith(f"__{stem}"):
            continue
        if any((parent / "skill.yaml").exists() for parent in path.parents[:3]):
            continue
        return problem
    return None


def _unknown(host: ToolHost, name: str, skill: str | None) -> ToolResult:
    failed = _failed_to_load(host, name)
    if failed is not None:
        return ToolResult.error(
            # The file by name only: the text may go to a model, which needs no home paths.
            f'Tool "{name}" failed to load ({failed.format(_path_parent(failed))}); '
            "see `tooldrop check`"
        )
    # Only the names this context may call: a scoped tool's name is not told to others.
    names = [spec.name for spec in host.tools(skill)]
    return ToolResult.error(str(UnknownToolError(name, known=names)))


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


def pend(
    host: ToolHost,
    name: str,
    args: Mapping[str, Any] | None,
    *,
    cancel: CancelToken | None = None,
    started: float | None = None,
    skill: str | None = None,
) -> PendingCall:
    """Validate, apply defaults, render and ask the policy; run nothing, ask no one.

    ``skill`` is the agent context making the call (``None``: the main agent); a tool outside
    it is an unknown tool.
    """
    started = time.monotonic() if started is None else started
    cancel = cancel or CancelToken()
    try:
        spec = host.lookup(name, skill)
    except UnknownSkillError as exc:
        spec, unknown_skill = None, str(exc)
    else:
        unknown_skill = ""

    def refused(result: ToolResult, seen: ToolCall | None) -> PendingCall:
        text, cut = truncate(result.text, host.output_limit)
        result = evolve(result, text=text, truncated=result.truncated or cut)
        return PendingCall(
            name=name, spec=spec, call=None, result=result, host=host, started=started, seen=seen
        )

    if spec is None:
        if unknown_skill:
            return refused(ToolResult.error(unknown_skill), None)
        return refused(_unknown(host, name, skill), None)
    call = ToolCall(spec=spec, args={}, mode=host.mode, cancel=cancel)
    if not host.is_available(spec):
        unavailable = f'Tool "{name}" is not available in {host.mode} mode'
        return refused(ToolResult.error(unavailable), call)
    current: Any = {} if args is None else args
    if isinstance(current, Mapping):
        current = drop_null_optionals(spec, current)
    messages = _validate(host, spec, current)
    if messages:
        given = current if isinstance(current, Mapping) else {}
        call = ToolCall(spec=spec, args=given, mode=host.mode, cancel=cancel)
        return refused(ToolResult.error("\n".join(messages)), call)
    # The file's digest before rendering: an edit from now on is caught by run().
    digest = file_digest(spec)
    args = apply_defaults(spec, current)
    call = ToolCall(spec=spec, args=args, mode=host.mode, cancel=cancel)
    try:
        script = host.hook.tooldrop_render(call=call, host=host)
        if script is not None:
            call = ToolCall(spec=spec, args=args, script=script, mode=host.mode, cancel=cancel)
    except RenderError as exc:
        return refused(ToolResult.error(str(exc)), call)
    except Exception as exc:  # noqa: BLE001 - a renderer bug fails the call, readably.
        return refused(ToolResult.error(f'Could not render tool "{name}": {_describe(exc)}'), call)
    # The policy plugins decide; the core's guarantees (trust, requires_approval) hold
    # whatever they return: an allow that needs a person's yes becomes an ask.
    decision = enforce(host, call, _approve(host, call))
    if decision.outcome == "deny":
        return refused(ToolResult.error(f"Tool call denied: {decision.reason}", denied=True), call)
    return PendingCall(
        name=name,
        spec=spec,
        call=call,
        result=None,
        needs_approval=decision.outcome == "ask",
        reason=decision.reason,
        host=host,
        started=started,
        digest=digest,
    )


def prepare(
    host: ToolHost,
    name: str,
    args: Mapping[str, Any] | None,
    *,
    ask: AskCallback | None = None,
    cancel: CancelToken | None = None,
    skill: str | None = None,
) -> tuple[PendingCall, Decision | None]:
    """A pending call and, when it needs a person, their answer (arguments edited at the
    prompt are validated, rendered and judged again)."""
    started = time.monotonic()
    cancel = cancel or CancelToken()
    current: Any = args
    for _ in range(MAX_EDITS + 1):
        pending = pend(host, name, current, cancel=cancel, started=started, skill=skill)
        if pending.call is None or not pending.needs_approval:
            return pending, None
        decision = _ask(host, pending.call, ask, pending.reason)
        if decision.args is None:
            return pending, decision
        current = decision.args  # edited at the prompt: validate, render, approve again
    denied = ToolResult.error("Tool call denied: too many edits", denied=True)
    return (
        PendingCall(
            name=name,
            spec=pending.spec,
            call=None,
            result=denied,
            host=host,
            started=started,
            seen=pending.call,
        ),
        None,
    )


def call(
    host: ToolHost,
    name: str,
    args: Mapping[str, Any] | None,
    *,
    ask: AskCallback | None = None,
    cancel: CancelToken | None = None,
    skill: str | None = None,
    on_output: OutputCallback | None = None,
) -> ToolResult:
    """Prepare, ask when needed, run: ``host.call``."""
    pending, decision = prepare(host, name, args, ask=ask, cancel=cancel, skill=skill)
    return pending._settle(decision, on_output)


def run_many(
    host: ToolHost,
    calls: Sequence[tuple[str, Mapping[str, Any] | None]],
    *,
    ask: AskCallback | None,
    pool: concurrent.futures.Executor,
    skill: str | None = None,
) -> list[ToolResult]:
    """Prepare every call in order, then run each stretch of read-only calls concurrently."""
    prepared = [prepare(host, name, args, ask=ask, skill=skill) for name, args in calls]
    results: list[ToolResult | None] = [None] * len(prepared)
    batch: list[int] = []

    def settle(index: int) -> ToolResult:
        pending, decision = prepared[index]
        return pending._settle(decision)

    def flush() -> None:
        if len(batch) == 1:
            results[batch[0]] = settle(batch[0])
        elif batch:
            futures = {i: pool.submit(settle, i) for i in batch}
            for i, future in futures.items():
                results[i] = future.result()
        batch.clear()

    for index, (pending, decision) in enumerate(prepared):
        runs = pending.call is not None and (decision is None or decision.allowed)
        if runs and pending.call is not None and pending.call.spec.read_only:
            batch.append(index)
            continue
        flush()
        results[index] = settle(index)
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
