"""The approval guarantees the core enforces, whatever the policy plugins return.

A policy plugin decides the ordinary cases (the approval × mode table, an allow-list, a
Friday freeze), but two promises cannot rest on a plugin's courtesy: any third-party
``tooldrop_approve`` marked ``tryfirst=True`` runs before the default policy and could switch
them off. So after the ``tooldrop_approve`` hook has decided, the pipeline passes the decision
through :func:`enforce`:

1. A tool with ``requires_approval`` runs only after a person says yes, on every call.
2. A project tool of a project that is not trusted (``tooldrop trust``) runs only after a
   person says yes, in every mode, whatever ``alwaysAllow`` or a remembered grant says;
   except, when the user opted in personally (``sandboxUntrustedReadOnly``), a read-only tool
   a sandbox confines (:func:`runs_confined_instead`), and then
   :func:`tooldrop.wrap_command` refuses to start it unless it is confined.

For those calls an ``allow`` becomes an ``ask``; a ``deny`` stays a deny and an ``ask`` an ask.
Every other decision is the policy's to make.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._model import Decision, ToolCall, ToolSpec

if TYPE_CHECKING:
    from ..host._host import ToolHost

__all__ = ["CONFINED", "REQUIRES_APPROVAL", "UNTRUSTED", "enforce", "runs_confined_instead"]

UNTRUSTED = (
    "this project's tools are not trusted yet, so each call asks first "
    "(run `tooldrop trust` once you have read them)"
)
REQUIRES_APPROVAL = "this tool asks for approval on every call, in every mode"
CONFINED = "not trusted, but read-only and confined by the sandbox (sandboxUntrustedReadOnly)"


def runs_confined_instead(spec: ToolSpec, host: ToolHost) -> bool:
    """Whether an untrusted project's tool runs confined instead of asking.

    Only when the user opted in personally (``ToolHost(sandbox_untrusted_read_only=True)``,
    ``sandboxUntrustedReadOnly`` in the personal config, never the project's), for a
    read-only ``approval: never`` tool that asks for neither the network nor writable paths,
    and while a sandbox says it would confine it that way (``tooldrop_confinement``).
    """
    if not (host.sandbox_untrusted_read_only and spec.read_only and spec.approval == "never"):
        return False
    if spec.network or spec.writable or spec.requires_approval:
        return False
    confinement = host.confinement(spec)
    return confinement is not None and not confinement.writable and not confinement.network


def enforce(host: ToolHost, call: ToolCall, decision: Decision) -> Decision:
    """``decision``, or an ``ask`` where a guarantee of the core needs a person's yes."""
    if decision.outcome != "allow":
        return decision
    spec = call.spec
    if spec.requires_approval:
        return Decision.ask(REQUIRES_APPROVAL)
    if not host.is_trusted(spec) and not runs_confined_instead(spec, host):
        return Decision.ask(UNTRUSTED)
    return decision
