"""More of what an ECMA-262 pattern means, at the edges the translator's own code has.

Every row was checked against node's ``RegExp(pattern, "u")``: the matching strings match
there, the others do not, and the refused patterns are SyntaxErrors there (the message is
ours: it says why, and where), but for the lone surrogate halves: JavaScript matches such a
half as one UTF-16 unit, which no Python string from valid JSON text is, so they are refused
(as in ``test_pattern_ecma.py``).
"""

from __future__ import annotations

import pytest

from tooldrop.schemas._pattern import PatternError, compile_pattern

MEANING = [
    # U+0000 is a character like any other: in ".", in every negated class
    pytest.param(r"^.$", ["\x00"], ["\n"], id="dot-matches-nul"),
    pytest.param(r"^\D$", ["\x00"], ["0"], id="non-digit-nul"),
    pytest.param(r"^[^a]$", ["\x00", "b"], ["a"], id="negated-class-nul"),
    # a class (or property) matching nothing, made optional, matches the empty string
    pytest.param(r"^[]*$", [""], ["a"], id="empty-class-repeated"),
    pytest.param(r"^a[]?b$", ["ab"], ["a", "aab"], id="empty-class-optional"),
    pytest.param(r"^\P{Any}?$", [""], ["a"], id="not-any-optional"),
    # an upper-case X is a plain letter (not an alternative's end, not an anchor)
    pytest.param(r"^aXb$", ["aXb"], ["ab", "axb"], id="letter-X"),
    pytest.param(r"^X+$", ["X", "XX"], ["", "x"], id="letter-X-repeated"),
    # the first character after the surrogates, written as itself
    pytest.param("^\ud7ff\ue000$", ["\ud7ff\ue000"], ["\U00010000"], id="around-surrogates"),
    pytest.param(r"^[\-]$", ["-"], ["\\"], id="escaped-hyphen-in-class"),
    pytest.param(r"^\x4A\u004b\u{4C}$", ["JKL"], ["jkl"], id="hex-escapes"),
]


@pytest.mark.parametrize(("pattern", "matching", "not_matching"), MEANING)
def test_a_pattern_matches_what_javascript_matches(pattern, matching, not_matching):
    regex = compile_pattern(pattern)
    assert [text for text in matching if regex.search(text) is None] == []
    assert [text for text in not_matching if regex.search(text) is not None] == []


UNPAIRED = "an unpaired surrogate cannot be matched"
REPEAT = "nothing to repeat: a quantifier cannot follow a quantifier"
REFUSED = [
    pytest.param("a*+", f"{REPEAT} (at position 2)", id="star-plus"),
    pytest.param("a*??", f"{REPEAT} (at position 3)", id="lazy-then-question"),
    pytest.param(r"\xXY", r"\x must be followed by two hex digits (at position 2)", id="x-not-hex"),
    pytest.param(
        r"\uXXXX", r"\u must be followed by four hex digits or {...} (at position 2)", id="u-X"
    ),
    pytest.param(r"\u{X}", r"\u{...} must hold hex digits (at position 2)", id="u-braces-X"),
    pytest.param("(?<ab", "a named group needs a name: (?<name>...) (at position 3)", id="no-gt"),
    # two low halves, or a high half before a character that is no low half: no pair
    pytest.param("\udc00\udc00", f"{UNPAIRED} (at position 1)", id="low-low-text"),
    pytest.param("\ud800\ue000", f"{UNPAIRED} (at position 1)", id="high-then-E000-text"),
    pytest.param(r"\uDC00\uDC00", f"{UNPAIRED} (at position 6)", id="low-low-escapes"),
    pytest.param(r"\u0041\uDC00", f"{UNPAIRED} (at position 12)", id="letter-then-low"),
]


@pytest.mark.parametrize(("pattern", "message"), REFUSED)
def test_what_javascript_refuses_is_refused_saying_why(pattern, message):
    with pytest.raises(PatternError) as info:
        compile_pattern(pattern)
    assert str(info.value) == message
