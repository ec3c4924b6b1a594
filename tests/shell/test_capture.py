"""Bounded capture gives exactly what truncating the whole output would, however it arrives."""

from __future__ import annotations

import itertools
import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tooldrop import split_budget, truncate
from tooldrop_shell._capture import Piece, StreamCapture, join_pieces, output_text, stopped_text

# ECMA-262's WhiteSpace (TAB, VT, FF, ZWNBSP and every Zs character) and LineTerminator (LF,
# CR, LS, PS): what JavaScript's trimEnd removes, derived here from the Unicode database
# rather than copied from the code under test.
JS_WHITESPACE = "\t\v\f\ufeff\n\r\u2028\u2029" + "".join(
    c for c in map(chr, range(0x110000)) if unicodedata.category(c) == "Zs"
)

_WHITESPACE = [" ", "\n", "\r", "\t", "\x0b", "\x0c", "\x1c", "\x85", "\u3000", "\u2028"]
_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from(["a", "b", "é", "€", "😀", "\ufffd", *_WHITESPACE]),
        st.characters(),
    ),
    max_size=60,
)
_CHUNK = st.one_of(
    _TEXT.map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.binary(max_size=40),  # invalid UTF-8 too
    st.sampled_from(_WHITESPACE).map(lambda w: (w * 30).encode()),  # long runs of trailing space
    st.just(b"\xc3"),  # half of "é"
    st.just(b"\xa9"),
    st.just(b"\xf0\x9f"),  # half of an emoji
    st.just(b"\x98\x80"),
)


@st.composite
def streams(draw: st.DrawFn) -> list[bytes]:
    """A byte stream, cut into reads at arbitrary places (so characters split across reads)."""
    data = b"".join(draw(st.lists(_CHUNK, max_size=12)))
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=8)))
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


def _capture(chunks: list[bytes], keep: int) -> Piece:
    capture = StreamCapture(keep)
    for chunk in chunks:
        capture.feed(chunk)
    capture.close()
    return capture.piece()


def _reference(chunks: list[bytes]) -> str:
    """The unbounded way: keep every byte, decode once, trim once."""
    return b"".join(chunks).decode("utf-8", "replace").rstrip(JS_WHITESPACE)


@settings(max_examples=1500)
@given(
    out=streams(),
    err=streams(),
    code=st.integers(0, 255),
    limit=st.integers(-2, 250),
    spare=st.integers(0, 40),
)
def test_bounded_output_equals_truncating_the_whole_text(out, err, code, limit, spare):
    keep = max(limit, 0) + spare  # the backend keeps at least the limit at each end
    full_out, full_err = _reference(out), _reference(err)
    if full_err:
        full = f"EXIT_CODE: {code}\nSTDERR:\n{full_err}\nSTDOUT:\n{full_out}"
    else:
        full = f"EXIT_CODE: {code}\n{full_out}"
    got = output_text(code, _capture(out, keep), _capture(err, keep), limit)
    assert got == truncate(full, limit)


@settings(max_examples=500)
@given(out=streams(), err=streams(), limit=st.integers(0, 200))
def test_stopped_text_equals_truncating_the_whole_text(out, err, limit):
    full_out, full_err = _reference(out), _reference(err)
    message = "Custom tool timed out after 10ms"
    if full_err:
        full = f"{message}\n\nSTDERR:\n{full_err}\nSTDOUT:\n{full_out}"
    elif full_out:
        full = f"{message}\n\nSTDOUT:\n{full_out}"
    else:
        full = message
    assert stopped_text(message, _capture(out, limit), _capture(err, limit), limit) == truncate(
        full, limit
    )


@given(chunks=streams(), keep=st.integers(0, 30))
def test_piece_holds_the_ends_of_the_trimmed_text(chunks, keep):
    text = _reference(chunks)
    piece = _capture(chunks, keep)
    assert piece.length == len(text)
    assert piece.head == text[:keep]
    assert piece.tail == (text[-keep:] if keep else "")


# The marker alone is about 100 characters: limits and texts must go well past it, or every
# case ends in the marker's own cut and the head and tail are never joined (issue 21).
_TEXTS = st.lists(st.text(alphabet="abcxyz\n", max_size=300), min_size=1, max_size=5)


@example(texts=["x"], limit=0)  # a one-character text, cut to nothing, was cut
@given(_TEXTS, st.integers(-1, 400))
def test_join_pieces_of_whole_texts_is_truncate(texts, limit):
    assert join_pieces([Piece.of(t) for t in texts], limit) == truncate("".join(texts), limit)


@given(_TEXTS, st.integers(1, 400), st.integers(0, 200))
def test_join_pieces_of_texts_known_by_their_ends_is_truncate(texts, limit, extra):
    keep = limit + extra  # what a capture keeps: at least the limit at each end
    pieces = [Piece(t[:keep], t[-keep:], len(t)) for t in texts]
    assert join_pieces(pieces, limit) == truncate("".join(texts), limit)


def test_join_pieces_takes_the_tail_from_the_last_piece_and_the_head_from_the_first():
    texts = ["H" * 200, "m" * 200, "T" * 200]
    text, cut = join_pieces([Piece(t[:150], t[-150:], 200) for t in texts], 150)
    n_head, n_tail, marker = split_budget(600, 150)
    assert (n_head, n_tail) != (0, 0)
    assert (text, cut) == ("H" * n_head + marker + "T" * n_tail, True)


def test_a_character_split_across_reads_stays_whole():
    capture = StreamCapture(100)
    for byte in "é😀".encode():
        capture.feed(bytes([byte]))
    capture.close()
    assert capture.piece().head == "é😀"


def test_invalid_bytes_become_replacement_characters():
    capture = StreamCapture(100)
    capture.feed(b"a\xffb\xc3")
    capture.close()  # a truncated character at the very end is replaced too
    assert capture.piece().head == "a\ufffdb\ufffd"


def test_memory_stays_bounded():
    capture = StreamCapture(10)
    for _ in range(1000):
        capture.feed(b"x" * 1000 + b"   \n")
    capture.close()
    piece = capture.piece()
    assert piece.length == 1000 * 1004 - 4
    assert len(piece.head) == len(piece.tail) == 10
    assert all(len(s) <= 10 for s in (capture._head, capture._tail, capture._ws))
