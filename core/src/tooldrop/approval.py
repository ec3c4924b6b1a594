"""The default approval policy, a plugin like any other (entry point ``approval``).

It implements the approval × mode table (DESIGN §7.1)::

    approval     normal  auto-accept/architect  yolo  plan               headless
    never        run     run                    run   run if read_only   run
    destructive  ask     run                    run   hidden             hidden
    always       ask     ask                    run   hidden             hidden

and on top of it, first rule that applies wins:

1. ``requires_approval`` asks on every call, in every mode, and is never remembered
   (hidden in ``plan`` and ``headless``, where nobody could answer).
2. A project tool while the project is not trusted (``tooldrop trust``) asks on every call,
   in every mode, yolo included; neither ``always_allow`` nor a remembered grant applies to it.
   It is hidden in ``plan`` and ``headless``. The one exception is the user's personal
   opt-in ``sandboxUntrustedReadOnly``: then a read-only ``approval: never`` tool that a
   sandbox confines runs, confined, without asking, and is offered in ``plan`` and
   ``headless`` (:func:`runs_confined_instead`).
3. ``always_allow`` names skip the prompt wherever the tool is available.
4. The table above; where it says *ask*, a remembered "always allow" grant for this tool, in
   this place (the project, or the personal dir), skips the prompt while the tool's content is
   unchanged.

Rules 1 and 2 are also guarantees of the core (``tooldrop.policy._invariants``): whatever any policy
plugin returns, an ``allow`` for such a call becomes an ``ask``. Everything else is policy.

Override it with your own ``tooldrop_approve`` / ``tooldrop_available`` marked
``tryfirst=True``; return ``None`` from yours to fall through to this policy. It is an
essential plugin: always registered, whatever ``TOOLDROP_PLUGINS`` selects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._model import Approval, Decision, ToolCall, ToolSpec
from .hookspecs import hookimpl
from .policy._invariants import CONFINED, REQUIRES_APPROVAL, UNTRUSTED, runs_confined_instead

if TYPE_CHECKING:
    from .host._host import ToolHost

__all__ = [
    "effective_approval",
    "runs_confined_instead",
    "tooldrop_approve",
    "tooldrop_available",
    "untrusted",
]

_AUTO_ACCEPT = frozenset({"auto-accept", "architect"})


def untrusted(spec: ToolSpec, host: ToolHost) -> bool:
    """A project tool of a project whose tools, as they are now, were not trusted."""
    return not host.is_trusted(spec)


def effective_approval(spec: ToolSpec, host: ToolHost) -> Approval:
    """The policy the host applies: ``always`` for tools that must ask, else the tool's own."""
    if spec.requires_approval:
        return "always"
    if untrusted(spec, host):
        return "never" if runs_confined_instead(spec, host) else "always"
    return spec.approval


@hookimpl
def tooldrop_available(spec: ToolSpec, host: ToolHost) -> bool:
    if host.mode not in ("plan", "headless"):
        return True
    approval = effective_approval(spec, host)
    if host.mode == "plan":
        return approval == "never" and spec.read_only
    return approval == "never"


@hookimpl
def tooldrop_approve(call: ToolCall, host: ToolHost) -> Decision:
    spec = call.spec
    if spec.requires_approval:
        return Decision.ask(REQUIRES_APPROVAL)
    if untrusted(spec, host):
        return (
            Decision.allow(CONFINED)
            if runs_confined_instead(spec, host)
            else Decision.ask(UNTRUSTED)
        )
    if spec.name in host.always_allow:
        return Decision.allow("in alwaysAllow")
    if host.mode == "yolo":
        return Decision.allow("yolo mode")
    if spec.approval == "never":
        return Decision.allow("approval: never")
    if spec.approval == "destructive" and host.mode in _AUTO_ACCEPT:
        return Decision.allow(f"approval: destructive, {host.mode} mode")
    # Only now read the grants file: the common calls above need no I/O.
    if host.grants.is_granted(spec):
        return Decision.allow("always allowed earlier (this version of the tool)")
    if spec.approval == "destructive":
        return Decision.ask(
            "its approval is destructive: approve it at a prompt, run in auto-accept mode, "
            "or add it to alwaysAllow"
        )
    return Decision.ask(
        "its approval is always: approve it at a prompt, run in yolo mode, or add it to alwaysAllow"
    )
