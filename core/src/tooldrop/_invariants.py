"""The approval guarantees the core enforces, whatever the policy plugins return.

A policy plugin decides the ordinary cases (the approval × mode table, an allow-list, a
Friday freeze), but two promises cannot rest on a plugin's courtesy: any third-party
``tooldrop_approve`` marked ``tryfirst=True`` runs before the default policy and could switch
them off. So after the ``tooldrop_approve`` hook has decided, the pipeline passes the decision
through :func:`enforce`:

1. A tool with ``requires_approval`` runs only after a person says yes, on every call.
2. A project tool of a project that is not trusted (``tooldrop trust``) runs only after a
   person says yes, in every mode, whatever ``alwaysAllow`` or a remembered grant says.

For those calls an ``allow`` becomes an ``ask``; a ``deny`` stays a deny and an ``ask`` an ask.
Every other decision is the policy's to make.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._model import Decision, ToolCall

if TYPE_CHECKING:
    from ._host import ToolHost

__all__ = ["REQUIRES_APPROVAL", "UNTRUSTED", "enforce"]

UNTRUSTED = (
    "this project's tools are not trusted yet, so each call asks first "
    "(run `tooldrop trust` once you have read them)"
)
REQUIRES_APPROVAL = "this tool asks for approval on every call, in every mode"


def enforce(host: ToolHost, call: ToolCall, decision: Decision) -> Decision:
    """``decision``, or an ``ask`` where a guarantee of the core needs a person's yes."""
    if decision.outcome != "allow":
        return decision
    spec = call.spec
    if spec.requires_approval:
        return Decision.ask(REQUIRES_APPROVAL)
    if not host.is_trusted(spec):
        return Decision.ask(UNTRUSTED)
    return decision
