"""Bounded capture of a stream, and the text the model sees, built from what was kept.

A tool may print a gigabyte; the model sees ``output_limit`` characters, cut by
:func:`tooldrop.truncate` into a head, a marker and a tail. So for each stream we keep only
its first and last ``keep`` characters (``keep >= output_limit``) and count the rest, and
build the final text from those ends: the result is identical to truncating the whole text,
at a memory cost that does not grow with the output.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple

from tooldrop import OutputCallback, join_truncated, split_budget

__all__ = ["Piece", "StreamCapture", "join_pieces", "listen", "output_text", "stopped_text"]


_UTF8 = codecs.getincrementaldecoder("utf-8")

#: What JavaScript's ``trimEnd`` removes (ECMA-262 WhiteSpace and LineTerminator), which is
#: how the reference trims a tool's output. Python's ``str.rstrip()`` differs both ways: it
#: also strips U+001C..U+001F and U+0085, and keeps U+FEFF.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


class Piece(NamedTuple):
    """A text known by its ends: ``head`` and ``tail`` each hold ``min(length, keep)`` chars."""

    head: str
    tail: str
    length: int

    @classmethod
    def of(cls, text: str) -> Piece:
        """A text known in full."""
        return cls(text, text, len(text))


class StreamCapture:
    """One output stream, decoded as UTF-8 as it arrives and right-trimmed, in bounded memory.

    Invalid bytes become U+FFFD; a character split across two reads stays whole. What is
    kept is the first ``keep`` characters, the last ``keep`` characters before the trailing
    whitespace (JavaScript's, :data:`JS_WHITESPACE`), the last ``keep`` characters of that
    whitespace (it stops being trailing when more text follows), and counts.

    ``on_text``, when given, gets each decoded piece as it is decoded, untrimmed and whole
    (a person watching the call, :attr:`tooldrop.ToolCall.on_output`).
    """

    __slots__ = ("_decode", "_head", "_keep", "_length", "_on_text", "_tail", "_ws", "_ws_count")

    def __init__(self, keep: int, on_text: Callable[[str], None] | None = None) -> None:
        self._keep = max(keep, 0)
        self._on_text = on_text
        # Made on first use: most tools never write to stderr.
        self._decode: Callable[..., str] | None = None
        self._head = ""
        self._tail = ""
        self._ws = ""
        self._ws_count = 0
        #: Characters up to and including the last non-whitespace one: the trimmed length.
        self._length = 0

    def feed(self, data: bytes) -> None:
        """Add bytes as they were read from the stream."""
        if self._decode is None:
            self._decode = _UTF8("replace").decode
        self._add(self._decode(data))

    def close(self) -> None:
        """The stream ended: an incomplete character at its end becomes U+FFFD."""
        if self._decode is not None:
            self._add(self._decode(b"", True))

    def _add(self, text: str) -> None:
        if not text:
            return
        if self._on_text is not None:
            self._on_text(text)
        keep = self._keep
        if len(self._head) < keep:
            self._head += text[: keep - len(self._head)]
        content = text.rstrip(JS_WHITESPACE)
        if not content:  # whitespace only: trailing for now, kept in case text follows
            self._ws = (self._ws + text[-keep:])[-keep:] if keep else ""
            self._ws_count += len(text)
            return
        n = len(content)
        self._length += self._ws_count + n
        if n >= keep:
            self._tail = content[-keep:] if keep else ""
        else:
            self._tail = (self._tail + self._ws + content)[-keep:]
        trailing = text[n:]
        self._ws = trailing[-keep:] if keep else ""
        self._ws_count = len(trailing)

    def piece(self) -> Piece:
        """The right-trimmed text seen so far, by its ends."""
        return Piece(self._head[: self._length], self._tail, self._length)


def listen(
    on_output: OutputCallback | None, stream: Literal["stdout", "stderr"]
) -> Callable[[str], None] | None:
    """What a capture of ``stream`` calls with each decoded piece: ``on_output(text, stream)``."""
    if on_output is None:
        return None
    return lambda text: on_output(text, stream)


def _take_head(pieces: Sequence[Piece], n: int) -> str:
    parts: list[str] = []
    have = 0
    for piece in pieces:
        if have >= n:
            break
        # A piece longer than its head has at least ``keep >= n`` characters in it: enough.
        part = piece.head[: n - have]
        parts.append(part)
        have += len(part)
    return "".join(parts)


def _take_tail(pieces: Sequence[Piece], n: int) -> str:
    parts: list[str] = []
    have = 0
    for piece in reversed(pieces):
        if have >= n:
            break
        want = n - have
        part = piece.tail[len(piece.tail) - want :] if want < len(piece.tail) else piece.tail
        parts.append(part)
        have += len(part)
    return "".join(reversed(parts))


def join_pieces(pieces: Sequence[Piece], limit: int) -> tuple[str, bool]:
    """The concatenation of ``pieces`` cut to ``limit`` chars exactly as :func:`tooldrop.truncate`.

    Every piece must know at least ``limit`` characters at each end (or be whole).
    """
    total = sum(piece.length for piece in pieces)
    if limit <= 0:
        return "", total > 0
    if total <= limit:  # then every piece is short enough to be known in full
        return "".join(piece.head for piece in pieces), False
    n_head, n_tail, _ = split_budget(total, limit)
    head, tail = _take_head(pieces, n_head), _take_tail(pieces, n_tail)
    return join_truncated(head, tail, total, limit), True


def _streams(stdout: Piece, stderr: Piece) -> list[Piece]:
    if stderr.length:
        return [Piece.of("STDERR:\n"), stderr, Piece.of("\nSTDOUT:\n"), stdout]
    return [stdout]


def output_text(exit_code: int, stdout: Piece, stderr: Piece, limit: int) -> tuple[str, bool]:
    """``EXIT_CODE: N\\n<stdout>``, or with ``STDERR:``/``STDOUT:`` sections when stderr is not
    empty (the reference's format), cut to ``limit``; and whether it was cut."""
    return join_pieces([Piece.of(f"EXIT_CODE: {exit_code}\n"), *_streams(stdout, stderr)], limit)


def stopped_text(message: str, stdout: Piece, stderr: Piece, limit: int) -> tuple[str, bool]:
    """An error ``message`` (timed out, cancelled), then after a blank line the output
    printed before the process was stopped, each stream labelled; cut to ``limit``."""
    if not stdout.length and not stderr.length:
        return join_pieces([Piece.of(message)], limit)
    streams = _streams(stdout, stderr) if stderr.length else [Piece.of("STDOUT:\n"), stdout]
    return join_pieces([Piece.of(f"{message}\n\n"), *streams], limit)
