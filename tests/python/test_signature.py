"""Schemas from type hints and signatures, descriptions from docstrings, values back to types."""

from __future__ import annotations

import dataclasses
import enum
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, Optional, TypedDict, Union

import attrs
import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldrop import CancelToken
from tooldrop.pytools._docstring import parse_docstring
from tooldrop.pytools._signature import args_type_schema, coerce, function_schema
from tooldrop.pytools._typeschema import SchemaError, type_schema


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Options(TypedDict):
    """Options.

    Attributes:
        depth: How deep to go.
    """

    depth: int
    tags: NotRequired[list[str]]


@dataclasses.dataclass
class Point:
    """A point.

    Args:
        x: Across.
    """

    x: float
    y: float = 0.0
    label: list[str] = dataclasses.field(default_factory=list)


@attrs.define
class Box:
    width: int
    _secret: str = "s"


@dataclasses.dataclass
class Node:
    children: list[Node]


TYPES = [
    (str, {"type": "string"}),
    (int, {"type": "integer"}),
    (float, {"type": "number"}),
    (bool, {"type": "boolean"}),
    (type(None), {"type": "null"}),
    (Any, {}),
    (list, {"type": "array"}),
    (list[int], {"type": "array", "items": {"type": "integer"}}),
    (Sequence[str], {"type": "array", "items": {"type": "string"}}),
    (set[str], {"type": "array", "uniqueItems": True, "items": {"type": "string"}}),
    (tuple[int, ...], {"type": "array", "items": {"type": "integer"}}),
    (
        tuple[int, str],
        {
            "type": "array",
            "prefixItems": [{"type": "integer"}, {"type": "string"}],
            "minItems": 2,
            "maxItems": 2,
        },
    ),
    (dict, {"type": "object"}),
    (dict[str, int], {"type": "object", "additionalProperties": {"type": "integer"}}),
    (Mapping[str, Any], {"type": "object"}),
    (Literal["a", "b"], {"type": "string", "enum": ["a", "b"]}),
    (Literal[1, "x"], {"enum": [1, "x"]}),
    (Color, {"type": "string", "enum": ["red", "green"]}),
    (Level, {"type": "integer", "enum": [1, 2]}),
    (Path, {"type": "string"}),
    (Optional[int], {"type": ["integer", "null"]}),  # noqa: UP045 - the spelling under test
    (int | None, {"type": ["integer", "null"]}),
    (Union[int, str], {"anyOf": [{"type": "integer"}, {"type": "string"}]}),  # noqa: UP007
    (
        int | str | None,
        {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]},
    ),
    (Literal["a"] | None, {"anyOf": [{"type": "string", "enum": ["a"]}, {"type": "null"}]}),
    (Annotated[int, "A count."], {"type": "integer", "description": "A count."}),
    (Annotated[int, {"minimum": 0}], {"type": "integer", "minimum": 0}),
    (
        Options,
        {
            "type": "object",
            "properties": {
                "depth": {"type": "integer", "description": "How deep to go."},
                "tags": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["depth"],
            "additionalProperties": False,
        },
    ),
    (
        Point,
        {
            "type": "object",
            "properties": {
                "x": {"type": "number", "description": "Across."},
                "y": {"type": "number", "default": 0.0},
                "label": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["x"],
            "additionalProperties": False,
        },
    ),
    (
        Box,
        {
            "type": "object",
            "properties": {
                "width": {"type": "integer"},
                "secret": {"type": "string", "default": "s"},
            },
            "required": ["width"],
            "additionalProperties": False,
        },
    ),
]


@pytest.mark.parametrize(("tp", "schema"), TYPES, ids=[repr(t) for t, _ in TYPES])
def test_type_schema(tp, schema):
    assert type_schema(tp) == schema
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize(
    ("tp", "message"),
    [
        (object(), "value: cannot describe"),
        (complex, "value: cannot describe complex as JSON Schema"),
        (dict[int, str], "value: JSON object keys are strings, not int"),
        (list[bytes], "value[*]: cannot describe bytes"),
        (Node, "value.children[*]: Node refers to itself; give an input_schema"),
        (Literal[b"x"], "value: enum value b'x' is not a JSON string, number or bool"),
    ],
)
def test_types_without_a_json_schema_say_which_and_where(tp, message):
    with pytest.raises(SchemaError) as caught:
        type_schema(tp)
    assert str(caught.value).startswith(message)


def test_an_unresolvable_forward_reference_is_a_schema_error():
    def f(x: NoSuchType) -> None:  # noqa: F821 - the unresolvable name is the test
        pass

    with pytest.raises(SchemaError, match=r"cannot resolve the type hints of .*NoSuchType"):
        function_schema(f)


# -- functions --------------------------------------------------------------------------


def weather(
    city: str,
    days: int = 3,
    unit: Literal["c", "f"] = "c",
    color: Color = Color.RED,
    note: str | None = None,
    when: Optional[int] = None,  # noqa: UP045 - the spelling under test
    detail: Annotated[str | None, "How much detail."] = None,
    cancel: CancelToken | None = None,
) -> str:
    """Get the weather
    for a city.

    A second paragraph, for people.

    Args:
        city: The city,
            e.g. Paris.
        days (int): How many days.

    Returns:
        The forecast.
    """
    return city


def test_function_schema():
    derived = function_schema(weather)
    assert derived.description == "Get the weather for a city."
    assert derived.cancel_param == "cancel"
    assert derived.fill_none == ()
    assert set(derived.convert) == {"color"}
    assert derived.schema == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "The city, e.g. Paris."},
            "days": {"type": "integer", "description": "How many days.", "default": 3},
            "unit": {"type": "string", "enum": ["c", "f"], "default": "c"},
            "color": {"type": "string", "enum": ["red", "green"], "default": "red"},
            "note": {"type": "string"},
            "when": {"type": "integer"},
            "detail": {"type": "string", "description": "How much detail."},
        },
        "required": ["city"],
        "additionalProperties": False,
    }


def test_optional_without_default_is_not_required_and_filled_with_none():
    def f(a: int | None, b: Optional[str], c: int) -> None:  # noqa: UP045
        pass

    derived = function_schema(f)
    assert derived.schema["required"] == ["c"]
    assert derived.fill_none == ("a", "b")


def test_the_cancel_parameter():
    def annotated(x: int, token: CancelToken) -> None: ...
    def named(x: int, cancel) -> None: ...
    def named_but_typed(x: int, cancel: bool = False) -> None: ...

    assert function_schema(annotated).cancel_param == "token"
    assert "token" not in function_schema(annotated).schema["properties"]
    assert function_schema(named).cancel_param == "cancel"
    # A parameter that happens to be called cancel but is typed is an ordinary parameter.
    assert function_schema(named_but_typed).cancel_param is None
    assert function_schema(named_but_typed).schema["properties"]["cancel"]["type"] == "boolean"


def test_kwargs_allows_extra_properties_and_args_is_ignored():
    def f(a: int, *rest: int, **extra: Any) -> None: ...

    schema = function_schema(f).schema
    assert schema["additionalProperties"] is True
    assert list(schema["properties"]) == ["a"]


def test_positional_only_parameters_cannot_be_named_arguments():
    def f(a: int, /) -> None: ...

    with pytest.raises(SchemaError, match="a: positional-only"):
        function_schema(f)


def test_unannotated_parameters_accept_anything():
    def f(a, b=2):
        pass

    assert function_schema(f).schema["properties"] == {"a": {}, "b": {"default": 2}}


def test_defaults_that_are_not_json_are_left_out_of_the_schema():
    def f(p: Path = Path("/tmp"), s: set[int] = frozenset({1})) -> None:
        pass

    props = function_schema(f).schema["properties"]
    assert "default" not in props["p"]
    assert props["s"]["default"] == [1]


def test_args_type_schema_of_a_dict_tools_execute():
    def typed(args: Options, cancel: CancelToken) -> str: ...
    def plain(args: dict[str, Any]) -> str: ...
    def bare(args): ...

    assert args_type_schema(typed) == type_schema(Options)
    assert args_type_schema(plain) is None
    assert args_type_schema(bare) is None
    assert args_type_schema(print) is None


# -- docstrings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "summary", "params"),
    [
        (None, "", {}),
        ("", "", {}),
        ("One line.", "One line.", {}),
        ("  Indented\n  summary.\n\n  Body.", "Indented summary.", {}),
        (
            """Google style.

            Args:
                a: First.
                b (int, optional): Second,
                    continued.
                *rest: Extras.

            Keyword Args:
                key: A keyword.

            Returns:
                c: Not a parameter.
            """,
            "Google style.",
            {"a": "First.", "b": "Second, continued.", "rest": "Extras.", "key": "A keyword."},
        ),
        (
            """Sphinx style.

            :param a: First,
                continued.
            :param int b: Second.
            :returns: Not a parameter.
            """,
            "Sphinx style.",
            {"a": "First, continued.", "b": "Second."},
        ),
        ("Args:\n    a: Only args.", "", {"a": "Only args."}),
        (
            "Summary.\nArgs:\n    a: No blank line before the section.",
            "Summary.",
            {"a": "No blank line before the section."},
        ),
        (
            "Summary.\n\nArgs:\n    a:\n        On the next line.",
            "Summary.",
            {"a": "On the next line."},
        ),
    ],
)
def test_parse_docstring(doc, summary, params):
    parsed = parse_docstring(doc)
    assert (parsed.summary, dict(parsed.params)) == (summary, params)


@given(st.text())
def test_parse_docstring_never_fails(text):
    parse_docstring(text)


# -- coercion ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "tp", "expected"),
    [
        ("red", Color, Color.RED),
        (2, Level, Level.HIGH),
        (3, float, 3.0),
        (True, bool, True),
        ([1, 2], tuple[int, int], (1, 2)),
        ([1, 2], tuple[int, ...], (1, 2)),
        ([1, 1], set[int], {1}),
        ([1], frozenset[int], frozenset({1})),
        (["red"], list[Color], [Color.RED]),
        ({"a": "red"}, dict[str, Color], {"a": Color.RED}),
        ("/tmp", Path, Path("/tmp")),
        (None, Color | None, None),
        ("red", Color | None, Color.RED),
        ("red", Annotated[Color, "doc"], Color.RED),
        ({"x": 1, "label": ["a"]}, Point, Point(x=1.0, label=["a"])),
        ({"width": 2, "secret": "t"}, Box, Box(width=2, secret="t")),
        ({"depth": 1, "tags": ["x"]}, Options, {"depth": 1, "tags": ["x"]}),
        ("as is", int | str, "as is"),
        ({"k": 1}, Any, {"k": 1}),
    ],
)
def test_coerce(value, tp, expected):
    got = coerce(value, tp)
    assert got == expected
    assert type(got) is type(expected)


# -- property: derived schemas accept exactly the values of their types ------------------

scalars = st.sampled_from([str, int, float, bool, Color, Literal["x", "y"]])


def types() -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            inner.map(lambda t: list[t]),
            inner.map(lambda t: dict[str, t]),
            inner.map(lambda t: Optional[t]),  # noqa: UP045
            st.tuples(inner, inner).map(lambda ts: tuple[ts[0], ts[1]]),
        ),
        max_leaves=5,
    )


def values_of(tp: Any) -> st.SearchStrategy[Any]:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is str:
        return st.text(max_size=5)
    if tp is int:
        return st.integers()
    if tp is float:
        return st.floats(allow_nan=False, allow_infinity=False) | st.integers()
    if tp is bool:
        return st.booleans()
    if tp is Color:
        return st.sampled_from(["red", "green"])
    if origin is Literal:
        return st.sampled_from(args)
    if origin is list:
        return st.lists(values_of(args[0]), max_size=3)
    if origin is dict:
        return st.dictionaries(st.text(max_size=3), values_of(args[1]), max_size=3)
    if origin is tuple:
        return st.tuples(*(values_of(a) for a in args)).map(list)
    if origin is Union:
        return st.none() | values_of(args[0])
    raise AssertionError(tp)


@settings(max_examples=200)
@given(st.data())
def test_a_derived_schema_accepts_every_value_of_its_type_and_coerce_keeps_it(data):
    tp = data.draw(types())
    schema = type_schema(tp)
    jsonschema.Draft202012Validator.check_schema(schema)
    value = data.draw(values_of(tp))
    jsonschema.validate(value, schema)
    coerce(value, tp)  # never raises on a valid value


@given(types(), st.one_of(st.binary(), st.builds(object), st.frozensets(st.integers(), min_size=1)))
def test_a_derived_schema_refuses_values_that_are_not_json(tp, value):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(value, type_schema(tp))
