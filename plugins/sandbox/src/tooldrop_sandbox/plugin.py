"""The ``sandbox`` plugin (entry point ``sandbox``): confines the processes shell tools start.

It implements three hooks, nothing else:

- ``tooldrop_confinement``: what a shell tool would be allowed (``tooldrop show``, the approval
  prompt, and the approval policy's opt-in for untrusted read-only tools ask it);
- ``tooldrop_wrap_command`` (``trylast``, so it wraps whatever other plugins did): the shell
  backend's ``[shell, -c, script]`` becomes ``bwrap … -- shell -c script``;
- ``tooldrop_approve`` (``tryfirst``): with ``sandbox: required``, tools of other runners
  (Python tools run inside the host's process) cannot be confined, so they are denied.

The setting is ``host.sandbox``: ``off`` does nothing; ``auto`` confines when bwrap works and
says once on stderr when it does not; ``required`` refuses a call it cannot confine.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import TYPE_CHECKING

from attrs import evolve

from tooldrop import (
    Command,
    Confinement,
    Decision,
    SandboxError,
    ToolCall,
    ToolHost,
    ToolSpec,
    hookimpl,
)

if TYPE_CHECKING:
    from ._bwrap import Probe

# The sandbox's machinery (probing bwrap, policies, argv, the seccomp filter) is imported by
# the hook that first needs it: every start-up registers this plugin, and most only list
# tools, which asks none of these hooks.

__all__ = ["probe", "tooldrop_approve", "tooldrop_confinement", "tooldrop_wrap_command"]

REQUIRED = (
    "⚒ Refused to run {name}: the sandbox is required (sandbox: required) but cannot confine "
    "it here: {problem}. Nothing ran. The user can install bubblewrap, or set sandbox: auto "
    "to let tools run unconfined where it is missing."
)
NOT_SHELL = (
    "the sandbox is required (sandbox: required) and only shell tools can be confined; "
    "{runner} tools run inside the host's own process"
)
_UNUSABLE = (
    "tooldrop: sandbox: auto, but shell tools cannot be confined here ({problem}); they run "
    "with your full rights. Install bubblewrap (apt-get install bubblewrap), or set "
    "sandbox: off to silence this notice, or sandbox: required to refuse instead.\n"
)

_said = threading.Event()


def probe(project: str | None = None) -> Probe:
    """The sandbox this system has: bubblewrap on Linux, ``sandbox-exec`` on macOS (untested).

    :param project: A directory the sandbox program must not come from (see
        :func:`tooldrop_sandbox.probe_bwrap`).
    """
    from ._bwrap import Probe, probe_bwrap

    system = sys.platform  # a variable: type checkers would call the other branches dead
    if system == "darwin":  # pragma: no cover - a sketch; see _seatbelt
        from ._seatbelt import probe_seatbelt

        return probe_seatbelt()
    if system.startswith("linux"):
        return probe_bwrap(project)
    return Probe(None, f"tooldrop-sandbox has no sandbox for {system}")


def _say_once(problem: str) -> None:
    if not _said.is_set():
        _said.set()
        sys.stderr.write(_UNUSABLE.format(problem=problem))


def _for_host(host: ToolHost) -> Probe:
    return probe(str(host.project_dir))


def _working(host: ToolHost) -> Probe | None:
    """The sandbox to use, or ``None`` (setting ``off``, or none works: said once in auto)."""
    if host.sandbox == "off":
        return None
    found = _for_host(host)
    if found.path is None:
        if host.sandbox == "auto":
            _say_once(found.problem)
        return None
    return found


def _by(found: Probe) -> str:
    return "sandbox-exec" if found.path and found.path.endswith("sandbox-exec") else "bwrap"


@hookimpl
def tooldrop_confinement(spec: ToolSpec, host: ToolHost) -> Confinement | None:
    if spec.runner != "shell" or (found := _working(host)) is None:
        return None
    from ._policy import policy_for

    try:
        return policy_for(spec, host).confinement(_by(found))
    except SandboxError:  # a writable path outside the project: the call will be refused
        return None


@hookimpl(trylast=True)
def tooldrop_wrap_command(call: ToolCall, command: Command, host: ToolHost) -> Command | None:
    if host.sandbox == "off" or command.confinement is not None:
        return None
    found = _for_host(host)
    if found.path is None:
        if host.sandbox == "required":
            raise SandboxError(REQUIRED.format(name=call.spec.name, problem=found.problem))
        _say_once(found.problem)
        return None
    from ._bwrap import bwrap_argv, create_protected
    from ._explain import explainer
    from ._policy import policy_for

    policy = policy_for(call.spec, host, command.cwd)
    by = _by(found)
    fds: tuple[int, ...] = ()
    if by == "sandbox-exec":  # pragma: no cover - a sketch; see _seatbelt
        from ._seatbelt import seatbelt_argv

        argv = seatbelt_argv(found.path, policy, command.argv)
    else:
        create_protected(policy)
        fd = None if policy.network else _filter_fd()
        if fd is not None:
            fds = (fd,)
        argv = bwrap_argv(
            found.path,
            policy,
            command.argv,
            seccomp_fd=fd,
            disable_userns=found.disable_userns,
        )
    return evolve(
        command,
        argv=argv,
        cwd=policy.cwd,
        pass_fds=(*command.pass_fds, *fds),
        confinement=policy.confinement(by),
        explain=explainer(call.spec, host.project_dir),
    )


def _filter_fd() -> int | None:
    """A fresh pipe holding the seccomp filter, for bwrap to read; ``None`` on other CPUs.

    A pipe per call: bwrap reads the descriptor to its end, so one shared file would be
    empty for every call after the first. The filter (88 bytes) fits the pipe's buffer.
    """
    from ._seccomp import unix_socket_filter

    program = unix_socket_filter()
    if program is None:
        return None
    read, write = os.pipe()
    try:
        os.write(write, program)
    finally:
        os.close(write)
    return read


@hookimpl(tryfirst=True)
def tooldrop_approve(call: ToolCall, host: ToolHost) -> Decision | None:
    if host.sandbox == "required" and call.spec.runner != "shell":
        return Decision.deny(NOT_SHELL.format(runner=call.spec.runner))
    return None
