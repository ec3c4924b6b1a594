"""Remembered "always allow" grants, keyed by tool name and content hash (DESIGN §7.2)."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from pathlib import Path
from typing import Any

from ._files import MAX_STATE_BYTES, read_regular_file
from ._model import ToolSpec

__all__ = ["GrantStore", "read_json", "write_json_atomic"]


def read_json(path: Path) -> Any:
    """The JSON in ``path``, or ``None`` when it is missing or unreadable.

    A FIFO, a device or a file over :data:`MAX_STATE_BYTES` is unreadable: never waited on.
    """
    try:
        return json.loads(read_regular_file(path, MAX_STATE_BYTES))
    except (OSError, ValueError, RecursionError):
        return None


def write_json_atomic(path: Path, data: object) -> None:
    """Write ``data`` so that a reader sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # writing is rare; importing tooldrop should not pay for it

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2, sort_keys=True)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        Path(tmp).replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(tmp).unlink()
        raise


class GrantStore:
    """``grants.json`` in the personal config dir: ``{"version": 1, "grants": {name: [hash]}}``.

    A grant holds for a tool only while its content hash is the one approved: editing the
    tool's file voids it.
    """

    VERSION = 1

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def _load(self) -> dict[str, list[str]]:
        data = read_json(self.path)
        if not isinstance(data, dict) or data.get("version") != self.VERSION:
            return {}
        grants = data.get("grants")
        if not isinstance(grants, dict):
            return {}
        return {
            str(name): [h for h in hashes if isinstance(h, str)]
            for name, hashes in grants.items()
            if isinstance(hashes, list)
        }

    def is_granted(self, spec: ToolSpec) -> bool:
        digest = spec.origin.content_hash
        return bool(digest) and digest in self._load().get(spec.name, [])

    def remember(self, spec: ToolSpec) -> None:
        digest = spec.origin.content_hash
        if not digest:
            return  # nothing identifies this version of the tool; do not grant blindly
        with self._lock:
            grants = self._load()
            hashes = grants.setdefault(spec.name, [])
            if digest not in hashes:
                hashes.append(digest)
                write_json_atomic(self.path, {"version": self.VERSION, "grants": grants})

    def forget(self, name: str) -> None:
        with self._lock:
            grants = self._load()
            if grants.pop(name, None) is not None:
                write_json_atomic(self.path, {"version": self.VERSION, "grants": grants})
