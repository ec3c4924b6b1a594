"""Notice tool files added, changed or removed: poll a cheap signature of the tools dirs.

Polling (names, sizes, mtimes; no file is read) costs a few ``stat`` calls a second and needs
no dependency or OS-specific watcher; a change shows up within one interval.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from tooldrop import ToolDir, ToolHost

__all__ = ["Signature", "signature", "watched_dirs"]

#: ``(directory, entries)`` per watched directory; entries are ``(name, size, mtime_ns, inode)``.
Signature = tuple[tuple[str, tuple[tuple[str, int, int, int], ...] | None], ...]


def watched_dirs(host: ToolHost) -> list[Path]:
    """The directories the host scans: personal, project, those plugins add, and the skill
    bundles' roots, folders, ``tools/`` and ``agents/``."""
    dirs = [host.personal_tools_dir, host.project_tools_dir]
    for root in (host.personal_skills_dir, host.project_skills_dir):
        dirs.append(root)
        try:
            with os.scandir(root) as it:
                bundles = sorted(Path(entry.path) for entry in it if entry.is_dir())
        except OSError:
            continue
        for bundle in bundles:
            dirs.extend((bundle, bundle / "tools", bundle / "agents"))
    try:
        for extra in host.hook.tooldrop_tool_dirs(host=host):
            dirs.extend(d.path for d in extra or () if isinstance(d, ToolDir))
    except Exception:  # noqa: BLE001, S110 - the host reports a failing plugin when it loads tools.
        pass
    unique: dict[Path, None] = dict.fromkeys(dirs)
    return list(unique)


def _entries(directory: Path) -> tuple[tuple[str, int, int, int], ...] | None:
    try:
        with os.scandir(directory) as it:
            found = []
            for entry in it:
                try:
                    st = entry.stat()  # follows symlinks, as discovery does
                except OSError:
                    continue
                found.append((entry.name, st.st_size, st.st_mtime_ns, st.st_ino))
    except OSError:
        return None  # missing or unreadable: a state of its own, so creating the dir is a change
    return tuple(sorted(found))


def signature(dirs: Iterable[Path]) -> Signature:
    """What the tools dirs look like now; equal signatures mean nothing worth a reload."""
    return tuple((str(d), _entries(d)) for d in dirs)
