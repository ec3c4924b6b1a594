"""Project trust (DESIGN §7.3): a cloned repository's tools do not run unasked.

Trust is recorded per project (its real path) together with a digest of what the project
provides: every project-scope tool's name, file and content hash, every file of the project's
skill bundles, and the project's ``config.yaml`` (its ``alwaysAllow`` auto-approves). Any
change to those (an edited tool, a new one, a file that starts loading after a fix, an edited
``skill.yaml``) voids the trust until the person trusts again.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .._files import MAX_CONFIG_BYTES, MAX_STATE_BYTES, read_regular_file
from .._model import ToolSpec
from ._grants import read_json, write_json_atomic

__all__ = ["TrustStore", "project_digest"]


def project_digest(specs: Iterable[ToolSpec], config: Path, skills: Path | None = None) -> str:
    """A digest of everything the project contributes that could run or be auto-approved.

    ``skills`` is the project's skill bundles dir: every file in it counts (a ``skill.yaml``
    decides which agent sees a tool, an agent file its allow-list, and a tool may run a
    script shipped beside it).
    """
    digest = hashlib.sha256()
    entries = sorted(
        (spec.name, str(spec.origin.path or ""), spec.origin.content_hash)
        for spec in specs
        if spec.origin.scope == "project"
    )
    for entry in entries:
        digest.update("\0".join(entry).encode() + b"\n")
    try:
        # Bounded and non-blocking: a FIFO config must not hang the digest. One that cannot
        # be read is never applied, but still digests apart from one that is absent.
        data = read_regular_file(config, MAX_CONFIG_BYTES)
        digest.update(b"config\0" + hashlib.sha256(data).digest())
    except FileNotFoundError:
        digest.update(b"config\0none")
    except OSError as exc:
        digest.update(b"config\0unreadable\0" + str(exc.strerror).encode())
    if skills is not None:
        _tree_digest(digest, skills)
    return digest.hexdigest()


def _tree_digest(digest: Any, root: Path) -> None:
    """Every file under ``root`` (relative path and bytes), in a stable order; directory
    symlinks are not followed (a loop must not hang the check)."""
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = Path(folder, name)
            relative = str(path.relative_to(root)).encode("utf-8", "surrogateescape")
            try:  # bounded and non-blocking, as every file tooldrop reads (a FIFO: refused)
                content = hashlib.sha256(read_regular_file(path, MAX_STATE_BYTES)).digest()
            except OSError as exc:
                content = b"unreadable\0" + str(exc.strerror).encode()
            digest.update(b"skills\0" + relative + b"\0" + content)


class TrustStore:
    """``trust.json`` in the personal config dir: ``{"version": 1, "projects": {path: {...}}}``."""

    VERSION = 1

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def _projects(self) -> dict[str, dict[str, str]]:
        data = read_json(self.path)
        if not isinstance(data, dict) or data.get("version") != self.VERSION:
            return {}
        projects = data.get("projects")
        if not isinstance(projects, dict):
            return {}
        return {k: v for k, v in projects.items() if isinstance(v, dict)}

    def digest_for(self, project: Path) -> str | None:
        record = self._projects().get(str(project))
        digest = None if record is None else record.get("digest")
        return digest if isinstance(digest, str) else None

    def trust(self, project: Path, digest: str) -> None:
        with self._lock:
            projects = self._projects()
            projects[str(project)] = {
                "digest": digest,
                "trusted_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            }
            write_json_atomic(self.path, {"version": self.VERSION, "projects": projects})

    def revoke(self, project: Path) -> bool:
        with self._lock:
            projects = self._projects()
            if projects.pop(str(project), None) is None:
                return False
            write_json_atomic(self.path, {"version": self.VERSION, "projects": projects})
            return True
