"""Fast, fixed examples of bounded capture (``test_capture.py`` has the property tests).

Each answer is written out in full.
"""

from __future__ import annotations

import pytest

from tooldrop_shell._capture import Piece, StreamCapture, stopped_text


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
