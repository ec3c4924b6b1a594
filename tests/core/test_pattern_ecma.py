"""A JSON Schema ``pattern`` means what ECMA-262 (JavaScript, ``u`` flag) says it means.

Each row was checked against node's ``RegExp(pattern, "u")``, falling back to the flagless
reading (Annex B) where only that one accepts the pattern, as the translator does (marked).
The strings sit on the edges of each set (the first and last code point in and out of every
range), so a set that is off by one, or a range turned around, shows here.
"""

from __future__ import annotations

import pytest

from tooldrop.schemas._pattern import PatternError, compile_pattern

MEANING = [
    (
        r"^.$",
        ["\x09", "\x0b", "\x0c", "\x0e", "\u2027", "\u202a", "\U0010ffff", "\U0001f600"],
        ["\x0a", "\x0d", "\u2028", "\u2029", ""],
    ),
    (
        r"^\s$",
        [
            "\x09",
            "\x0b",
            "\x0d",
            " ",
            "\xa0",
            "\u1680",
            "\u2000",
            "\u200a",
            "\u2028",
            "\u2029",
            "\u202f",
            "\u205f",
            "\u3000",
            "\ufeff",
        ],
        [
            "\x08",
            "\x0e",
            "\x1f",
            "!",
            "\xa1",
            "\u1681",
            "\u1fff",
            "\u200b",
            "\u2027",
            "\u202a",
            "\u180e",
        ],
    ),
    (
        r"^\S$",
        ["\x08", "\x0e", "!", "\xa1", "\u200b", "\uff00", "\U0010ffff"],
        ["\x09", "\x0d", " ", "\xa0", "\u200a", "\ufeff"],
    ),
    (r"^\d$", ["0", "9"], ["/", ":", "\u0663"]),
    (r"^\D$", ["/", ":", "\u0663"], ["0", "9"]),
    (r"^\w$", ["0", "9", "A", "Z", "_", "a", "z"], ["/", ":", "@", "[", "`", "{", "\xe9"]),
    (r"^\W$", ["@", "\xe9"], ["A", "_", "0"]),
    (r"^[\W\d]$", ["1", "-"], ["a"]),
    (r"^[^\d]$", ["a"], ["1"]),
    (r"^[^\D]$", ["1"], ["a"]),
    (r"^[\s\S]$", ["\x0a", "\U0001f600"], []),
    (r"\bfoo\b", ["a foo b", "foo", "\xe9foo\xe9"], ["afoo"]),
    (r"a\Bb", ["ab"], ["a b"]),
    (r"\B", ["", " ", "ab"], ["a"]),
    (r"^a1-$", ["a1-"], ["a1"]),
    (r"^\.\*\+\?\(\)\[\]\{\}\|\/\^\$\\$", [".*+?()[]{}|/^$\\"], ["a"]),
    (r"^[a-c]$", ["a", "b", "c"], ["`", "d"]),
    (r"^[^a-c]$", ["d", "\x0a", "\U0001f600"], ["b"]),
    (r"^[^]$", ["\x0a", "a"], [""]),
    (r"^[]$", [], ["", "a"]),
    (r"^[a-]$", ["a", "-"], ["b"]),
    (r"^[\w-]$", ["a", "-"], ["!"]),
    (r"^[a-b-d]$", ["a", "b", "-", "d"], ["c"]),
    (r"^[--0]$", ["-", "/", "0"], [",", "1"]),
    (r"^[\b]$", ["\x08"], ["b"]),
    (r"^[\-]$", ["-"], ["\\"]),
    (r"^[[:alpha:]]$", [":]", "a]"], ["a", "["]),  # Annex B
    (r"^[*(^$.]$", ["*", "(", "^", "$", "."], ["a"]),
    (r"^\cJ\cj[\cJ]$", ["\x0a\x0a\x0a"], ["J"]),
    (r"^[\cA-\cC]$", ["\x02"], ["\x04"]),
    (r"^\0[\0]$", ["\x00\x00"], ["00"]),
    (r"^\x41\u0042\u{43}\u{000044}$", ["ABCD"], []),
    (r"^[\x41-\u{43}]$", ["B"], ["D"]),
    (r"^\uD83D\uDE00[\uD83D\uDE00]$", ["\U0001f600\U0001f600"], []),
    (r"^[\u{1F600}-\u{1F602}]$", ["\U0001f601"], ["\U0001f603"]),
    (r"^\f\n\r\t\v[\f\n\r\t\v]$", ["\x0c\x0a\x0d\x09\x0b\x0b"], ["fnrtvv"]),
    (r"^\x7f\x80\xff\u00e9$", ["\x7f\x80\xff\xe9"], ["\x7f\x80\xffe\u0301"]),
    (r"^a{2}$", ["aa"], ["a", "aaa"]),
    (r"^a{2,}$", ["aa", "aaaaa"], ["a"]),
    (r"^a{2,3}$", ["aaa"], ["a", "aaaa"]),
    (r"^a{0}$", [""], ["a"]),
    (r"^a{,2}$", ["a{,2}"], ["aa"]),  # Annex B
    (r"^a{2}?$", ["aa"], []),
    (r"^a{2}{$", ["aa{"], []),  # Annex B
    (r"^a{1000}$", ["a" * 1000], ["a" * 999]),
    (r"^a{0,1000}$", ["a" * 1000], ["a" * 1001]),
    (r"^a+?$", ["aaa"], [""]),
    (r"^a??b$", ["ab", "b"], ["aab"]),
    (r"^(?:ab)+$", ["abab"], ["aba"]),
    (r"^(?<n>a)(?<$_x1>b)$", ["ab"], []),
    (r"^(a|b)$", ["a", "b"], ["ab"]),
    (r"^a|b$", ["ax", "xb"], ["xa"]),
    (r"^(|a)+$", ["", "aa"], []),
    (r"", ["", "x"], []),
    (r"^\é\/\-$", ["\xe9/-"], []),  # Annex B
    (r"^{}]$", ["{}]"], []),  # Annex B
    (r"^a{1,$", ["a{1,"], []),  # Annex B
    (r"^😀+$", ["\U0001f600\U0001f600"], []),
    (r"^[😀-😂é-ë]$", ["\U0001f601", "\xea"], ["\U0001f603", "e"]),
    (r"^\p{Any}$", ["a", "\x0a", "\U0001f600"], [""]),
    (r"^\P{Any}$", [], ["a", ""]),
    (r"^[\p{Any}]$", ["\x0a"], []),
    (r"^[\P{Any}]$", [], ["a"]),
    (r"^[^\P{Any}]$", ["a"], []),
    (r"^[^\p{Any}]$", [], ["a"]),
    (r"^[a\P{Any}]$", ["a"], ["b"]),
    (r"^\p{ASCII}$", ["\x00", "\x7f"], ["\x80", "\xe9"]),
    (r"^\P{ASCII}$", ["\x80", "\U0010ffff"], ["\x00", "\x7f"]),
    (r"^[\P{ASCII}]$", ["\x80"], ["\x7f"]),
    (r"^\p{gc=Lu}$", ["A"], ["a"]),
    (r"^\p{General_Category=Lowercase_Letter}$", ["a"], ["A"]),
    (r"^\P{Lu}$", ["a"], ["A"]),
    (r"^[\P{Lu}]$", ["a"], ["A"]),
    (r"^[^\P{Lu}]$", ["A"], ["a"]),
    (r"^\p{Letter}\p{Nd}\p{punct}$", ["\u03a9\u0663!"], ["\u03a93a"]),
    (r"^\p{sc=Greek}$", ["\u03b1"], ["a"]),
    (r"^\P{Script=Greek}$", ["a"], ["\u03b1"]),
    (r"^[\p{sc=Latin}\d]$", ["a", "1"], ["\u03b1"]),
]


@pytest.mark.parametrize(("pattern", "matching", "not_matching"), MEANING)
def test_a_pattern_matches_what_javascript_matches(pattern, matching, not_matching):
    regex = compile_pattern(pattern)
    assert [text for text in matching if regex.search(text) is None] == []
    assert [text for text in not_matching if regex.search(text) is not None] == []


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        ("^\ud800\udc00$", "\U00010000"),  # the first and last pair, in the pattern text
        ("^\udbff\udfff$", "\U0010ffff"),
        (r"^\uD800\uDC00$", "\U00010000"),  # and written as escapes
        (r"^\uDBFF\uDFFF$", "\U0010ffff"),
        (r"^\uD7FF\uE000$", "\ud7ff\ue000"),  # just outside the surrogates: characters
    ],
)
def test_surrogate_pairs_at_the_edges(pattern, text):
    assert compile_pattern(pattern).search(text) is not None


@pytest.mark.parametrize("pattern", ["\udfff", "a\ud800b", r"\uDFFF", r"\uD800", r"\uDBFF\uE000"])
def test_a_lone_surrogate_half_is_refused(pattern):
    with pytest.raises(PatternError, match="an unpaired surrogate cannot be matched"):
        compile_pattern(pattern)


def test_a_surrogate_pair_in_the_pattern_text_is_one_character():
    """A pattern from a JSON file written with ``\\ud83d\\ude00`` escapes (or a Python string
    built from UTF-16) holds the two halves; JavaScript reads them as one character."""
    assert compile_pattern("^\ud83d\ude00$").search("\U0001f600") is not None
    assert compile_pattern("^[\ud83d\ude00]$").search("\U0001f600") is not None


LOOKAROUND = "lookahead and lookbehind are not supported (RE2 has no lookaround)"
INLINE = "inline flags and other (?...) groups are not supported; only (?:...) and (?<name>...)"
NOT_A_CATEGORY = "is not supported: use a general category (L, Nd, ...) or sc=<Script>"
NOT_SUPPORTED = "is not supported (RE2 knows categories and scripts)"
TOO_MANY = "is above 1000; use minLength or maxLength for long strings"
REFUSED = [
    ("^*", "nothing to repeat: a quantifier cannot follow an anchor (at position 1)"),
    ("$+", "nothing to repeat: a quantifier cannot follow an anchor (at position 1)"),
    (r"\b?", "nothing to repeat: a quantifier cannot follow a word boundary (at position 2)"),
    (r"\B{2}", "nothing to repeat: a quantifier cannot follow a word boundary (at position 2)"),
    ("a**", "nothing to repeat: a quantifier cannot follow a quantifier (at position 2)"),
    ("a+{2}", "nothing to repeat: a quantifier cannot follow a quantifier (at position 2)"),
    ("a{2}{3}", "nothing to repeat: a quantifier cannot follow a quantifier (at position 4)"),
    ("a?*", "nothing to repeat: a quantifier cannot follow a quantifier (at position 2)"),
    ("*a", "nothing to repeat before '*' (at position 1)"),
    ("+", "nothing to repeat before '+' (at position 1)"),
    ("?", "nothing to repeat before '?' (at position 1)"),
    ("{1}", "nothing to repeat before '{' (at position 1)"),
    ("a|{2,3}", "nothing to repeat before '{' (at position 3)"),
    ("a{3,2}", "numbers out of order in {3,2} quantifier (at position 1)"),
    ("a{1001}", f"repetition count {{1001}} {TOO_MANY} (at position 1)"),
    ("a{0,1001}", f"repetition count {{0,1001}} {TOO_MANY} (at position 1)"),
    ("(?=a)", f"{LOOKAROUND} (at position 0)"),
    ("(?!a)", f"{LOOKAROUND} (at position 0)"),
    ("(?<=a)", f"{LOOKAROUND} (at position 0)"),
    ("(?<!a)", f"{LOOKAROUND} (at position 0)"),
    ("(?<n>a)(?<n>b)", "duplicate group name 'n' (at position 10)"),
    ("(?<>a)", "a named group needs a name: (?<name>...) (at position 3)"),
    ("(?<1a>a)", "a named group needs a name: (?<name>...) (at position 3)"),
    ("(?<n", "a named group needs a name: (?<name>...) (at position 3)"),
    ("(?P<n>a)", "(?P...) is Python syntax; ECMA-262 names a group (?<name>...) (at position 1)"),
    ("(?i)a", f"{INLINE} (at position 1)"),
    ("(?", f"{INLINE} (at position 1)"),
    ("(a", "missing ')' (at position 2)"),
    ("a)", "unmatched ')' (at position 1)"),
    ("())", "unmatched ')' (at position 2)"),
    (r"\c1", r"\c must be followed by a letter (at position 2)"),
    (r"\c", r"\c must be followed by a letter (at position 2)"),
    ("\\", "unexpected end of pattern (at position 1)"),
    (r"\01", "octal escapes are not ECMA-262 (with the u flag) (at position 2)"),
    (r"\x4", r"\x must be followed by two hex digits (at position 2)"),
    (r"\u12", r"\u must be followed by four hex digits or {...} (at position 2)"),
    (r"\u{}", r"\u{...} must hold hex digits (at position 2)"),
    (r"\u{110000}", r"\u{...} is above U+10FFFF (at position 2)"),
    (r"\u{zz}", r"\u{...} must hold hex digits (at position 2)"),
    (r"\u{41", r"\u{...} must hold hex digits (at position 2)"),
    (r"\1", "backreferences are not supported (RE2 cannot run them) (at position 2)"),
    (r"\k<n>", r"backreferences (\k<name>) are not supported (at position 2)"),
    (r"\a", r"\a is not an ECMA-262 escape (at position 2)"),
    (r"\Z", r"\Z is not an ECMA-262 escape (at position 2)"),
    (r"\uD83D", "an unpaired surrogate cannot be matched (at position 6)"),
    (r"\uDE00x", "an unpaired surrogate cannot be matched (at position 6)"),
    (r"\uD83D\u0041", "an unpaired surrogate cannot be matched (at position 6)"),
    ("\ud83d", "an unpaired surrogate cannot be matched (at position 1)"),
    (r"\p", r"\p must be followed by {name} (at position 2)"),
    (r"\p{L", r"missing '}' after \p{ (at position 2)"),
    (r"\p{Alphabetic}", rf"\p{{Alphabetic}} {NOT_A_CATEGORY} (at position 14)"),
    (r"\P{gc=Greek}", rf"\P{{gc=Greek}} {NOT_SUPPORTED} (at position 12)"),
    (r"\p{scx=Greek}", rf"\p{{scx=Greek}} {NOT_SUPPORTED} (at position 13)"),
    (r"[\d-z]", "a class escape cannot start or end a range (at position 5)"),
    (r"[a-\d]", "a class escape cannot start or end a range (at position 5)"),
    ("[z-a]", "range out of order in character class (at position 4)"),
    ("[a", "missing ']' (at position 2)"),
    (r"[\1]", "backreferences and octal escapes are not supported (at position 3)"),
    (r"[\k]", r"\k is not an ECMA-262 escape (at position 3)"),
    (r"[\p{Alphabetic}]", rf"\p{{Alphabetic}} {NOT_A_CATEGORY} (at position 15)"),
    (r"[\01]", "octal escapes are not ECMA-262 (with the u flag) (at position 3)"),
]


@pytest.mark.parametrize(("pattern", "message"), REFUSED)
def test_what_javascript_refuses_or_re2_cannot_run_is_refused_saying_why(pattern, message):
    with pytest.raises(PatternError) as info:
        compile_pattern(pattern)
    assert str(info.value) == message
