"""Fast, fixed examples of bounded capture (``test_capture.py`` has the property tests).

Each answer is written out in full.
"""

from __future__ import annotations

import pytest

from tooldrop import truncate
from tooldrop_shell._capture import Piece, StreamCapture, join_pieces, stopped_text


def _captured(data: bytes, keep: int) -> Piece:
    capture = StreamCapture(keep)
    capture.feed(data)
    capture.close()
    return capture.piece()


@pytest.mark.parametrize(
    ("data", "text"),
    [
        pytest.param(b"doneX", "doneX", id="a-final-X-is-text"),
        pytest.param("done\t\n \u3000\ufeff\r\n".encode(), "done", id="js-whitespace-trimmed"),
        pytest.param("done\x85\x1c".encode(), "done\x85\x1c", id="not-js-whitespace-kept"),
    ],
)
def test_only_javascript_s_trailing_whitespace_is_trimmed(data, text):
    assert _captured(data, 50) == Piece(text, text, len(text))


def test_a_stopped_call_with_only_stdout_labels_it():
    got = stopped_text("timed out", Piece.of("partial"), Piece.of(""), 1000)
    assert got == ("timed out\n\nSTDOUT:\npartial", False)


def test_a_tail_longer_than_the_last_piece_takes_all_of_it():
    # the last 117 characters are wanted (limit 300 of 1580): all 80 digits, then 37 B's
    texts = ["A" * 1000, "B" * 500, "0123456789" * 8]
    pieces = [Piece(t[:300], t[-300:], len(t)) for t in texts]
    assert join_pieces(pieces, 300) == truncate("".join(texts), 300)
