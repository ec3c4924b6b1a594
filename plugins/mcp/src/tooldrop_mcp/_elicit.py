"""Approval over MCP: ask the person behind the client through elicitation.

Used only when the client declared the elicitation capability (form mode); otherwise calls
that need approval get the host's ``tooldrop_ask`` hook, and with no answer they are denied with
a reason the model can read. The prompt shows what will actually run: the tool, where it
comes from, its arguments and the rendered script.

Two wires, one prompt:

* handshake-era clients (2025 protocol versions) get an ``elicitation/create`` request while
  the ``tools/call`` waits (:func:`elicitation_ask`);
* 2026-era clients cannot be sent requests: the call returns an ``InputRequiredResult``
  carrying the same prompt, and the client retries the call with the answer
  (:class:`InputRound`). The ``request_state`` binds the answer to a fingerprint of what was
  shown, so an answer is never applied to a different script.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import mcp_types as types
from mcp.server.session import ServerSession

from tooldrop import Decision, ToolCall, ToolHost, describe_call

__all__ = [
    "ALLOW",
    "ALWAYS",
    "DENY",
    "InputRound",
    "client_can_elicit",
    "elicitation_ask",
    "prompt_message",
]

ALLOW, ALWAYS, DENY = "allow", "always", "deny"
#: How long a prompt may stay unanswered before the call is denied.
ASK_TIMEOUT = 600.0


def client_can_elicit(capabilities: types.ClientCapabilities | None) -> bool:
    """Whether the client takes form-mode elicitation requests.

    A bare ``"elicitation": {}`` (the 2025-06-18 form) means form mode.
    """
    elicitation = None if capabilities is None else capabilities.elicitation
    if elicitation is None:
        return False
    return elicitation.form is not None or elicitation.url is None


def _allowed(call: ToolCall, host: ToolHost) -> str:
    confinement = host.confinement(call.spec)
    if confinement is not None:
        return confinement.describe(host.project_dir)
    return "not confined: it runs with the user's full rights"


def prompt_message(call: ToolCall, host: ToolHost | None = None) -> str:
    """The text of the approval prompt: what runs, from where, with which arguments, and
    (given the host) what a sandbox allows it."""
    return describe_call(call, allowed=None if host is None else _allowed(call, host))


def _requested_schema(call: ToolCall, offer_always: bool = True) -> dict[str, Any]:
    values, names = [ALLOW, DENY], ["Allow once", "Deny"]
    if offer_always and not call.spec.requires_approval:
        values.insert(1, ALWAYS)
        names.insert(1, "Always allow this version of the tool")
    # enum + enumNames is the form every elicitation-capable client understands
    # (2025-06-18 and 2025-11-25); a single required choice, no free text.
    return {
        "type": "object",
        "properties": {
            "decision": {
                "type": "string",
                "title": "Decision",
                "enum": values,
                "enumNames": names,
                "default": DENY,
            }
        },
        "required": ["decision"],
    }


def _decision(result: types.ElicitResult, offer_always: bool = True) -> Decision:
    if result.action == "decline":
        return Decision.deny("the user declined")
    if result.action == "cancel":
        return Decision.deny("the user dismissed the approval prompt")
    choice = (result.content or {}).get("decision")
    if choice == ALLOW:
        return Decision.allow("approved through the MCP client")
    if choice == ALWAYS and offer_always:
        return Decision.allow("always allowed through the MCP client", remember=True)
    if choice == DENY:
        return Decision.deny("the user declined")
    return Decision.deny(f"the approval prompt answered {choice!r}, not a decision")


def elicitation_ask(
    session: ServerSession,
    request_id: types.RequestId | None,
    timeout: float = ASK_TIMEOUT,
    host: ToolHost | None = None,
    *,
    offer_always: bool = True,
) -> Callable[[ToolCall], Awaitable[Decision]]:
    """An ``ask`` callback for :meth:`ToolHost.acall` that prompts through the client.

    The prompt is tied to the ``tools/call`` request it is for. It gives up (deny) when the
    call is cancelled or nobody answers within ``timeout`` seconds. Without ``offer_always``
    the prompt has no "always allow" choice and such an answer denies: a remote client
    must not leave a grant behind on the server.
    """

    async def ask(call: ToolCall) -> Decision:
        answer: Decision | None = None

        async def prompt() -> None:
            nonlocal answer
            try:
                result = await session.elicit_form(
                    prompt_message(call, host),
                    _requested_schema(call, offer_always),
                    related_request_id=request_id,
                )
            except Exception as exc:  # noqa: BLE001 - any failure to ask is a readable deny.
                answer = Decision.deny(f"the MCP client could not show the approval prompt ({exc})")
            else:
                answer = _decision(result, offer_always)
            scope.cancel()

        async def cancelled() -> None:
            await call.cancel.wait_async()
            scope.cancel()

        with anyio.move_on_after(timeout) as scope:
            async with anyio.create_task_group() as group:
                group.start_soon(prompt)
                group.start_soon(cancelled)
        if answer is not None:
            return answer
        if call.cancel.cancelled:
            return Decision.deny("the call was cancelled while waiting for approval")
        return Decision.deny(f"no answer to the approval prompt within {timeout:g} seconds")

    return ask


def _fingerprint(call: ToolCall) -> str:
    shown = [call.spec.name, call.spec.origin.content_hash, dict(call.args), call.script]
    blob = json.dumps(shown, sort_keys=True, ensure_ascii=False, default=str)
    return "tooldrop-approval:" + hashlib.sha256(blob.encode()).hexdigest()


class InputRound:
    """One round of the 2026 multi-round-trip flow for one ``tools/call``.

    Pass it as the ``ask`` callback. When the request carries an answer to our prompt for
    exactly this call, the answer decides. Otherwise the call is held back (denied, nothing
    runs) and :attr:`needed` holds the ``InputRequiredResult`` to return instead; the client
    asks the person and retries.
    """

    KEY = "tooldrop/approval"

    def __init__(
        self,
        params: types.CallToolRequestParams,
        host: ToolHost | None = None,
        *,
        offer_always: bool = True,
    ) -> None:
        self.host = host
        self.offer_always = offer_always
        self.answer = (params.input_responses or {}).get(self.KEY)
        self.state = params.request_state
        self.needed: types.InputRequiredResult | None = None

    def __call__(self, call: ToolCall) -> Decision:
        fingerprint = _fingerprint(call)
        if isinstance(self.answer, types.ElicitResult) and self.state == fingerprint:
            return _decision(self.answer, self.offer_always)
        form = types.ElicitRequestFormParams(
            message=prompt_message(call, self.host),
            requested_schema=_requested_schema(call, self.offer_always),
        )
        self.needed = types.InputRequiredResult(
            input_requests={self.KEY: types.ElicitRequest(params=form)}, request_state=fingerprint
        )
        return Decision.deny("waiting for the approval prompt's answer")
