"""A pending call: validated, rendered and judged by the approval policy, not yet run.

Agent frameworks approve tool calls their own way (deferred tools, ``needs_approval``, graph
interrupts, a prompt callback). Each needs to know *before* running whether a person must say
yes, and what to show them. :meth:`ToolHost.prepare` answers that with a :class:`PendingCall`;
its :meth:`~PendingCall.run` executes exactly the call that was shown (the same rendered script,
the same arguments), and refuses when the tool's file changed in between, because then the
person approved a version of the tool that is no longer the one on disk.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
import threading
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from attrs import evolve, field, frozen

from .._model import Decision, OutputCallback, ToolCall, ToolResult, ToolSpec
from ..host._isolated import call_isolated
from ..host._lifetime import running
from ._output import truncate

if TYPE_CHECKING:
    from ..host._host import ToolHost

__all__ = ["PendingCall", "describe_call", "file_digest"]

#: The longest script shown whole in :func:`describe_call`; longer keep head and tail.
MAX_SHOWN = 4000


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _shorten(text: str) -> str:
    if len(text) <= MAX_SHOWN:
        return text
    half = MAX_SHOWN // 2
    return f"{text[:half]}\n... [{len(text) - MAX_SHOWN} characters not shown] ...\n{text[-half:]}"


def describe_call(call: ToolCall, *, allowed: str | None = None) -> str:
    """What a person needs to decide on ``call``: the tool, where it is from, its policy, its
    arguments and the exact script (a long one by its head and tail); ``allowed`` adds what a
    sandbox lets it do. The text of MCP's approval prompt and of the adapters' previews."""
    spec = call.spec
    origin = spec.origin
    where = f"{origin.source}, {origin.scope}"
    if origin.path is not None:
        where += f": {origin.path}"
    policy = "asks every time" if spec.requires_approval else f"approval: {spec.approval}"
    lines = [f'Run the tool "{spec.name}"? ({where}; {policy})']
    if allowed is not None:
        lines.append(f"Allowed: {allowed}")
    lines += [
        "",
        "Arguments:",
        json.dumps(dict(call.args), indent=2, ensure_ascii=False, sort_keys=True, default=str),
    ]
    if call.script is not None:
        lines += ["", "Script:", _shorten(call.script)]
    return "\n".join(lines)


class _Once:
    """The one mutable bit of a frozen pending call: whether it was run already."""

    __slots__ = ("_lock", "done")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.done = False

    def claim(self) -> bool:
        with self._lock:
            first, self.done = not self.done, True
            return first


class _Listener:
    """A host's ``on_output`` as backends call it: one chunk at a time, never an empty one,
    never after the call has returned; a callback that raises is said once on stderr and not
    called again (the call itself goes on: a broken display must not break the tool)."""

    __slots__ = ("_callback", "_lock", "_name", "_open")

    def __init__(self, callback: OutputCallback, name: str) -> None:
        self._callback = callback
        self._name = name
        self._lock = threading.Lock()
        self._open = True

    def __call__(self, text: str, stream: str) -> None:
        if not text:
            return
        with self._lock:
            if not self._open:
                return
            try:
                self._callback(text, "stderr" if stream == "stderr" else "stdout")
            except Exception as exc:  # noqa: BLE001 - the host's code; reported, then ignored.
                self._open = False
                # stderr may be the very terminal that just went away (a hang-up).
                with contextlib.suppress(OSError, ValueError):
                    print(
                        f'tooldrop: on_output for "{self._name}" failed ({_describe(exc)}); '
                        "the rest of the output is not streamed",
                        file=sys.stderr,
                    )

    def close(self) -> None:
        with self._lock:
            self._open = False


@frozen(kw_only=True)
class PendingCall:
    """One tool call, prepared and not yet run: what it will do and whether a person must agree.

    Build it with :meth:`ToolHost.prepare`. Exactly one of two things holds:

    * :attr:`result` is set: the call will not run (unknown tool, invalid arguments, a template
      that refuses the values, a policy that denies). It is the error the model should get;
      :meth:`run` returns it.
    * :attr:`call` is set: the call is ready. When :attr:`needs_approval` is true a person must
      say yes first (:attr:`reason` says why, :attr:`preview` is what to show them);
      ``run(approved=True)`` then runs exactly :attr:`call`.

    A pending call runs once.
    """

    #: The tool name the model asked for.
    name: str
    #: The tool, when one of that name is loaded.
    spec: ToolSpec | None
    #: What will run: validated arguments with defaults applied, and the rendered script.
    call: ToolCall | None
    #: The result the model gets without anything running, or ``None`` when the call can run.
    result: ToolResult | None
    #: A person must approve before it runs (the policy said *ask*).
    needs_approval: bool = False
    #: The policy's reason: why it asks, why it allows, or why it refused.
    reason: str = ""
    _host: ToolHost = field(alias="host", repr=False, eq=False)
    _started: float = field(alias="started", factory=time.monotonic, repr=False, eq=False)
    #: The tool file's digest when the call was prepared (see :func:`file_digest`).
    _digest: str = field(alias="digest", default="", repr=False, eq=False)
    #: The call as far as it got, for ``tooldrop_after_call`` when it does not run.
    _seen: ToolCall | None = field(alias="seen", default=None, repr=False, eq=False)
    _once: _Once = field(factory=_Once, init=False, repr=False, eq=False)

    # -- what a person sees ---------------------------------------------------------------

    @property
    def args(self) -> Mapping[str, Any]:
        """The arguments the call runs with (defaults applied); empty when it will not run."""
        return {} if self.call is None else self.call.args

    @property
    def script(self) -> str | None:
        """The exact script that will run, for tools that are rendered (``None`` otherwise)."""
        return None if self.call is None else self.call.script

    @property
    def preview(self) -> str:
        """What a person needs to decide: the tool, where it is from, its arguments, its script."""
        if self.call is None:
            return self.result.text if self.result is not None else ""
        return describe_call(self.call)

    @property
    def fingerprint(self) -> str:
        """A digest of what was shown (tool, its file's content hash, arguments, script).

        Keep it with an approval that outlives this object (a graph checkpoint, a form
        round-trip): a call prepared again later has the same fingerprint only if it would
        run the same thing.
        """
        spec = self.spec
        shown = [
            self.name,
            "" if spec is None else spec.origin.content_hash,
            dict(self.args),
            self.script,
        ]
        blob = json.dumps(shown, sort_keys=True, ensure_ascii=False, default=str)
        return "tooldrop-call:" + hashlib.sha256(blob.encode()).hexdigest()

    # -- running --------------------------------------------------------------------------

    def run(
        self,
        approved: bool | None = None,
        *,
        remember: bool = False,
        on_output: OutputCallback | None = None,
    ) -> ToolResult:
        """Run the call as prepared, or return why it does not run. Never raises for the model.

        :param approved: A person's answer. ``True`` runs a call that needs approval; ``False``
            denies any call; ``None`` (nobody asked) runs only calls that need no approval.
        :param remember: With ``approved=True``: remember "always allow" for this version of
            the tool (ignored for tools that ask on every call).
        :param on_output: Called as ``on_output(text, stream)`` with the tool's output as it
            comes, decoded, ``stream`` being ``"stdout"`` or ``"stderr"``: for a person
            watching. It is called from the call's threads (the one running it, for shell
            tools on POSIX; a worker thread for :meth:`arun`, never the event loop), one chunk
            at a time, and never after ``run`` has returned; keep it quick, as the tool's
            pipes are read between chunks. Backends that cannot stream
            (Python tools) never call it. If it raises, it is not called again and the call
            goes on. The result is the same with or without it.
        :raises RuntimeError: when the call already ran: prepare it again.
        """
        if approved is None:
            decision = None
        elif approved:
            decision = Decision.allow("approved", remember=remember)
        else:
            decision = Decision.deny("the user declined")
        return self._settle(decision, on_output)

    async def arun(
        self,
        approved: bool | None = None,
        *,
        remember: bool = False,
        on_output: OutputCallback | None = None,
    ) -> ToolResult:
        """:meth:`run`, awaitable; cancelling the awaiting task cancels the call.

        ``on_output`` is called from a worker thread, not the event loop: hand the text to
        the loop with ``loop.call_soon_threadsafe``.
        """
        import asyncio

        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(
            self._host._pool(),
            lambda: self.run(approved, remember=remember, on_output=on_output),
        )
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            if self.call is not None:
                self.call.cancel.cancel()
                # Give the backend the moment it needs to kill the process tree, then go.
                await asyncio.wait([future], timeout=10)
            raise

    def _settle(
        self, answer: Decision | None, on_output: OutputCallback | None = None
    ) -> ToolResult:
        """Run (or refuse) with a person's answer; ``None``: nobody was asked."""
        if not self._once.claim():
            raise RuntimeError(f'this pending call of "{self.name}" already ran; prepare it again')
        host = self._host
        if self.result is not None or self.call is None:
            result = self.result or ToolResult.error("Nothing to run")
            return self._finish(result, self._seen)
        call = self.call
        if answer is None and self.needs_approval:
            hint = self.reason or (
                "approve it interactively, run in a mode that allows it, or add it to alwaysAllow"
            )
            answer = Decision.deny(
                f'"{call.name}" needs approval and there is no one to ask (mode: {host.mode}): '
                f"{hint}"
            )
        if answer is not None and not answer.allowed:
            denied = ToolResult.error(f"Tool call denied: {answer.reason}", denied=True)
            return self._finish(denied, call)
        if answer is not None and answer.remember and not call.spec.requires_approval:
            host.grants.remember(call.spec)
        if call.cancel.cancelled:
            return self._finish(ToolResult.error("Tool call cancelled"), call)
        changed = _changed_since(host, call.spec, self._digest)
        if changed:
            return self._finish(ToolResult.error(changed), call)
        if on_output is None:
            return self._finish(_execute(host, call), call)
        listener = _Listener(on_output, call.name)
        call = evolve(call, on_output=listener)
        try:
            result = _execute(host, call)
        finally:
            listener.close()  # a backend's stray thread can print no more
        return self._finish(result, call)

    def _finish(self, result: ToolResult, call: ToolCall | None) -> ToolResult:
        host = self._host
        text, cut = truncate(result.text, host.output_limit)
        result = evolve(
            result,
            text=text,
            truncated=result.truncated or cut,
            duration=time.monotonic() - self._started,
        )
        if call is not None:
            _after_call(host, call, result)
        return result


def file_digest(spec: ToolSpec | None) -> str:
    """The sha256 of a tool file's bytes now; ``""`` for tools without a file of their own."""
    if spec is None or spec.origin.scope == "plugin" or spec.origin.path is None:
        return ""
    try:
        with spec.origin.path.open("rb") as file:
            return hashlib.file_digest(file, "sha256").hexdigest()
    except OSError as exc:
        return f"unreadable: {exc.strerror}"


def _changed_since(host: ToolHost, spec: ToolSpec, digest: str) -> str:
    """Why the tool is no longer what was prepared (its file or the loaded tool), or ``""``."""
    message = (
        f'Tool "{spec.name}" changed after the call was prepared ({{}}); nothing ran. '
        "Prepare the call again to see what would run now."
    )
    current = host.get(spec.name)
    if current is None or current.origin.content_hash != spec.origin.content_hash:
        return message.format("it was reloaded")
    now = file_digest(spec)
    if now != digest:
        return message.format(f"{spec.origin.path} was edited")
    return ""


def _execute(host: ToolHost, call: ToolCall) -> ToolResult:
    try:
        with running(call.cancel):  # a SIGTERM to the process cancels it (tooldrop.host._lifetime)
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


def _after_call(host: ToolHost, call: ToolCall, result: ToolResult) -> None:
    """Tell every observer, each on its own: one failing observer does not silence the rest."""

    def report(plugin: str, exc: BaseException) -> None:
        # Observers cannot change or break a call: a failure is said on stderr, and that is all.
        print(
            f"tooldrop: tooldrop_after_call of {plugin} failed: {_describe(exc)}", file=sys.stderr
        )

    call_isolated(host.hook.tooldrop_after_call, report, call=call, result=result, host=host)
