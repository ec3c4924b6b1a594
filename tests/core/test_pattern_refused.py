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
