"""Remembered "always allow" grants, bound to where they were given (DESIGN §7.2, issue 13).

A grant covers one tool in one place: its name, the hash of its content, and the place it came
from: the project (its resolved root) for a project tool, the personal config dir for a
personal tool, the plugin (or its tools folder) for a plugin's tool. The same bytes in another
repository are another tool: a grant given in repository A never answers for B, and an edited
file voids its grant. A grant never bypasses project trust either: the default policy asks
for an untrusted project's tools before it looks at grants, and the core makes sure of it.

Version 1 files (``{"version": 1, "grants": {name: [hash]}}``) were bound to no place, so they
could have answered anywhere. They are not migrated (nothing says where they were given) and
never applied: the host reports them as a notice, and the next grant written keeps them aside,
under ``ignored_version_1``, until ``tooldrop grants --revoke-all`` drops them.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from attrs import frozen

from .._files import MAX_STATE_BYTES, read_regular_file
from .._model import Problem, Scope, ToolSpec

__all__ = ["Grant", "GrantStore", "read_json", "write_json_atomic"]


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


@frozen(kw_only=True)
class Grant:
    """One remembered "always allow": this tool, this version, in this place."""

    name: str
    #: The tool's ``origin.content_hash`` when it was granted.
    hash: str
    #: The scope of the tool: ``project``, ``personal`` or ``plugin``.
    scope: str
    #: The project's resolved root, the personal config dir, or the plugin's tools folder or
    #: source (``entrypoint:<plugin>``).
    place: str
    #: When it was granted (UTC, ISO 8601), for ``tooldrop grants``.
    granted_at: str = ""

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What identifies the grant: the tool's name and hash, its scope and place."""
        return (self.name, self.hash, self.scope, self.place)

    def to_json(self) -> dict[str, str]:
        return {
            "name": self.name,
            "hash": self.hash,
            "scope": self.scope,
            "place": self.place,
            "granted_at": self.granted_at,
        }


def _grant(data: object) -> Grant | None:
    if not isinstance(data, dict):
        return None
    fields = [data.get(k) for k in ("name", "hash", "scope", "place")]
    if not all(isinstance(v, str) and v for v in fields):
        return None
    at = data.get("granted_at")
    name, digest, scope, place = fields
    return Grant(
        name=str(name),
        hash=str(digest),
        scope=str(scope),
        place=str(place),
        granted_at=at if isinstance(at, str) else "",
    )


class GrantStore:
    """``grants.json`` in the personal config dir: ``{"version": 2, "grants": [{...}]}``.

    :param path: The grants file.
    :param project_dir: The host's project root (resolved): the place of its project tools.
    :param config_dir: The personal config dir: the place of personal tools.
    """

    VERSION = 2

    def __init__(self, path: Path, project_dir: Path, config_dir: Path) -> None:
        self.path = path
        self.project_dir = project_dir
        self.config_dir = config_dir
        self._lock = threading.Lock()

    # -- places --------------------------------------------------------------------------

    def place_of(self, spec: ToolSpec) -> tuple[Scope, str]:
        """``(scope, place)``: where a grant for ``spec`` given through this host belongs."""
        origin = spec.origin
        if origin.scope == "project":
            return "project", str(self.project_dir)
        if origin.scope == "personal":
            return "personal", str(self.config_dir.resolve())
        folder = origin.path.parent.resolve() if origin.path is not None else None
        return "plugin", str(folder) if folder is not None else origin.source

    def is_here(self, grant: Grant) -> bool:
        """Whether ``grant`` was given for a place this host's tools come from."""
        if grant.scope == "project":
            return grant.place == str(self.project_dir)
        if grant.scope == "personal":
            return grant.place == str(self.config_dir.resolve())
        return grant.scope == "plugin"

    # -- reading -------------------------------------------------------------------------

    def _read(self) -> tuple[list[Grant], dict[str, Any]]:
        """The grants, and the ignored version 1 grants (``{name: [hash]}``)."""
        data = read_json(self.path)
        if not isinstance(data, dict):
            return [], {}
        if data.get("version") == 1:
            old = data.get("grants")
            return [], old if isinstance(old, dict) else {}
        if data.get("version") != self.VERSION:
            return [], {}
        ignored = data.get("ignored_version_1")
        raw = data.get("grants")
        grants = [g for g in map(_grant, raw if isinstance(raw, list) else []) if g is not None]
        return grants, ignored if isinstance(ignored, dict) else {}

    def all(self) -> list[Grant]:
        """Every remembered grant, for every place."""
        return self._read()[0]

    def grant_for(self, spec: ToolSpec) -> Grant | None:
        """The grant that covers ``spec`` as it is now, here; ``None`` when there is none.

        It says nothing of trust: an untrusted project's tool asks whatever its grant.
        """
        digest = spec.origin.content_hash
        if not digest:
            return None
        key = (spec.name, digest, *self.place_of(spec))
        return next((grant for grant in self.all() if grant.key == key), None)

    def granted(self, specs: Iterable[ToolSpec]) -> set[str]:
        """The names of those ``specs`` a grant covers here (the file is read once)."""
        keys = {grant.key for grant in self.all()}
        return {
            spec.name
            for spec in specs
            if spec.origin.content_hash
            and (spec.name, spec.origin.content_hash, *self.place_of(spec)) in keys
        }

    def is_granted(self, spec: ToolSpec) -> bool:
        """Whether a grant covers ``spec`` here (its name, content and place)."""
        return self.grant_for(spec) is not None

    def notices(self) -> list[Problem]:
        """A notice when the file holds grants of the old format, which are ignored."""
        ignored = self._read()[1]
        count = sum(len(v) for v in ignored.values() if isinstance(v, list))
        if not count:
            return []
        message = (
            f"{count} remembered grant{'s' * (count != 1)} of an older tooldrop "
            f"({', '.join(sorted(map(str, ignored)))}) are ignored: they were not bound to a "
            'project, so they could have answered for any copy of a tool. Answer "always '
            'allow" again where you want one; `tooldrop grants --revoke-all` drops them.'
        )
        return [Problem(path=self.path, field="grants", message=message, severity="info")]

    # -- writing -------------------------------------------------------------------------

    def _write(self, grants: list[Grant], ignored: dict[str, Any]) -> None:
        data: dict[str, Any] = {
            "version": self.VERSION,
            "grants": [g.to_json() for g in grants],
        }
        if ignored:
            data["ignored_version_1"] = ignored
        write_json_atomic(self.path, data)

    def remember(self, spec: ToolSpec) -> None:
        """Remember "always allow" for this version of ``spec``, in its place."""
        digest = spec.origin.content_hash
        if not digest:
            return  # nothing identifies this version of the tool; do not grant blindly
        scope, place = self.place_of(spec)
        now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        grant = Grant(name=spec.name, hash=digest, scope=scope, place=place, granted_at=now)
        with self._lock:
            grants, ignored = self._read()
            if any(g.key == grant.key for g in grants):
                return
            self._write([*grants, grant], ignored)

    def revoke(self, name: str | None = None, *, everywhere: bool = False) -> list[Grant]:
        """Forget grants and return them: those for ``name`` here, or every one.

        :param name: Only this tool's grants; ``None`` for every tool.
        :param everywhere: Every place, and the ignored old-format grants too; otherwise only
            grants given here (this project, the personal dir, plugins).
        """
        with self._lock:
            grants, ignored = self._read()
            gone = [
                g
                for g in grants
                if (name is None or g.name == name) and (everywhere or self.is_here(g))
            ]
            kept_ignored = ignored
            if everywhere:
                kept_ignored = {k: v for k, v in ignored.items() if name is not None and k != name}
            if gone or kept_ignored != ignored:
                self._write([g for g in grants if g not in gone], kept_ignored)
            return gone

    def forget(self, name: str) -> None:
        """Forget the grants of ``name`` given here."""
        self.revoke(name)
