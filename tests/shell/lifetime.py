"""Finding a tool's processes by a unique marker in their command line, and waiting on them.

Each test gives its tool a ``sleep 97.<random>`` no other process on the machine has, so
"no surviving process" is a plain search, whatever group or session the process ended up in.
"""

from __future__ import annotations

import contextlib
import os
import random
import time
from pathlib import Path

import psutil

#: Generous bounds on a loaded machine; they bound waits, they do not measure speed.
TIMEOUT = 60.0


def marker() -> str:
    """A ``sleep`` argument no other process has: ``97.`` and random digits."""
    return f"97.{random.randrange(10**8, 10**9)}"


def with_marker(marker: str) -> list[psutil.Process]:
    """Live processes whose command line contains ``marker``."""
    found = []
    for proc in psutil.process_iter():
        with contextlib.suppress(psutil.Error):
            if proc.status() == psutil.STATUS_ZOMBIE:
                continue
            if any(marker in part for part in proc.cmdline()) and proc.pid != os.getpid():
                found.append(proc)
    return found


def wait_for(marker: str, *, within: float = TIMEOUT) -> list[psutil.Process]:
    """The processes carrying ``marker``, once at least one runs."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        found = with_marker(marker)
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no process with {marker} started within {within}s")


def wait_gone(marker: str, *, within: float = 10.0) -> list[psutil.Process]:
    """The processes carrying ``marker`` still alive after ``within`` seconds (none, we hope).

    SIGKILL is delivered asynchronously, and a guardian acts after its pipe closes: wait.
    """
    end = time.monotonic() + within
    while True:
        left = with_marker(marker)
        if not left or time.monotonic() >= end:
            return left
        time.sleep(0.05)


def kill_all(processes: list[psutil.Process]) -> None:
    """Clean up after a failed test: the survivors it found, by pid."""
    for proc in processes:
        with contextlib.suppress(psutil.Error):
            proc.kill()


def wait_for_file(path: Path, *, within: float = TIMEOUT) -> None:
    end = time.monotonic() + within
    while not path.exists():
        if time.monotonic() >= end:
            raise AssertionError(f"{path} did not appear within {within}s")
        time.sleep(0.02)


def describe(processes: list[psutil.Process]) -> list[str]:
    """Each survivor's pid and command line, for a failure message (it may die meanwhile)."""
    shown = []
    for proc in processes:
        try:
            shown.append(f"{proc.pid}: {' '.join(proc.cmdline())}")
        except psutil.Error:
            shown.append(f"{proc.pid}: (gone)")
    return shown
