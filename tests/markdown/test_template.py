"""The template engine: sections, placeholders and values, against the reference's vectors."""

from __future__ import annotations

import doctest
import itertools
import math
import pickle
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldrop import RenderError
from tooldrop_markdown import Template, _quote, cmd_quote, posix_quote, render
from tooldrop_markdown._template import Section, Var, parse, tokenize


def tpl(source: str) -> Template:
    template, problems = parse(source, tokenize(source))
    assert problems == []
    return template


def r(source: str, args: dict[str, Any] | None = None) -> str:
    return render(tpl(source), args or {}, posix_quote)


@pytest.mark.parametrize(
    ("source", "args", "expected"),
    [
        ("echo {{ msg }}", {"msg": "hi'there"}, "echo 'hi'\\''there'"),  # T8
        ("echo {{ missing }}", {}, "echo "),  # T9
        (
            "echo {{ name }}",
            {"name": '; rm -rf /; echo "pwned"'},
            "echo '; rm -rf /; echo \"pwned\"'",
        ),  # T11
        ("echo {{ name }}", {"name": "`$(date)`"}, "echo '`$(date)`'"),  # T12
        ("a {{# foo }}YES{{/ foo }}b", {"foo": ""}, "a b"),  # T13
        ("a {{# foo }}YES{{/ foo }}b", {"foo": []}, "a b"),  # T14
        ("a {{# foo }}YES{{/ foo }}b", {"foo": 0}, "a b"),  # T15
        ("{{# a }}A{{# b }}B{{/ b }}{{/ a }}", {"a": True, "b": True}, "AB"),  # T16
        ("{{# a }}A{{# b }}B{{/ b }}{{/ a }}", {"a": True, "b": False}, "A"),
        ("{{# a }}A{{# b }}B{{/ b }}{{/ a }}", {"a": False, "b": True}, ""),
        ("{{^ flag }}off{{/ flag }}", {"flag": False}, "off"),  # T17
        ("{{^ flag }}off{{/ flag }}", {}, "off"),
        ("{{^ flag }}off{{/ flag }}", {"flag": ""}, "off"),
        ("{{^ flag }}off{{/ flag }}", {"flag": True}, ""),
        ("{{^ flag }}off{{/ flag }}", {"flag": "x"}, ""),
        (
            "{{# json }}A {{ id }}{{/ json }}{{^ json }}B {{ id }}{{/ json }}",
            {"json": True, "id": "1"},
            "A '1'",
        ),  # T18
        (
            "{{# json }}A {{ id }}{{/ json }}{{^ json }}B {{ id }}{{/ json }}",
            {"json": False, "id": "1"},
            "B '1'",
        ),
        # Whitespace, newlines included, inside the braces; none needed.
        ("{{\n x \n}}|{{x}}|{{#x}}s{{/x}}|{{#\n x\n}}t{{/\tx }}", {"x": "v"}, "'v'|'v'|s|t"),
        # Names: upper case and underscores; anything else is text.
        ("{{ Name_1 }} {{ _x }}", {"Name_1": "a", "_x": "b"}, "'a' 'b'"),
        (
            "{{ x.y }} {{ 1x }} {{ -x }} {{! c }} {{ .Names }}",
            {"x": "v"},
            "{{ x.y }} {{ 1x }} {{ -x }} {{! c }} {{ .Names }}",
        ),
        ("{{{ x }}}", {"x": "v"}, "{'v'}"),
        # Inserted values are never read again as template text.
        ("{{ a }} {{ b }}", {"a": "{{ b }}", "b": "{{# a }}"}, "'{{ b }}' '{{# a }}'"),
        # Adjacent sections.
        ("{{# a }}1{{/ a }}{{# a }}2{{/ a }}", {"a": 1}, "12"),
    ],
)
def test_render_vectors(source: str, args: dict[str, Any], expected: str) -> None:
    assert r(source, args) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("hello", "'hello'"),  # T1
        ("it's a test", "'it'\\''s a test'"),  # T2
        ("; rm -rf /", "'; rm -rf /'"),  # T3
        ("`whoami`", "'`whoami`'"),  # T4
        ("$(whoami)", "'$(whoami)'"),
        ("a\nb", "'a\nb'"),  # T5
        ("", "''"),
        (42, "'42'"),  # T7
        (True, "'true'"),
        (False, "'false'"),
        (0, "'0'"),
        (-0.0, "'0'"),
        (2.0, "'2'"),
        (1.5e21, "'1.5e+21'"),
        (1e-7, "'1e-7'"),
        (1e20, "'100000000000000000000'"),
        (0.1 + 0.2, "'0.30000000000000004'"),
        ({"a": "b'c"}, "'{\"a\":\"b'\\''c\"}'"),
        ({"n": 2.0, "l": [None, True]}, '\'{"n":2,"l":[null,true]}\''),
        ({}, "'{}'"),
        (["a", "b c", "d'e"], "'a' 'b c' 'd'\\''e'"),  # T6
        ([[1, 2], "a"], "'[1,2]' 'a'"),
        ([None, 1.0, {"k": 1}], "'null' '1' '{\"k\":1}'"),
        ([], ""),
        ([""], "''"),
        (None, ""),
    ],
)
def test_values_render_as_javascript_would(value: Any, expected: str) -> None:
    assert r("{{ v }}", {"v": value}) == expected


@pytest.mark.parametrize(
    ("value", "truthy"),
    [
        (None, False), ("", False), (0, False), (0.0, False), (float("nan"), False),
        (False, False), ([], False), (" ", True), ("0", True), ("false", True),
        ([""], True), ({}, True), (-1, True), (0.5, True), (True, True),
    ],
)  # fmt: skip
def test_truthiness(value: Any, truthy: bool) -> None:
    assert r("{{# v }}T{{/ v }}{{^ v }}F{{/ v }}", {"v": value}) == ("T" if truthy else "F")


# Numbers as JavaScript's String() writes them (ECMAScript's Number::toString; each row was
# checked against node): a tool file renders the same here as under the reference.
@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1.5, "1.5"), (-1.5, "-1.5"), (0.5, "0.5"), (123.456, "123.456"), (-0.25, "-0.25"),
        (0.0001, "0.0001"), (0.000123, "0.000123"), (1e-6, "0.000001"), (1.5e-6, "0.0000015"),
        (1e-7, "1e-7"), (-1e-7, "-1e-7"), (1.25e-7, "1.25e-7"), (5e-324, "5e-324"),
        (3.0, "3"), (-3.0, "-3"), (0.0, "0"), (-0.0, "0"), (1e20, "100000000000000000000"),
        (1.2345e20, "123450000000000000000"), (1e21, "1e+21"), (-1e21, "-1e+21"),
        (1.5e21, "1.5e+21"), (1.7976931348623157e308, "1.7976931348623157e+308"),
        (2.0**53, "9007199254740992"), (2.0**54 + 4, "18014398509481988"),
        (-(2.0**60), "-1152921504606847000"),  # the shortest digits, not the exact ones
        (2**64, "18446744073709551616"),  # an integer the model sent: its digits, exactly
        (True, "true"), (False, "false"),
        (math.nan, "NaN"), (math.inf, "Infinity"), (-math.inf, "-Infinity"),
    ],
)  # fmt: skip
def test_numbers_are_written_as_javascript_writes_them(value: Any, expected: str) -> None:
    assert _quote.js_number(value) == expected
    assert r("{{ v }}", {"v": value}) == posix_quote(expected)


def test_the_number_examples_in_the_docstring_hold() -> None:
    result = doctest.testmod(_quote)
    assert result.attempted > 0
    assert result.failed == 0


# Objects and arrays as JSON.stringify writes them (checked against node).
@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (
            {"f": False, "t": True, "n": None, "i": -3, "x": 1.5, "e": 1e21},
            '{"f":false,"t":true,"n":null,"i":-3,"x":1.5,"e":1e+21}',
        ),
        (
            {"nan": math.nan, "inf": math.inf, "-inf": -math.inf},
            '{"nan":null,"inf":null,"-inf":null}',
        ),
        ({"é": "ü😀"}, '{"é":"ü😀"}'),  # not escaped as \\uXXXX: as JSON.stringify
        ({"s": "a\ud800b\udfff"}, '{"s":"a\\ud800b\\udfff"}'),  # lone surrogates are escaped
        ({"q": 'say "hi"\\\n'}, '{"q":"say \\"hi\\"\\\\\\n"}'),
        ({1: [1, [2, "3"]], "t": (None,)}, '{"1":[1,[2,"3"]],"t":[null]}'),
        ([{"a": []}, {}], '[{"a":[]},{}]'),
        ([Decimal("1.5")], '["1.5"]'),  # no JSON form (a host's own object): its text
        (False, "false"),
        (None, "null"),
    ],
)
def test_objects_are_written_as_json_stringify_writes_them(value: Any, expected: str) -> None:
    assert _quote.js_json(value) == expected


def test_a_nul_byte_is_refused() -> None:
    with pytest.raises(RenderError, match="NUL"):
        r("echo {{ v }}", {"v": "a\0b"})


@pytest.mark.parametrize(
    ("value", "expected"),
    [("plain", '"plain"'), ('say "hi"', '"say ""hi"""'), ("a & b | c", '"a & b | c"'),
     ("it's", '"it\'s"'), (["a", 'b"c'], '"a" "b""c"')],
)  # fmt: skip
def test_cmd_quoting(value: Any, expected: str) -> None:
    assert render(tpl("{{ v }}"), {"v": value}, cmd_quote) == expected


@pytest.mark.parametrize("value", ["%PATH%", "100%", "a\nb", "a\rb", "a\0b", ["ok", "50%"]])
def test_cmd_refuses_what_it_cannot_carry(value: Any) -> None:
    with pytest.raises(RenderError, match=r"cmd\.exe"):
        render(tpl("echo {{ v }}"), {"v": value}, cmd_quote)


@pytest.mark.parametrize(
    ("value", "what"),
    [("50%", "a percent sign"), ("a\nb", "a newline"), ("a\rb", "a carriage return"),
     ("a\0b", "a NUL byte")],
)  # fmt: skip
def test_cmd_says_which_character_it_cannot_carry(value: str, what: str) -> None:
    with pytest.raises(RenderError) as refused:
        render(tpl("echo {{ v }}"), {"v": value}, cmd_quote)
    assert str(refused.value) == (
        f"⚒ A value contains {what}, which cmd.exe cannot receive safely; the tool was not run"
    )


def test_a_nul_byte_is_refused_with_a_message_that_says_so() -> None:
    with pytest.raises(RenderError) as refused:
        r("echo {{ v }}", {"v": ["ok", "a\0b"]})
    assert str(refused.value) == "⚒ A value contains a NUL byte, which a shell script cannot carry"


def test_the_parsed_template_is_plain_picklable_data() -> None:
    template = tpl("a{{# s }}b{{ x }}{{/ s }}{{^ s }}c{{/ s }}")
    assert template.nodes == (
        "a",
        Section("s", False, ("b", Var("x"))),
        Section("s", True, ("c",)),
    )
    assert pickle.loads(pickle.dumps(template)) == template


def test_a_template_is_its_source_for_equality_hashing_and_repr() -> None:
    # A host keys caches by templates: two parses of one source are one key, another source
    # is another, and a template never equals a bare string.
    a, again, other = tpl("echo {{ x }}"), Template("echo {{ x }}"), tpl("echo {{ y }}")
    assert a == again and hash(a) == hash(again)
    assert a != other and len({a, again, other}) == 2
    assert a != "echo {{ x }}"
    assert repr(a) == "Template(source='echo {{ x }}')"
    # A template built from its source alone parses it on first render.
    assert render(again, {"x": "v"}, posix_quote) == "echo 'v'"


def test_an_unclosed_section_renders_only_the_text_before_it() -> None:
    # Loading refuses such a body; a host rendering one itself gets the text before the
    # first unclosed section and nothing of what that section held.
    assert render(Template("a {{# s }}b{{# t }}c"), {"s": 1, "t": 1}, posix_quote) == "a "
    assert render(Template("a {{^ s }}b"), {}, posix_quote) == "a "


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("{{# a }}x", "section {{# a }} is never closed; add {{/ a }} where it should end"),
        ("x{{/ a }}", "{{/ a }} closes no section"),
        ("{{# a }}{{# b }}{{/ a }}{{/ b }}", "{{/ a }} does not close {{# b }}"),
        ("{{# a }}1{{# a }}2{{/ a }}3{{/ a }}", 'stands inside another section named "a"'),
        ("{{# a }}1{{^ a }}2{{/ a }}3{{/ a }}", 'stands inside another section named "a"'),
        (
            "{{^ a }}1{{# a }}2{{/ a }}",
            'section {{# a }} stands inside another section named "a"; Nanocoder would close '
            "it at the first {{/ a }}. Merge the two sections or rename one",
        ),
        ("{{^ b }}x", "section {{^ b }} is never closed; add {{/ b }} where it should end"),
        (
            "{{^ a }}{{# b }}{{/ a }}{{/ b }}",
            "{{/ a }} does not close {{# b }} (opened before it); close sections in the "
            "reverse order of opening them",
        ),
        ("x{{/ a }}", "{{/ a }} closes no section; remove it or add {{# a }} before it"),
    ],
)
def test_unbalanced_sections_are_problems(source: str, message: str) -> None:
    _, problems = parse(source, tokenize(source))
    assert any(message in text for _, text in problems), problems


@given(
    st.lists(
        st.sampled_from(
            [
                "a",
                " ",
                "\n",
                "{",
                "}",
                "{{",
                "}}",
                "#",
                "^",
                "/",
                "x",
                "{{ x }}",
                "{{#x}}",
                "{{/ x }}",
                "{{^\ny\n}}",
                "{{ .x }}",
            ]
        ),
        max_size=40,
    )
)
def test_tokens_cover_the_source_exactly(pieces: list[str]) -> None:
    source = "".join(pieces)
    tokens = tokenize(source)
    assert "".join(source[t.start : t.end] for t in tokens) == source
    assert all(t.value == source[t.start : t.end] for t in tokens if t.kind == "text")
    assert all(a.end == b.start for a, b in itertools.pairwise(tokens))


SECTIONED = st.lists(
    st.sampled_from(["a", " ", "{{ x }}", "{{ y }}", "{{# a }}", "{{^ a }}", "{{/ a }}",
                     "{{# b }}", "{{/ b }}", "{{/ c }}", "{{", "}}"]),
    max_size=30,
).map("".join)  # fmt: skip


@given(SECTIONED)
def test_loading_finds_the_problems_parsing_finds_and_renders_the_same_tree(source: str) -> None:
    # Loading checks the sections without building the tree (most tools are never called);
    # the tree is built on first render, from the source.
    from tooldrop_markdown._template import check

    tokens = tokenize(source)
    parsed, problems = parse(source, tokens)
    checked, found = check(source, tokens)
    assert found == problems
    assert checked == parsed
    assert checked.nodes == parsed.nodes
