"""The parse cache: an unchanged tool file is not parsed again (DESIGN §10).

One cache file per tools directory (and scope) in the user cache dir holds, per file name, the
file's stat signature and the :class:`LoadResult` its loader returned, for loaders that mark
their results ``cacheable``. A hit needs one ``stat`` and no read of the file.

When is an entry trusted?

- its size, mtime (ns), ctime (ns) and inode are unchanged: an edit changes ctime even when a
  tool forges the mtime back;
- it was not modified within :data:`RACY_WINDOW_NS` of being cached: a file edited twice within
  one timestamp tick could otherwise keep its signature (git's "racily clean" problem), so such
  files are simply not cached until they have been quiet for a while;
- the cache was written by the same cache format, Python, and the same versions and source files
  of the loading plugins (:func:`fingerprint`); anything else discards the whole file.

The cache is a pickle, which can run code when loaded, so it is only read from a directory
and a file that belong to the current user and that nobody else may write; anything else, a
truncated or corrupt file, or an unexpected shape, is ignored and rewritten, never trusted.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import inspect
import operator
import os
import pickle
import stat
import sys
import time
import types
from collections.abc import Callable
from itertools import repeat
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath
from typing import IO, Any

import attrs

from .._model import LoadResult, Origin, Problem, ToolSpec
from ..skills._manifest import Manifest, Subscription
from ..skills._skills import Agent, Parsed

__all__ = ["DirCache", "cache_file", "fingerprint", "joined_path"]

#: Bump when the cache's layout changes.
CACHE_FORMAT = 3
#: Files modified this close to being cached are not cached (filesystem timestamp tick).
RACY_WINDOW_NS = 2_000_000_000

Signature = tuple[int, int, int, int]
#: A file's entry: its signature, when it was cached (ns), and its load result.
Entry = tuple[int, int, int, int, int, LoadResult]


def signature(st: os.stat_result) -> Signature:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


# -- how results are stored ---------------------------------------------------------------
#
# A warm discovery unpickles every tool, so the stored form is made cheap to load:
#
# - the model's frozen attrs classes are stored as their field values in order and restored
#   by setting their slots directly (what attrs' own ``__setstate__`` does, without a dict
#   per object and a Python loop over names; the values were converted and validated when
#   the object was made); the field names are part of the fingerprint, so a cache written
#   by a core with other fields is never read;
# - a path is stored as its directory and its name and restored by joining them
#   (:func:`joined_path`): the directory is one shared object, so its parts are parsed
#   once per cache rather than once per file (rebuilding a pickled ``PosixPath`` parses
#   the whole path again).


def joined_path(parent: PurePath, name: str) -> Any:
    """``parent.joinpath(name)``, a module-level function so that pickles can name it.

    Python 3.11 parses both paths again on every join; a faster join through pathlib's
    private helpers was measured at about 1.6 us a tool, and dropped: it broke on 3.12.
    """
    return parent.joinpath(name)


#: Windows opens files in text mode unless told otherwise.
_BINARY = getattr(os, "O_BINARY", 0)


_Slots = tuple[tuple[str, ...], tuple[Callable[[Any, Any], None], ...]]


def _slots(cls: type) -> _Slots | None:
    """The field names of ``cls`` and the setters of their slots; ``None`` when its fields
    are not plain slots (then its objects pickle as attrs pickles them)."""
    names = tuple(a.name for a in attrs.fields(cls))
    slots = [cls.__dict__.get(name) for name in names]
    if not all(isinstance(slot, types.MemberDescriptorType) for slot in slots):
        return None  # pragma: no cover - CPython's slots are member descriptors
    return names, tuple(slot.__set__ for slot in slots)  # type: ignore[union-attr]  # checked


_FIELDS: dict[type, _Slots] = {
    cls: slots
    for cls in (LoadResult, ToolSpec, Origin, Problem, Parsed, Manifest, Subscription, Agent)
    if (slots := _slots(cls)) is not None
}
_LAYOUT = ";".join(f"{cls.__name__}({','.join(names)})" for cls, (names, _) in _FIELDS.items())
_PATHS = frozenset({type(Path()), PurePosixPath, PureWindowsPath})


def _restore(cls: type, values: tuple[Any, ...]) -> Any:
    """One of the model's objects from its stored field values (see above)."""
    setters = _FIELDS[cls][1]  # any other class: KeyError, and the cache is ignored
    if len(values) != len(setters):
        raise ValueError("stored fields do not match the class")
    obj: Any = object.__new__(cls)
    # setter(obj, value) for each field, looped in C: operator.call is new in Python 3.11
    # (the oldest we support); the setters return None, so any() runs them all.
    any(map(operator.call, setters, repeat(obj), values))
    return obj


def _load(handle: IO[bytes]) -> Any:
    # Unpickling makes a few objects per field of every tool and no garbage, so the cyclic
    # GC, which runs every few hundred new objects, would only walk the growing heap again
    # and again: with it paused, 10,000 tools load in 130 ms instead of 230-300 ms. (Paused
    # for the load alone: the rest of discovery runs loaders and other plugins, whose
    # garbage may have cycles.)
    enabled = gc.isenabled()
    gc.disable()
    try:
        data = pickle.load(handle)  # noqa: S301 - our own file; see the module docstring.
        # The loaded tools live as long as the registry. Left in the youngest generation,
        # the next collections would walk all of them two or three times over (60-90 ms at
        # 10,000 tools) to learn that; gc.freeze() then gc.unfreeze() moves every tracked
        # object to the oldest generation at once, as documented, where they wait for the
        # next full collection like any other old object. Skipped when the application
        # keeps objects frozen itself (unfreeze would thaw them).
        # (gc.freeze is CPython's; elsewhere this is skipped.)
        if getattr(gc, "get_freeze_count", lambda: 1)() == 0:
            gc.freeze()
            gc.unfreeze()
        return data
    finally:
        if enabled:
            gc.enable()


class _Pickler(pickle.Pickler):
    """Stores the model's objects and paths in the forms above; everything else as usual."""

    def __init__(self, file: IO[bytes]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.dirs: dict[tuple[type, str], PurePath] = {}

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        fields = _FIELDS.get(cls)
        if fields is not None:
            return _restore, (cls, tuple([getattr(obj, name) for name in fields[0]]))
        if cls in _PATHS and obj.name:
            parent = obj.parent
            parent = self.dirs.setdefault((cls, str(parent)), parent)
            if str(parent.joinpath(obj.name)) == str(obj):
                return joined_path, (parent, obj.name)
        return NotImplemented


def _source_stamp(obj: object) -> str:
    """Where a plugin's package lives and when any of its modules last changed.

    Released plugins change version when their code changes; a plugin being developed does
    not, so an edited module of the plugin's package voids the cache too.
    """
    module = inspect.getmodule(obj if inspect.ismodule(obj) else type(obj))
    top = sys.modules.get((module.__name__ if module else "").split(".")[0])
    source = getattr(top, "__file__", None)
    if not source:
        return ""
    folder = Path(source).parent
    try:
        stamps = [e.stat().st_mtime_ns for e in os.scandir(folder) if e.name.endswith(".py")]
    except OSError:
        return str(folder)
    return f"{folder}:{max(stamps, default=0)}"


def fingerprint(plugins: list[tuple[str, str | None, object]]) -> str:
    """A digest of everything a cached result depends on besides the file itself.

    :param plugins: ``(name, version, plugin object)`` of every plugin that loads files.
    """
    parts = [
        f"format={CACHE_FORMAT}",
        f"python={sys.version}",
        f"pickle={pickle.HIGHEST_PROTOCOL}",
        f"model={_LAYOUT}",
    ]
    for name, version, plugin in sorted(plugins, key=lambda p: p[0]):
        parts.append(f"{name}={version}@{_source_stamp(plugin)}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _owned_and_private(path: Path, st: os.stat_result) -> bool:
    """Only the current user may have written it (POSIX); elsewhere, trust the user dir."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return True
    return st.st_uid == getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


class DirCache:
    """The cached load results of one tools directory."""

    def __init__(self, file: Path, fingerprint: str) -> None:
        self.file = file
        self.fingerprint = fingerprint
        self._entries: dict[str, Entry] = self._read()
        self._seen: set[str] = set()
        self._dirty = False

    def _read(self) -> dict[str, Entry]:
        try:
            # O_NONBLOCK: a FIFO in its place is refused by the S_ISREG check, not waited on.
            fd = os.open(self.file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _BINARY)
            with os.fdopen(fd, "rb") as handle:
                st = os.fstat(handle.fileno())
                if not (
                    stat.S_ISREG(st.st_mode)
                    and _owned_and_private(self.file, st)
                    and _owned_and_private(self.file.parent, self.file.parent.stat())
                ):
                    return {}
                data = _load(handle)
        except Exception:  # noqa: BLE001 - missing, unreadable or corrupt: start afresh.
            return {}
        if (
            not isinstance(data, dict)
            or data.get("format") != CACHE_FORMAT
            or data.get("fingerprint") != self.fingerprint
            or not isinstance(data.get("entries"), dict)
        ):
            return {}
        # Each entry is checked when it is used (get), not all of them here; entries that
        # are never used (not file names) are dropped when the cache is saved.
        entries: dict[str, Entry] = data["entries"]
        return entries

    def get(self, name: str, st: os.stat_result) -> LoadResult | None:
        """The cached result for file ``name`` if it is unchanged since, else ``None``."""
        result: LoadResult | None = self.get_value(name, st, LoadResult)
        return result

    def get_value(self, name: str, st: os.stat_result, kind: type) -> Any:
        """The cached ``kind`` (one of the model's classes) for ``name``, or ``None``."""
        self._seen.add(name)
        entry: Any = self._entries.get(name)
        if entry is None:
            return None
        if not (isinstance(entry, tuple) and len(entry) == 6 and type(entry[5]) is kind):
            del self._entries[name]  # not an entry we wrote: as if there were none
            return None
        if entry[:4] != (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino):
            return None
        return entry[5]

    def put(self, name: str, before: os.stat_result, path: Path, result: LoadResult) -> None:
        """Remember ``result`` for ``name`` when the file stood still while it was loaded."""
        self._seen.add(name)
        if result.cacheable:
            self.put_value(name, before, path, result)

    def put_value(self, name: str, before: os.stat_result, path: Path, value: Any) -> None:
        """Remember ``value`` (one of the model's objects, made from the file's bytes alone)."""
        self._seen.add(name)
        try:
            after = path.stat()
        except OSError:
            return
        now = time.time_ns()
        if signature(after) != signature(before) or now - after.st_mtime_ns < RACY_WINDOW_NS:
            self._entries.pop(name, None)  # changing, or too fresh to tell: parse it next time
            self._dirty = True
            return
        self._entries[name] = (*signature(after), now, value)
        self._dirty = True

    def save(self) -> None:
        """Write the entries of the files seen in this scan (deleted files drop out)."""
        gone = self._entries.keys() - self._seen
        if not self._dirty and not gone:
            return
        for name in gone:
            del self._entries[name]
        data = {"format": CACHE_FORMAT, "fingerprint": self.fingerprint, "entries": self._entries}
        import tempfile

        tmp = None
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(prefix=".discovery.", dir=self.file.parent)  # mode 0600
            with os.fdopen(fd, "wb") as handle:
                _Pickler(handle).dump(data)
            Path(tmp).replace(self.file)
        except Exception:  # noqa: BLE001 - a cache that cannot be written only costs speed.
            if tmp is not None:
                with contextlib.suppress(OSError):
                    Path(tmp).unlink()
        self._dirty = False


def cache_file(cache_dir: Path, directory: Path, scope: str) -> Path:
    key = hashlib.sha256(f"{os.path.realpath(directory)}\0{scope}".encode()).hexdigest()[:32]
    return cache_dir / "discovery" / f"{key}.pickle"
