"""One running process seen from the calling thread: its two pipes read into captures, a
``poll`` on them, and whether the shell has exited (without reaping it)."""

from __future__ import annotations

import math
import os
import select
import subprocess
import time
from typing import IO

from tooldrop import OutputCallback

from ._capture import StreamCapture, listen

__all__ = ["POLL_IN", "READ_SIZE", "RunningProcess"]

#: Bytes per read.
READ_SIZE = 65536
#: The ``poll`` events that mean "read now" (data, or the other end closed).
POLL_IN = select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR | select.POLLNVAL


class RunningProcess:
    """The state of one running process and its two pipes."""

    def __init__(
        self, proc: subprocess.Popen[bytes], keep: int, on_output: OutputCallback | None = None
    ) -> None:
        self.proc = proc
        assert proc.stdout is not None  # we asked for PIPE
        assert proc.stderr is not None
        self.files: dict[int, IO[bytes]] = {
            proc.stdout.fileno(): proc.stdout,
            proc.stderr.fileno(): proc.stderr,
        }
        self.stdout = StreamCapture(keep, listen(on_output, "stdout"))
        self.stderr = StreamCapture(keep, listen(on_output, "stderr"))
        self.captures = {proc.stdout.fileno(): self.stdout, proc.stderr.fileno(): self.stderr}
        self.poller = select.poll()
        for fd in self.files:
            self.poller.register(fd, POLL_IN)
        self.pidfd: int | None = None

    def read(self, fd: int) -> None:
        """Read once from ``fd``; at EOF stop watching it and close it."""
        try:
            data = os.read(fd, READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data:
            self.captures[fd].feed(data)
            return
        self.poller.unregister(fd)
        self.files.pop(fd).close()
        self.captures[fd].close()

    def poll(self, until: float, extra: int | None = None) -> list[int]:
        """Wait for events until the monotonic time ``until``; return the ready fds."""
        remaining = until - time.monotonic()
        if remaining <= 0:
            return []
        if extra is not None:
            self.poller.register(extra, POLL_IN)
        try:
            return [fd for fd, _ in self.poller.poll(math.ceil(remaining * 1000))]
        finally:
            if extra is not None:
                self.poller.unregister(extra)

    def watch_exit(self) -> int | None:
        """An fd that becomes readable when the shell exits (Linux ≥ 5.3), else ``None``."""
        if self.pidfd is None and hasattr(os, "pidfd_open"):
            try:
                self.pidfd = os.pidfd_open(self.proc.pid)
            except OSError:
                return None
        return self.pidfd

    def exited(self) -> bool:
        """Whether the shell has exited, without reaping it (its pid stays the group's id)."""
        if self.proc.returncode is not None:
            return True
        try:
            status = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return status is not None

    def close(self) -> None:
        for file in self.files.values():
            file.close()
        for capture in self.captures.values():
            capture.close()
        self.files.clear()
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None
