"""A cgroup v2 per call, where tooldrop may make one: a ``setsid`` escape is still contained.

A process group holds a script's processes only until one of them calls ``setsid`` (or
``setpgid``): then it has its own group and session, and ``killpg`` no longer reaches it. A
cgroup holds it whatever it does. So when tooldrop's own cgroup (cgroup v2, from
``/proc/self/cgroup``) is writable by us (root, or a systemd-delegated subtree such as a user
session's ``user@.service``), each call gets a child cgroup ``tooldrop-<pid>-<n>``; when the
call is over (or stopped) everything in it is killed (``cgroup.kill``, Linux 5.14; else each
process in ``cgroup.procs``, until none is left) and the cgroup is removed.

Getting the shell into the cgroup before it can fork: Python cannot ``clone`` into a cgroup,
and ``preexec_fn`` is off limits (thread-unsafe, no vfork). So tooldrop moves *itself* into the
call's cgroup, spawns the shell (which is born there), and moves back; the moves are made
under a lock, so concurrent calls never spawn into each other's cgroup. Writing a pid to
``cgroup.procs`` moves every thread of the process: anything else this process spawns in that
moment (a Python tool's own subprocess, say) would be born in the call's cgroup too.

Where no cgroup can be made (no cgroup v2, a read-only ``/sys/fs/cgroup``, macOS), a call
still ends its process group, and a ``setsid`` escape is not contained: documented in
docs/security.md.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

__all__ = ["CallCgroup", "CallCgroups", "call_cgroup", "call_cgroups"]

T = TypeVar("T")

#: Seconds we wait for a killed cgroup to empty before we leave it behind.
EMPTY_TIMEOUT = 2.0


def _own_cgroup() -> Path | None:
    """The directory of this process's cgroup v2, or ``None``."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return None
    relative = next((line[3:] for line in lines if line.startswith("0::")), None)
    if relative is None:
        return None
    for mount in mounts:
        fields = mount.split()
        # ID PARENT DEV ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS
        if "-" in fields and fields[fields.index("-") + 1] == "cgroup2" and fields[3] == "/":
            return Path(fields[4]) / relative.lstrip("/")
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: alive, someone else's
        return True
    return True


def _write(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


class CallCgroups:
    """Makes one cgroup per call under this process's own cgroup."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self._count = itertools.count()
        self._spawn_lock = threading.Lock()
        self._prefix = f"tooldrop-{os.getpid()}-"
        #: Set when a move failed: from then on calls get no cgroup.
        self.disabled = False
        self._remove_stale()

    def _remove_stale(self) -> None:
        """Remove the empty cgroups of tooldrop processes that were killed (their guardian
        killed what was in them, but could not wait to remove them)."""
        with contextlib.suppress(OSError):
            for entry in os.scandir(self.home):
                owner = entry.name.split("-")
                if len(owner) != 3 or owner[0] != "tooldrop" or not owner[1].isdigit():
                    continue
                if owner[1] != str(os.getpid()) and not _alive(int(owner[1])):
                    with contextlib.suppress(OSError):  # still populated: left alone
                        Path(entry.path).rmdir()

    def make(self) -> CallCgroup | None:
        if self.disabled:
            return None
        path = self.home / f"{self._prefix}{next(self._count)}"
        try:
            path.mkdir()
        except OSError:
            self.disabled = True  # not ours to write after all
            return None
        return CallCgroup(path, self)


class CallCgroup:
    """One call's cgroup: spawn into it, then kill what is left in it and remove it."""

    def __init__(self, path: Path, owner: CallCgroups) -> None:
        self.path = path
        self._owner = owner
        #: Whether the call's shell was born in it: only then does :meth:`kill` act.
        self.used = False

    def spawn(self, start: Callable[[], T]) -> T:
        """Run ``start`` (which spawns the shell) with this process inside the cgroup.

        Should this process not get in, the shell is spawned without the cgroup; should it not
        get out again, the cgroup is never killed (it would kill tooldrop) and no call gets a
        cgroup from then on.
        """
        me = str(os.getpid())
        with self._owner._spawn_lock:
            try:
                _write(self.path / "cgroup.procs", me)
            except OSError:
                self._owner.disabled = True
                return start()
            try:
                return start()
            finally:
                try:
                    _write(self._owner.home / "cgroup.procs", me)
                    self.used = True
                except OSError:
                    self._owner.disabled = True

    def _pids(self) -> list[int]:
        with contextlib.suppress(OSError, ValueError):
            return [int(pid) for pid in (self.path / "cgroup.procs").read_text().split()]
        return []

    def kill(self) -> None:
        """SIGKILL everything in the cgroup and wait (bounded) until it is empty."""
        if not self.used or os.getpid() in self._pids():  # never tooldrop itself
            return
        end = time.monotonic() + EMPTY_TIMEOUT
        with contextlib.suppress(OSError):  # before Linux 5.14: one process at a time, below
            _write(self.path / "cgroup.kill", "1")
        while True:
            pids = self._pids()
            if not pids or time.monotonic() >= end:
                return
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.005)

    def release(self) -> None:
        """Hand what still runs back to tooldrop's own cgroup (``keep_background``)."""
        if not self.used:
            return
        home = self._owner.home / "cgroup.procs"
        for _ in range(3):  # a service may fork while we move it
            pids = self._pids()
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(OSError):
                    _write(home, str(pid))

    def remove(self) -> None:
        with contextlib.suppress(OSError):  # still populated (a process we could not move)
            self.path.rmdir()


_lock = threading.Lock()
_cgroups: list[CallCgroups | None] = []


def call_cgroups() -> CallCgroups | None:
    """This process's cgroup maker, or ``None`` where cgroups cannot contain a call."""
    if _cgroups:
        return _cgroups[0]
    with _lock:
        if not _cgroups:
            found: CallCgroups | None = None
            if sys.platform == "linux" and os.environ.get("TOOLDROP_CGROUPS", "1") != "0":
                home = _own_cgroup()
                if home is not None and os.access(home / "cgroup.procs", os.W_OK):
                    found = CallCgroups(home)
            _cgroups.append(found)
    return _cgroups[0]


@contextmanager
def call_cgroup() -> Iterator[CallCgroup | None]:
    """A fresh cgroup for one call (``None`` where there is none), removed afterwards."""
    maker = call_cgroups()
    group = maker.make() if maker is not None else None
    try:
        yield group
    finally:
        if group is not None:
            group.remove()
