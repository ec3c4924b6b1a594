"""``tooldrop call`` on a terminal: the tool's output as it comes, the elapsed time while a
long call is quiet, and at the end only what the model's text adds to what was shown.

The model gets one framed, bounded text when the call ends (``EXIT_CODE: 0`` then the
output, cut to the output limit). A person at a terminal wants to see a slow tool's output
as the tool prints it. So on a terminal the output is held for :attr:`CallDisplay.HOLD`
seconds after it starts: a call that ends meanwhile (most calls) prints the model's text,
exactly as on a pipe. A call still running then streams (the backend's ``on_output``:
stdout to stdout, stderr to stderr), what was held first; and when it ends the model's text
is not printed again: only what it says beyond that output (``EXIT_CODE: 0``, ``Custom tool
timed out after 5000ms``, a sandbox's note) follows, on stderr. When the model's text is
more than the output plus such lines (it was cut to the limit, or a backend frames it its
own way), it is printed in full after a line saying so. ``--json`` never streams.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from typing import TextIO

from .._model import ToolResult
from ._format import paint

__all__ = ["CallDisplay", "isatty"]

#: Section labels the shell backend puts between streams: no news to someone who saw them.
_LABELS = frozenset(("STDOUT:", "STDERR:"))


def isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)  # None: no stream at all (pythonw, some services)
    return bool(isatty()) if callable(isatty) else False


class CallDisplay:
    """What the terminal shows while one call runs and when it ends.

    As a context manager it runs a thread that starts streaming held output after
    :attr:`HOLD` seconds, and shows ``… NAME running 12s`` on stderr after :attr:`AFTER`
    seconds while the cursor is at the start of a line (never in the middle of the tool's
    own output) and the call is not :attr:`paused` (a prompt is on screen); that line is
    erased before more output and at the end. The instance is the call's ``on_output``
    (:attr:`on_output`); :meth:`finish` prints the result. All of it only when stdout is a
    terminal: elsewhere :attr:`on_output` is ``None`` and :meth:`finish` prints exactly the
    model's text.
    """

    #: Seconds before a call's elapsed time is shown.
    AFTER = 2.0
    #: Seconds output is held after it starts, so a quick call prints just the model's text.
    HOLD = 0.5
    #: Characters held at most: a tool that prints faster than that streams at once.
    HELD = 65536

    def __init__(self, name: str, *, limit: int, stream: bool = True) -> None:
        self.name = name
        self.paused = False
        self.live = stream and isatty(sys.stdout)
        # One lock for the screen: the display's thread and the call's thread both write.
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._shown = False  # the elapsed-time line is on screen
        self._at_line_start = True
        self._first: float | None = None  # when output started
        self._held: list[tuple[str, str]] = []
        self._held_size = 0
        self._streaming = False
        # The output, kept to find it in the model's text; past the bound the model's text
        # is cut anyway, and is printed whole.
        self._bound = 2 * max(limit, 0) + 4096
        self._kept: dict[str, list[str]] = {"stdout": [], "stderr": []}
        self._size = 0
        self._thread: threading.Thread | None = None

    @property
    def on_output(self) -> CallDisplay | None:
        return self if self.live else None

    # -- the display's thread -------------------------------------------------------------

    def __enter__(self) -> CallDisplay:
        if self.live:
            self._thread = threading.Thread(target=self._tick, daemon=True, name="tooldrop-tick")
            self._thread.start()
        return self

    def _tick(self) -> None:
        start = time.monotonic()
        shown_seconds = -1
        ticker = isatty(sys.stderr)
        while not self._done.wait(0.1):
            now = time.monotonic()
            with self._lock:
                if self._held and self._first is not None and now - self._first >= self.HOLD:
                    self._stream()
                seconds = int(now - start)
                if (
                    ticker
                    and now - start >= self.AFTER
                    and seconds != shown_seconds
                    and not self.paused
                    and self._at_line_start
                ):
                    sys.stderr.write(f"\r\x1b[K… {self.name} running {seconds}s")
                    sys.stderr.flush()
                    self._shown = True
                    shown_seconds = seconds

    def _erase(self) -> None:
        if self._shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self._shown = False

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            self._erase()

    # -- the output -----------------------------------------------------------------------

    def __call__(self, text: str, stream: str) -> None:
        """``on_output``: hold a chunk of the tool's output, or print it where the tool did."""
        stream = "stderr" if stream == "stderr" else "stdout"
        with self._lock:
            if self._size <= self._bound:
                self._kept[stream].append(text)
                self._size += len(text)
            if self._streaming:
                self._write(text, stream)
                return
            if self._first is None:
                self._first = time.monotonic()
            self._held.append((text, stream))
            self._held_size += len(text)
            if self._held_size > self.HELD:
                self._stream()

    def _stream(self) -> None:
        """From now on the output is printed as it comes, what was held first (lock held)."""
        self._streaming = True
        for text, stream in self._held:
            self._write(text, stream)
        self._held.clear()

    def _write(self, text: str, stream: str) -> None:
        self._erase()
        target: TextIO = sys.stderr if stream == "stderr" else sys.stdout
        target.write(text)
        target.flush()
        self._at_line_start = text.endswith("\n")

    def end_line(self) -> None:
        """Move to a new line if the output left the cursor in the middle of one (a closed
        terminal, after a hang-up, cannot take it, and that is fine)."""
        with self._lock, contextlib.suppress(OSError, ValueError):
            if not self._at_line_start:
                self._at_line_start = True
                sys.stdout.write("\n")
                sys.stdout.flush()

    def finish(self, result: ToolResult) -> None:
        """Print the result: the model's text, or after streamed output only what it adds."""
        if not self._streaming:
            sys.stdout.write(result.text)
            # Exactly the model's text on a pipe; a terminal gets the final newline it expects.
            if result.text and not result.text.endswith("\n") and isatty(sys.stdout):
                sys.stdout.write("\n")
            sys.stdout.flush()
            return
        self.end_line()
        rest = None if result.truncated else self._rest(result.text)
        if rest is not None:
            if rest:
                print(paint(rest, dim=True), file=sys.stderr, flush=True)
            return
        why = " (cut to the output limit)" if result.truncated else ""
        print(paint(f"The model gets{why}:", dim=True), file=sys.stderr, flush=True)
        sys.stdout.write(result.text if result.text.endswith("\n") else result.text + "\n")
        sys.stdout.flush()

    def _rest(self, model: str) -> str | None:
        """The lines of ``model`` that are not the output shown, or ``None`` when the output
        shown is not in it whole (the backend cut or reframed it)."""
        if self._size > self._bound:
            return None
        rest = model
        # stdout comes last in the shell backend's text, stderr before it: search from the
        # end, so a short output is not found inside ``EXIT_CODE: 0``.
        for stream in ("stdout", "stderr"):
            shown = "".join(self._kept[stream]).rstrip()
            if not shown:
                continue
            at = rest.rfind(shown)
            if at < 0:
                return None
            rest = rest[:at] + rest[at + len(shown) :]
        lines = [line for line in rest.splitlines() if line.strip() and line not in _LABELS]
        return "\n".join(lines)
