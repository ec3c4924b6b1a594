"""A pattern RE2 cannot run is refused with RE2's reason, and RE2 itself prints nothing
(issue 21: the options that keep its log off stderr were never checked)."""

from __future__ import annotations

import pytest

from tooldrop.schemas._pattern import PatternError, compile_pattern


def test_a_pattern_re2_cannot_run_says_why_and_nothing_reaches_stderr(capfd):
    compile_pattern.cache_clear()
    with pytest.raises(PatternError) as info:
        compile_pattern("(a{999}){999}")
    assert str(info.value) == "RE2 cannot run this pattern: invalid repetition size: {999}"
    assert capfd.readouterr() == ("", "")


NOT_A_SCRIPT = "is not a script RE2 knows (scripts go by their long names: sc=Greek, not sc=Grek)"


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        # Unknown to RE2: asked of RE2 itself, answered without a word on stderr.
        (r"\p{sc=Klingon}", rf"\p{{sc=Klingon}}: Klingon {NOT_A_SCRIPT} (at position 14)"),
        (r"\p{sc=Grek}", rf"\p{{sc=Grek}}: Grek {NOT_A_SCRIPT} (at position 11)"),
        # Known to RE2's \p{...} but no Script value in ECMA-262 (a SyntaxError in JavaScript):
        # they must not come to mean "letters", "anything" or "not Greek".
        (r"\p{sc=L}", rf"\p{{sc=L}}: L {NOT_A_SCRIPT} (at position 8)"),
        (r"[\P{Script=Any}]", rf"\P{{Script=Any}}: Any {NOT_A_SCRIPT} (at position 15)"),
        (r"\p{sc=^Greek}", rf"\p{{sc=^Greek}}: ^Greek {NOT_A_SCRIPT} (at position 13)"),
    ],
)
def test_a_script_property_must_name_a_script(capfd, pattern, message):
    with pytest.raises(PatternError) as info:
        compile_pattern(pattern)
    assert str(info.value) == message
    assert capfd.readouterr() == ("", "")


def test_a_known_script_matches_its_letters_only():
    greek = compile_pattern(r"^\p{sc=Greek}+$")
    assert greek.search("αβγ") is not None
    assert greek.search("abc") is None
    assert compile_pattern(r"^\P{Script=Greek}$").search("a") is not None


def test_a_compiled_pattern_shows_its_ecma_source():
    assert repr(compile_pattern(r"^\d+$")) == r"Regex('^\\d+$')"
