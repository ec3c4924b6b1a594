"""What a tool may do when it runs confined: the paths it may write, and the network.

Pure path arithmetic on the tool spec and the host, no I/O beyond ``realpath``: the same
answer feeds ``tooldrop show`` / the approval prompt (:func:`confinement_for`) and the
command line the sandbox is started with (:func:`policy_for`).
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path

from attrs import frozen

from tooldrop import Confinement, SandboxError, ToolHost, ToolSpec

__all__ = ["Policy", "inside", "policy_for", "protected_paths"]


@frozen(kw_only=True)
class Policy:
    """The sandbox's rules for one call."""

    #: Real, absolute paths the tool may write, outermost first.
    writable: tuple[str, ...]
    #: Real, absolute paths that stay read-only even inside a writable path: the personal
    #: config dir (grants, trust, personal tools) and the parse cache.
    protected: tuple[str, ...]
    #: Real, absolute paths the tool must see (the project, its cwd) even when they live
    #: under ``/tmp``, which the sandbox replaces with an empty one.
    visible: tuple[str, ...]
    network: bool
    #: Where the tool runs (real path).
    cwd: str

    def confinement(self, by: str) -> Confinement:
        return Confinement(by=by, writable=self.writable, network=self.network)


def inside(path: str, root: str) -> bool:
    """``path`` is ``root`` or below it (real paths; ``/ws-evil`` is not inside ``/ws``)."""
    try:
        return os.path.commonpath([root, path]) == root
    except ValueError:  # a relative path mixed in, or another drive
        return False


def protected_paths(host: ToolHost) -> tuple[str, ...]:
    """The personal config dir, the dirs of the grants and trust files, the parse cache dir.

    Directories, not files: the stores replace their files by renaming a new one over them,
    which a read-only file inside a writable directory would not stop. Resolved once per host
    (and again if its paths or ``XDG_CACHE_HOME`` / ``HOME`` change): a call should not pay
    for six ``realpath``s and a platformdirs lookup.
    """
    key = (
        host.config_dir,
        host.grants.path,
        host.trust_store.path,
        os.environ.get("XDG_CACHE_HOME"),
        os.environ.get("HOME"),
    )
    known = _protected.get(host)
    if known is not None and known[0] == key:
        return known[1]
    paths = [host.config_dir, host.grants.path.parent, host.trust_store.path.parent]
    paths.append(host.cache_dir)
    resolved = tuple(dict.fromkeys(os.path.realpath(p) for p in paths))
    _protected[host] = (key, resolved)
    return resolved


_protected: weakref.WeakKeyDictionary[ToolHost, tuple[tuple[object, ...], tuple[str, ...]]]
_protected = weakref.WeakKeyDictionary()


def _extra_writable(spec: ToolSpec, project: str) -> list[str]:
    """The tool's ``writable:`` paths, real; one that leaves the project refuses the call."""
    found = []
    for entry in spec.writable:
        real = os.path.realpath(Path(project, entry))
        if not inside(real, project):
            raise SandboxError(
                f'⚒ Refused to run {spec.name}: its writable path "{entry}" resolves outside '
                f"the project ({real}); a sandboxed tool only writes inside the project. "
                "Nothing ran."
            )
        found.append(real)
    return found


def policy_for(spec: ToolSpec, host: ToolHost, cwd: str | None = None) -> Policy:
    """The rules for ``spec``: read-only tools write nothing, others the project and cwd.

    :param cwd: The directory the call runs in (the backend resolved it inside the
        project); the project root when ``None``.
    :raises SandboxError: a ``writable:`` path resolves outside the project.
    """
    project = str(host.project_dir)  # resolved when the host was made
    where = os.path.realpath(cwd) if cwd is not None else project
    # The cwd is writable only as a part of the project: one elsewhere never is.
    writable: list[str] = [] if spec.read_only else [project]
    writable.extend(_extra_writable(spec, project))
    # Outermost first, duplicates and paths already inside another writable path dropped.
    kept: list[str] = []
    for path in sorted(set(writable), key=len):
        if not any(inside(path, outer) for outer in kept):
            kept.append(path)
    return Policy(
        writable=tuple(kept),
        protected=protected_paths(host),
        visible=tuple(dict.fromkeys([project, where])),
        network=spec.network,
        cwd=where,
    )
