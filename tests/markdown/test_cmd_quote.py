"""``cmd_quote``: a value cmd.exe cannot receive safely is refused with what it holds."""

from __future__ import annotations

import pytest

from tooldrop import RenderError
from tooldrop_markdown import cmd_quote


@pytest.mark.parametrize(
    ("value", "what"),
    [
        pytest.param("100%", "a percent sign", id="percent"),
        pytest.param("a\nb", "a newline", id="newline"),
        pytest.param("a\rb", "a carriage return", id="carriage-return"),
        pytest.param("a\0b", "a NUL byte", id="nul"),
    ],
)
def test_an_unsafe_value_is_refused(value: str, what: str) -> None:
    with pytest.raises(RenderError, match=f"A value contains {what}, which cmd.exe cannot"):
        cmd_quote(value)


def test_a_plain_value_is_one_quoted_word() -> None:
    assert cmd_quote('say "hi"') == '"say ""hi"""'
