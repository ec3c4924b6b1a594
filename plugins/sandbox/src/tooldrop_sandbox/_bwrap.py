"""Linux: confine a command with bubblewrap (``bwrap``), and find out whether it works here.

The mount layout, in the order bwrap applies it (a later mount covers an earlier one)::

    --ro-bind / /            the whole filesystem, read-only (submounts too)
    --dev /dev, --proc /proc a minimal /dev; a /proc of the new PID namespace
    --tmpfs /tmp             a private, empty /tmp
    --ro-bind P P            the project and cwd again when they live under /tmp
    --bind-try W W           each writable path (one that does not exist is left out)
    --bind A A               the directories above a protected path inside a writable one
    --ro-bind C C            the protected paths inside a writable one (config, cache)

plus ``--unshare-user --cap-drop ALL`` (and ``--disable-userns`` where bwrap has it): without a
user namespace of its own, a tool run by root would keep root's capabilities inside and could
simply remount ``/`` read-write; in one, with no capabilities, the read-only mounts are locked.
``--unshare-pid`` (with ``--die-with-parent``: when the shell exits, or the backend kills
bwrap, the kernel kills every process left in the namespace, ``setsid`` and double forks
included), ``--unshare-ipc``, ``--unshare-uts`` and, unless the tool asks for the network,
``--unshare-net`` (only a loopback nobody listens on) with a seccomp filter against UNIX
sockets (:mod:`tooldrop_sandbox._seccomp`). No ``--new-session``: the backend
already starts bwrap in its own session without a terminal, and staying in that process
group lets its SIGTERM reach the tool first.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path

from attrs import frozen

from ._policy import Policy, inside

__all__ = ["BWRAP", "Probe", "bwrap_argv", "create_protected", "probe_bwrap"]

BWRAP = "bwrap"
_TMP = "/tmp"  # noqa: S108 - the path the sandbox replaces, not a file we create
#: Seconds the one-off check may take (a cold start of bwrap is ~20 ms).
_PROBE_TIMEOUT = 10.0


@frozen
class Probe:
    """Whether bwrap can confine tools here: its path, or why not."""

    path: str | None
    #: ``""`` when it works, else a short reason for people and models.
    problem: str
    #: This bwrap has ``--disable-userns`` (0.8 and later).
    disable_userns: bool = False


_lock = threading.Lock()
_probes: dict[str | None, Probe] = {}
_found: dict[str | None, Probe] = {}


def _try(argv: list[str]) -> str:
    """Run a bwrap command line once; ``""`` when it worked, else why not."""
    try:
        done = subprocess.run(
            [*argv, "--", "true"],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=_PROBE_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"it could not be started ({exc})"
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        return said[-1] if said else f"exit status {done.returncode}"
    return ""


def _run_probe(path: str | None) -> Probe:
    if path is None:
        return Probe(None, "bwrap (bubblewrap) is not installed or not on PATH")
    argv = [path, "--unshare-user", "--cap-drop", "ALL", "--ro-bind", "/", "/"]
    argv += ["--unshare-pid", "--unshare-net", "--die-with-parent"]
    if not _try([*argv, "--disable-userns"]):
        return Probe(path, "", disable_userns=True)
    why = _try(argv)  # an older bwrap, without --disable-userns
    if why:
        return Probe(None, f"{path} does not work here: {why} (user namespaces disabled?)")
    return Probe(path, "")


def probe_bwrap(untrusted: str | None = None) -> Probe:
    """Find ``bwrap`` on ``PATH`` and run it once; remembered per path found.

    A failing check is not retried in this process, but ``PATH`` is searched again on each
    call until bwrap is found (installing bubblewrap while a host runs is noticed); once it
    works, the answer is remembered for that ``PATH`` (a call should not pay for the search).

    :param untrusted: A directory (the project) a ``bwrap`` must not come from: a project, or
        a tool that wrote there, could ship one that confines nothing, and a ``PATH`` holding
        ``./bin`` or ``node_modules/.bin`` would find it first. Such a one is refused before it
        is ever run.
    """
    search = os.environ.get("PATH")
    found = _found.get(search)
    if found is None:
        path = shutil.which(BWRAP)
        real = None if path is None else os.path.realpath(path)
        if real is not None and untrusted is not None and inside(real, untrusted):
            return Probe(None, f"{path} is inside the project, so it is not trusted")
        probe = _probes.get(real)
        if probe is None:
            with _lock:
                probe = _probes.get(real)
                if probe is None:
                    probe = _probes[real] = _run_probe(real)
        if probe.path is None:
            return probe
        found = _found[search] = probe
    if untrusted is not None and found.path is not None and inside(found.path, untrusted):
        return Probe(None, f"{found.path} is inside the project, so it is not trusted")
    return found


def _shield(policy: Policy) -> list[str]:
    """Mounts that keep the protected paths inside a writable one read-only *and in place*.

    A read-only bind alone is not enough: the tool could rename a directory above it (the
    mount moves along) and create a new config dir, with its own trust and grants files, where
    the old one was. A mount point cannot be renamed or removed, so every directory between
    the writable root and the protected path is bound onto itself (still writable) first,
    outermost first, and the protected paths are bound read-only after all of them (a later
    bind of an ancestor would cover them). One that does not exist is an empty read-only
    directory (:func:`create_protected` creates them on the host first, so this is rare).
    """
    ancestors: list[str] = []
    shielded: list[str] = []
    for path in policy.protected:
        # The outermost writable path holding it: everything below that could be renamed.
        root = min((w for w in policy.writable if inside(path, w)), key=len, default=None)
        if root is None:
            continue  # read-only already (or hidden under the private /tmp)
        parent = Path(path).parent
        while str(parent) != root and inside(str(parent), root):
            ancestors.append(str(parent))
            parent = parent.parent
        shielded.append(path)
    out: list[str] = []
    # Sorted as text, a directory comes before everything below it (its path is their prefix).
    for path in sorted(set(ancestors)):
        out += ["--bind", path, path]
    for path in sorted(set(shielded)):
        if Path(path).exists():
            out += ["--ro-bind", path, path]
        else:
            out += ["--tmpfs", path, "--remount-ro", path]
    return out


def create_protected(policy: Policy) -> None:
    """Create the protected directories that lie inside a writable path and do not exist yet
    (empty, private): tooldrop would create them anyway, and a confined tool must not."""
    for path in policy.protected:
        if any(inside(path, w) for w in policy.writable):
            # If it cannot be made, bwrap_argv mounts an empty read-only directory there.
            with contextlib.suppress(OSError):
                Path(path).mkdir(mode=0o700, parents=True, exist_ok=True)


def bwrap_argv(
    bwrap: str,
    policy: Policy,
    argv: Sequence[str],
    *,
    seccomp_fd: int | None = None,
    disable_userns: bool = True,
) -> list[str]:
    """The command line that runs ``argv`` under ``policy``.

    :param seccomp_fd: A descriptor the process inherits, holding the compiled filter to load
        (:func:`tooldrop_sandbox._seccomp.unix_socket_filter`), or ``None``.
    :param disable_userns: Pass ``--disable-userns`` (bwrap 0.8 and later).
    """
    out = [bwrap, "--unshare-user", "--cap-drop", "ALL"]
    if disable_userns:
        out.append("--disable-userns")
    out += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", _TMP]
    for path in policy.visible:
        if inside(path, _TMP):  # a writable one is bound again, writable, below
            out += ["--ro-bind", path, path]
    for path in policy.writable:
        out += ["--bind-try", path, path]  # a path that does not exist yet stays read-only
    out += _shield(policy)
    out += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent"]
    if not policy.network:
        out.append("--unshare-net")
    if seccomp_fd is not None:
        out += ["--seccomp", str(seccomp_fd)]
    # A TMPDIR of the host's may be hidden or read-only in here; /tmp is private and writable.
    out += ["--setenv", "TMPDIR", _TMP, "--chdir", policy.cwd, "--", *argv]
    return out
