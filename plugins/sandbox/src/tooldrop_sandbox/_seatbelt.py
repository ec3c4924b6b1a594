"""macOS: a sketch of the same confinement with ``sandbox-exec`` (Seatbelt). UNTESTED.

Nobody has run this on a Mac: tooldrop's CI is Linux only. It is here so the interface
(:func:`seatbelt_argv`, :func:`probe_seatbelt`) is the same on both systems, and it is only
used on macOS. Known gaps against the Linux sandbox: no PID namespace, so a process that
detaches (``setsid``, double fork) can outlive the call; no private ``/tmp`` (writes to the
shared temporary directories are allowed); ``sandbox-exec`` itself is deprecated by Apple.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence

from ._bwrap import Probe
from ._policy import Policy

__all__ = ["SANDBOX_EXEC", "probe_seatbelt", "seatbelt_argv", "seatbelt_profile"]

SANDBOX_EXEC = "/usr/bin/sandbox-exec"


def _quote(path: str) -> str:
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def seatbelt_profile(policy: Policy) -> str:
    """An SBPL profile: reads anywhere, writes only where ``policy`` allows (later rules win)."""
    rules = ["(version 1)", "(allow default)", "(deny file-write*)"]
    temporary = ["/private/tmp", "/private/var/folders", "/dev"]
    rules += [f"(allow file-write* (subpath {_quote(p)}))" for p in [*temporary, *policy.writable]]
    rules += [f"(deny file-write* (subpath {_quote(p)}))" for p in policy.protected]
    if not policy.network:
        rules.append("(deny network*)")
    return "\n".join(rules)


def probe_seatbelt() -> Probe:
    path = shutil.which(SANDBOX_EXEC)
    if path is None:
        return Probe(None, "sandbox-exec is not available")
    return Probe(path, "")


def seatbelt_argv(sandbox_exec: str, policy: Policy, argv: Sequence[str]) -> list[str]:
    return [sandbox_exec, "-p", seatbelt_profile(policy), *argv]
