"""tooldrop.yaml12: YAML 1.2 core schema, as the reference reads it (tool frontmatter,
skill.yaml, agent files)."""

from __future__ import annotations

import math

import pytest

from tooldrop.yaml12 import YamlError, load, too_big


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # YAML 1.1 booleans are strings in 1.2.
        ("yes", "yes"),
        ("no", "no"),
        ("on", "on"),
        ("off", "off"),
        ("y", "y"),
        ("true", True),
        ("True", True),
        ("TRUE", True),
        ("false", False),
        ("tRuE", "tRuE"),
        # Null.
        ("~", None),
        ("null", None),
        ("NULL", None),
        ("", None),
        ("nil", "nil"),
        # Integers: decimal even with a leading zero, 0o and 0x.
        ("010", 10),
        ("-7", -7),
        ("+5", 5),
        ("0o10", 8),
        ("0x1F", 31),
        ("0b11", "0b11"),
        ("30_000", "30_000"),
        ("1,000", "1,000"),
        ("12:30", "12:30"),  # sexagesimal is gone
        ("123456789012345678901234567890", 123456789012345678901234567890),
        # Floats.
        ("1e3", 1000.0),
        ("1.5", 1.5),
        (".5", 0.5),
        ("1.", 1.0),
        ("-.5e-2", -0.005),
        ("30000.0", 30000.0),
        # Dates and times are text.
        ("2024-01-01", "2024-01-01"),
        ("2024-01-01T10:00:00Z", "2024-01-01T10:00:00Z"),
        # Quoted scalars are always strings.
        ("'true'", "true"),
        ('"010"', "010"),
        ("'~'", "~"),
        # Explicit core tags still work.
        ("!!str 10", "10"),
        ("!!int '12'", 12),
        ("!!float 1", 1.0),
    ],
)
def test_core_schema_scalars(text: str, value: object) -> None:
    loaded = load(f"k: {text}")
    assert loaded == {"k": value}
    assert type(loaded["k"]) is type(value)
    # The same wherever the scalar stands: an item, a key, a nested value, the document.
    for found in (
        load(f"- {text}")[0],
        load(f"- - x\n  - {text}")[0][1],
        load(f"a:\n  b: {text}")["a"]["b"],
        load(text),
        *(load(f"{text}: v") if text else {None: 0}),
    ):
        assert found == value or (value is None and found is None)
        assert type(found) is type(value)


def test_special_floats() -> None:
    data = load("a: .inf\nb: -.Inf\nc: .NaN")
    assert data["a"] == math.inf and data["b"] == -math.inf and math.isnan(data["c"])


def test_merge_keys_are_ordinary_keys() -> None:
    assert load("base: &b {x: 1}\n<<: *b\n") == {"base": {"x": 1}, "<<": {"x": 1}}


def test_aliases_share_the_value() -> None:
    data = load("a: &x [1, 2]\nb: *x")
    assert data == {"a": [1, 2], "b": [1, 2]}


def test_a_duplicate_key_is_an_error_with_both_lines() -> None:
    with pytest.raises(YamlError) as caught:
        load("name: t\ndescription: d\nname: u", first_line=2)
    assert caught.value.key == "name"
    assert caught.value.line == 4
    assert 'duplicate key "name" (first on line 2)' in caught.value.message


def test_duplicate_keys_in_nested_mappings_too() -> None:
    with pytest.raises(YamlError, match='duplicate key "type"'):
        load("parameters:\n  x:\n    type: string\n    type: integer")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("a: [1", 1, "a [ list opens here (column 4) and is never closed"),
        ("a: 'unterminated", 1, "a quoted string opens here (column 4) and is never closed"),
        ("a: [1\nb: 2", 2, "did not find expected ',' or ']' (while parsing a flow sequence)"),
        ("a: 1\n---\nb: 2", 2, "expected a single document"),
        ("a: !!binary aGk=", 1, "unknown tag tag:yaml.org,2002:binary"),
        ("a: !!timestamp 2024-01-01", 1, "unknown tag"),
        ("a: !!set {x}", 1, "unknown tag"),
        ("a: !!python/object:os.system x", 1, "unknown tag"),
        ("a: !!int x", 1, '"x" is not a valid int'),
        ("a: !!bool yes", 1, '"yes" is not a valid bool'),
        ("? [a]\n: b", 1, "a mapping key must be a plain value"),
        ("a: &x [*x]", 1, "an alias refers to a value that contains it"),
    ],
)
def test_refused_yaml(text: str, line: int, message: str) -> None:
    with pytest.raises(YamlError) as caught:
        load(text)
    assert message in caught.value.message
    assert caught.value.line == line


@pytest.mark.parametrize(
    ("opened", "what", "column"),
    [
        ('"', "a quoted string", 7),
        ("'", "a quoted string", 7),
        ("[", "a [ list", 7),
        ("{", "a { mapping", 7),
        ("[a, 'b", "a quoted string", 11),  # the innermost: the quote inside the list
    ],
)
def test_an_unclosed_quote_or_bracket_is_reported_where_it_opens(
    opened: str, what: str, column: int
) -> None:
    # The parser notices at the end of the text; the person needs the line that opens it.
    text = f"name: t\ndescription: d\nenum: {opened}x,\n\n  y,\n  z\n"
    with pytest.raises(YamlError) as caught:
        load(text, first_line=2)
    assert caught.value.message == f"{what} opens here (column {column}) and is never closed"
    assert caught.value.line == 4  # the third line of a text that starts on line 2


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    with pytest.raises(YamlError):
        load("a: " + "[" * 100_000 + "]" * 100_000)


def test_an_alias_bomb_is_detected() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    data = load("\n".join(lines))  # shared values: loading is cheap
    assert too_big(data) is not None
    assert too_big(load("a: &x [1, 2]\nb: [*x, *x]")) is None


def test_a_scalar_or_list_root_loads_as_is() -> None:
    # The loader (not the YAML layer) refuses a root that is not a mapping.
    assert load("- 1") == [1]
    assert load("hello") == "hello"
    assert load("") is None


def test_loading_leaves_no_reference_cycles() -> None:
    # Discovery loads thousands of frontmatters; garbage that only the cyclic GC can free
    # would hold every mapping and list each one built until the next collection.
    import gc

    text = "a: &x [1, {b: 2}]\nb: *x\nc: {d: [e, f]}\n"
    load(text)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(3):
            load(text)
        gc.collect()
        assert gc.garbage == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_an_anchor_may_be_defined_again_and_the_later_one_wins() -> None:
    # YAML 1.2 allows it and the reference loads it; libyaml's C composer refuses it.
    assert load("a: &d 1\nb: &d 2\nc: *d\n") == {"a": 1, "b": 2, "c": 2}
    assert load("a: &d [1]\nb: *d\nc: &d {x: 2}\nd: *d\n") == {
        "a": [1],
        "b": [1],
        "c": {"x": 2},
        "d": {"x": 2},
    }


def test_a_redefined_anchor_keeps_the_other_checks() -> None:
    with pytest.raises(YamlError, match='duplicate key "a"') as caught:
        load("a: &d 1\nb: &d 2\na: 3\n", first_line=2)
    assert caught.value.line == 4
    with pytest.raises(YamlError, match="undefined alias"):
        load("a: &d 1\nb: &d 2\nc: *e\n")


def test_a_boolean_and_a_number_are_different_keys() -> None:
    # ``1 == True`` in Python, but ``1 !== true`` in the reference: two keys, no error.
    assert load("env: {1: x, true: y}") == {"env": {1: "x", "true": "y"}}
    assert load("env: {false: x, 0: y}") == {"env": {False: "x", "0": "y"}}


def test_numbers_equal_in_javascript_are_still_the_same_key() -> None:
    # ``1`` and ``1.0`` are both the number 1 to the reference, which refuses the pair.
    with pytest.raises(YamlError, match="duplicate key"):
        load("env: {1: x, 1.0: y}")
    with pytest.raises(YamlError, match='duplicate key "True"'):
        load("env: {true: x, True: y}")
