"""Run-again warnings read the script with each section left out: ``awk {{# a }}'{print}'
{{/ a }} {{ x }}`` gives awk the value as its program when ``a`` is false."""

from __future__ import annotations

import pytest

from .conftest import frontmatter

PARAMS = "  x:\n    type: string\n  a:\n    type: boolean\n  b:\n    type: boolean\n"
AWK = "awk {{#a}}'{print}'{{/a}} {{ x }}"
WARNING = "{{ x }} is given to awk"


def warnings(load, before: int) -> list[str]:
    """The warnings for the awk line after ``before`` sections that only add an argument."""
    body = "echo" + " {{#b}} w {{/b}}" * before + "\n" + AWK
    result = load(frontmatter(body, PARAMS))
    assert result.tools, [p.format() for p in result.problems]
    return [p.message for p in result.problems if p.severity == "warning"]


@pytest.mark.parametrize("before", [0, 15])
def test_the_program_section_left_out_warns(load, before: int) -> None:
    assert any(WARNING in m for m in warnings(load, before))


@pytest.mark.parametrize("before", [16, 17, 60])
def test_a_section_past_the_sixteenth_left_out_warns(load, before: int) -> None:
    assert any(WARNING in m for m in warnings(load, before))


def test_a_body_with_too_many_sections_to_read_says_so(load) -> None:
    # 1,500 sections over 4,500 tokens: reading each left out would scan 6.75 million
    # tokens. The check reads the body once and says what it could not read.
    body = "echo" + " {{#b}} w {{/b}}" * 1500 + "\n" + AWK
    result = load(frontmatter(body, PARAMS))
    assert result.tools, [p.format() for p in result.problems]
    (warning,) = [p.message for p in result.problems if p.severity == "warning"]
    assert "this body has 1501 sections, too many for the check of values given" in warning
