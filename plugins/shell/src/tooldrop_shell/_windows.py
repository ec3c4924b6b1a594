"""The Windows variant of :func:`tooldrop_shell._process.run_process`.

Windows cannot ``poll`` pipes, so two reader threads feed the captures while the calling
thread waits on the process, the deadline and the cancel token. There are no process groups
to signal: ``taskkill /T /F`` ends the process tree. (Not exercised by the test suite, which
runs on POSIX; kept small and obvious for that reason.)
"""

from __future__ import annotations

import contextlib
import subprocess
import threading
import time
from typing import IO, TYPE_CHECKING

from tooldrop import CancelToken, OutputCallback

from ._capture import StreamCapture, listen
from ._errors import StartError
from ._select import command_line

if TYPE_CHECKING:
    from ._process import Outcome

__all__ = ["run_process_windows"]

_TICK = 0.05


def _pump(stream: IO[bytes], capture: StreamCapture, read_size: int) -> None:
    try:
        while data := stream.read(read_size):
            capture.feed(data)
    except (OSError, ValueError):  # the pipe was closed under us after a kill
        pass


def run_process_windows(  # pragma: no cover - exercised on Windows only
    argv: list[str],
    *,
    cwd: str,
    env: dict[str, str] | None,
    timeout: float,
    cancel: CancelToken,
    keep: int,
    on_output: OutputCallback | None = None,
) -> Outcome:
    from ._process import DRAIN_PERIOD, GRACE_PERIOD, READ_SIZE, Outcome, Stopped, _exit_code

    deadline = time.monotonic() + timeout
    try:
        proc = subprocess.Popen(
            command_line(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
            creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0),
            bufsize=0,
        )
    except (OSError, ValueError) as exc:
        raise StartError(str(exc)) from exc
    assert proc.stdout is not None  # we asked for PIPE
    assert proc.stderr is not None
    # Each reader thread calls its capture's listener; the core's on_output wrapper takes
    # one chunk at a time, so the two never run at once.
    stdout = StreamCapture(keep, listen(on_output, "stdout"))
    stderr = StreamCapture(keep, listen(on_output, "stderr"))
    readers = [
        threading.Thread(target=_pump, args=(proc.stdout, stdout, READ_SIZE), daemon=True),
        threading.Thread(target=_pump, args=(proc.stderr, stderr, READ_SIZE), daemon=True),
    ]
    for reader in readers:
        reader.start()
    stopped: Stopped = ""
    while any(r.is_alive() for r in readers) or proc.poll() is None:
        if cancel.is_set():
            stopped = "cancelled"
            break
        if time.monotonic() >= deadline:
            stopped = "timeout"
            break
        cancel.wait(_TICK)
        for reader in readers:
            reader.join(0)
    if stopped:
        subprocess.run(
            ["taskkill", "/T", "/F", "/PID", str(proc.pid)],  # noqa: S607 - a system tool, by name
            capture_output=True,
            check=False,
            timeout=GRACE_PERIOD,
        )
    for reader in readers:
        reader.join(DRAIN_PERIOD if stopped else None)
    proc.stdout.close()
    proc.stderr.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(GRACE_PERIOD)
    stdout.close()
    stderr.close()
    return Outcome(_exit_code(proc.returncode), stdout, stderr, stopped)
