"""The default approval policy, a plugin like any other (entry point ``approval``).

It implements the approval × mode table (DESIGN §7.1)::

    approval     normal  auto-accept/architect  yolo  plan               headless
    never        run     run                    run   run if read_only   run
    destructive  ask     run                    run   hidden             hidden
    always       ask     ask                    run   hidden             hidden

plus ``always_allow`` (skips the prompt wherever the tool is available), remembered grants
(an "always allow" answer, valid while the tool's content hash is unchanged), and
``requires_approval`` (asks every time, in every mode, and is never remembered).

Override it with your own ``tooldrop_approve`` / ``tooldrop_available`` marked
``tryfirst=True``; return ``None`` to fall through to this policy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._model import Decision, ToolCall, ToolSpec
from .hookspecs import hookimpl

if TYPE_CHECKING:
    from ._host import ToolHost

__all__ = ["effective_approval", "tooldrop_approve", "tooldrop_available"]

_AUTO_ACCEPT = frozenset({"auto-accept", "architect"})


def effective_approval(spec: ToolSpec, host: ToolHost) -> str:
    """The tool's approval policy as the host applies it (``requires_approval`` is ``always``)."""
    if spec.requires_approval:
        return "always"
    return spec.approval


@hookimpl
def tooldrop_available(spec: ToolSpec, host: ToolHost) -> bool:
    approval = effective_approval(spec, host)
    if host.mode == "plan":
        return approval == "never" and spec.read_only
    if host.mode == "headless":
        return approval == "never"
    return True


@hookimpl
def tooldrop_approve(call: ToolCall, host: ToolHost) -> Decision:
    spec = call.spec
    if spec.requires_approval:
        return Decision.ask("this tool asks for approval on every call")
    if spec.name in host.always_allow:
        return Decision.allow("in alwaysAllow")
    if host.grants.is_granted(spec):
        return Decision.allow("always allowed earlier (this version of the tool)")
    approval = effective_approval(spec, host)
    if host.mode == "yolo":
        return Decision.allow("yolo mode")
    if approval == "never":
        return Decision.allow("approval: never")
    if approval == "destructive" and host.mode in _AUTO_ACCEPT:
        return Decision.allow(f"approval: destructive, {host.mode} mode")
    return Decision.ask(f"approval: {approval}")
