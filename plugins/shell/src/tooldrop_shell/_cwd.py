"""Where a tool's shell starts: its ``cwd:``, expanded, resolved and kept inside the project."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from ._env import expand_vars
from ._errors import SetupError

__all__ = ["CWD_ESCAPES", "resolve_cwd"]

#: The error result when a tool's ``cwd`` resolves outside the project root.
CWD_ESCAPES = "Custom tool cwd escapes the project directory"


def resolve_cwd(
    cwd: str | None,
    project_dir: str | os.PathLike[str],
    environ: Mapping[str, str] | None = None,
) -> str:
    """The directory a tool's shell starts in.

    ``cwd`` is expanded like an ``env:`` value (:func:`tooldrop_shell.expand_vars`), taken
    relative to the project root (an absolute path stays absolute), and resolved with
    symlinks on both sides. It must then be the root or below it, decided by
    :func:`os.path.commonpath` on the real paths (``/ws-evil`` is not inside ``/ws``).

    A ``cwd`` that does not exist (but would be inside) falls back to the project root, as in
    the reference, so a tool naming a directory a teammate has not checked out still runs.
    ``~`` is not expanded; ``~/x`` is a relative path that is usually missing.

    This is containment against misconfiguration, not a sandbox: the script can ``cd``
    anywhere, and a symlink swapped in after the check is followed.

    :raises SetupError: the directory escapes the project, or is an existing non-directory.
    """
    root = os.fspath(project_dir)
    if cwd is None:
        return root
    expanded = expand_vars(cwd, environ)
    try:
        root = os.path.realpath(root)
        # join() drops ``root`` for an absolute ``expanded``: that is wanted, it is checked next.
        target = os.path.realpath(Path(root, expanded))
        inside = os.path.commonpath([root, target]) == root
    except ValueError:  # a NUL byte, or another drive on Windows: nowhere inside the project
        inside = False
    if not inside:
        raise SetupError(CWD_ESCAPES)
    if not Path(target).exists():
        return root
    if not Path(target).is_dir():
        raise SetupError(f"Custom tool cwd is not a directory: {expanded}")
    return target
