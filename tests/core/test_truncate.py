"""What the model sees of a long output, written out by hand (issue 21: the capture tests
compare against ``truncate()`` itself, so they cannot see a change in it)."""

from __future__ import annotations

from tooldrop import truncate, truncation_marker
from tooldrop.calls._output import join_truncated

MARKER_100 = (
    "\n... [Output truncated: 100 characters total; "
    "request a narrower result to inspect omitted content] ...\n"
)


def test_the_marker_says_how_long_the_whole_output_was():
    assert truncation_marker(100) == MARKER_100


def test_a_limit_shorter_than_the_marker_gives_the_start_of_the_marker():
    assert truncate("x" * 100, 10) == ("\n... [Outp", True)
    assert truncate("x" * 100, 1) == ("\n", True)
    marker = truncation_marker(1000)
    assert truncate("x" * 1000, len(marker)) == (marker, True)  # the marker alone fills it


def test_a_limit_of_zero_or_less_shows_nothing():
    assert truncate("x" * 100, 0) == ("", True)
    assert truncate("", 0) == ("", False)
    assert join_truncated("x" * 100, "x" * 100, 100, 0) == ""
    assert join_truncated("x" * 100, "x" * 100, 100, -5) == ""


def test_a_long_output_keeps_two_fifths_of_the_room_for_its_start_and_the_rest_for_its_end():
    text = "".join(chr(ord("a") + i % 26) for i in range(1000))
    limit = len(truncation_marker(1000)) + 100
    cut, truncated = truncate(text, limit)
    assert truncated
    assert cut == text[:40] + truncation_marker(1000) + text[-60:]
    assert len(cut) == limit
    assert truncate(text, 1000) == (text, False)
    assert truncate(text, len(truncation_marker(1000)) + 1) == (
        truncation_marker(1000) + text[-1:],
        True,
    )
