"""A small process that kills our tools' process groups when tooldrop dies, even by SIGKILL.

A SIGKILLed process runs no code, so its children must be ended by someone else. Linux offers
``PR_SET_PDEATHSIG``, set in the child; we do not use it: it needs ``preexec_fn`` (no vfork
fast path, and unsafe in a threaded process), it reaches only the shell and not the rest of
its process group (``sleep 97; echo`` leaves ``sleep`` running), and it fires when the
*thread* that forked exits, not the process: ``tooldrop serve`` runs calls on pool threads, and
a service a tool leaves running on purpose would die with the thread.

Instead, on the first call, tooldrop starts a guardian: ``/bin/sh`` reading a pipe whose only
writer is tooldrop (the write end is close-on-exec, so no tool inherits it). Each call writes
``+PGID`` when its group starts and ``-PGID`` once it has ended (or been handed over:
``keep_background``), and ``c+PATH`` / ``c-PATH`` for the call's cgroup when it has one. When
tooldrop exits for any reason the pipe reaches end of file and the guardian sends SIGKILL to
every group still listed and kills every cgroup still listed, then exits itself. It runs in its own
session, so a signal to tooldrop's process group (``timeout``, a closed terminal) does not
reach it, and ignores SIGHUP and SIGINT besides. It works the same on every POSIX system.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading

__all__ = ["GUARDIAN_SCRIPT", "Guardian", "guardian"]

# POSIX sh (dash, bash, busybox): builtins only, no fork per line. Groups are kept with a
# space on each side of every id, so removing " 12 " cannot touch " 123 "; cgroup paths one
# per line, the same way.
GUARDIAN_SCRIPT = """\
trap '' HUP INT PIPE
nl='
'
groups=' '
cgroups=$nl
while IFS= read -r line; do
  case $line in
    +*) groups="$groups${line#+} " ;;
    -*) g=${line#-}
        case $groups in *" $g "*) groups="${groups%% $g *} ${groups#* $g }" ;; esac ;;
    c+*) cgroups="$cgroups${line#c+}$nl" ;;
    c-*) c=${line#c-}
        case $cgroups in *"$nl$c$nl"*)
          cgroups="${cgroups%%"$nl$c$nl"*}$nl${cgroups#*"$nl$c$nl"}" ;;
        esac ;;
  esac
done
for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done
IFS=$nl
for c in $cgroups; do echo 1 2>/dev/null >"$c/cgroup.kill"; done
"""


class Guardian:
    """The write end of the guardian's pipe; :meth:`watch` and :meth:`release` process groups."""

    def __init__(self) -> None:
        read_end, self._write = os.pipe()  # both non-inheritable: no tool gets them
        try:
            self.process = subprocess.Popen(
                ["/bin/sh", "-c", GUARDIAN_SCRIPT],
                stdin=read_end,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                close_fds=True,
            )
        except BaseException:
            os.close(self._write)
            raise
        finally:
            os.close(read_end)
        self._lock = threading.Lock()

    def _send(self, line: str) -> None:
        with self._lock, contextlib.suppress(OSError):  # the guardian died: nothing to tell
            os.write(self._write, line.encode())

    def watch(self, pgid: int) -> None:
        """Kill process group ``pgid`` if tooldrop dies before :meth:`release`."""
        self._send(f"+{pgid}\n")

    def release(self, pgid: int) -> None:
        """The group has ended, or is meant to outlive tooldrop: forget it."""
        self._send(f"-{pgid}\n")

    def watch_cgroup(self, path: str) -> None:
        """Kill what is in the cgroup at ``path`` if tooldrop dies before :meth:`release_cgroup`."""
        if "\n" not in path:
            self._send(f"c+{path}\n")

    def release_cgroup(self, path: str) -> None:
        if "\n" not in path:
            self._send(f"c-{path}\n")


_lock = threading.Lock()
_guardian: list[Guardian | None] = []


def guardian() -> Guardian | None:
    """The process's guardian, started on first use; ``None`` where it cannot run."""
    if _guardian:
        return _guardian[0]
    with _lock:
        if not _guardian:
            started: Guardian | None = None
            if os.name == "posix":
                with contextlib.suppress(OSError):
                    started = Guardian()
            _guardian.append(started)
    return _guardian[0]
