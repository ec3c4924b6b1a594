"""Exports: one ToolSpec, five provider formats, each checked against the provider's own shape.

The JSON Schemas in ``export_schemas/`` are written from each provider's documented tool
format (the URL is in each file's ``$comment``); every definition we export must validate.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldrop import (
    EXPORT_FORMATS,
    NAME_RULES,
    ExportedTools,
    Origin,
    ToolSpec,
    export_tools,
    mcp_annotations,
    why_not_strict,
)

SCHEMAS = Path(__file__).parent / "export_schemas"

#: Schemas of the kinds tools really have: markdown tools (flat, additionalProperties false),
#: Python tools (type hints: $defs, Optional, maps), and the odd hand-written one.
NO_PARAMS = {"type": "object", "properties": {}, "additionalProperties": False}
ALL_REQUIRED = {
    "type": "object",
    "properties": {
        "namespace": {"type": "string", "description": "The namespace", "pattern": "^[a-z0-9-]+$"},
        "count": {"type": "integer", "minimum": 1, "maximum": 10},
        "color": {"type": "string", "enum": ["red", "green"]},
    },
    "required": ["namespace", "count", "color"],
    "additionalProperties": False,
}
WITH_OPTIONAL = {
    "type": "object",
    "properties": {
        "namespace": {"type": "string", "maxLength": 63},
        "selector": {"type": "string", "description": "A label selector"},
        "limit": {"type": "integer", "default": 20},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["namespace"],
    "additionalProperties": False,
}
NESTED = {
    "type": "object",
    "properties": {
        "filter": {
            "type": "object",
            "properties": {"level": {"type": "integer", "enum": [1, 2, 3]}},
            "required": ["level"],
            "additionalProperties": False,
        },
        "note": {"type": ["string", "null"]},
    },
    "required": ["filter", "note"],
    "additionalProperties": False,
}
PYTHON_STYLE = {
    "type": "object",
    "properties": {
        "point": {"$ref": "#/$defs/Point"},
        "label": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
    },
    "required": ["point"],
    "$defs": {
        "Point": {
            "type": "object",
            "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
            "required": ["x", "y"],
        }
    },
}
MAP = {
    "type": "object",
    "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}},
    "required": ["labels"],
}
RECURSIVE = {
    "type": "object",
    "properties": {"tree": {"$ref": "#/$defs/Node"}},
    "required": ["tree"],
    "additionalProperties": False,
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
            "required": ["name", "children"],
            "additionalProperties": False,
        }
    },
}
ALL_SCHEMAS = {
    "no_params": NO_PARAMS,
    "all_required": ALL_REQUIRED,
    "with_optional": WITH_OPTIONAL,
    "nested": NESTED,
    "python_style": PYTHON_STYLE,
    "map": MAP,
    "recursive": RECURSIVE,
}


def spec(name: str = "k8s_pods", schema: object = NO_PARAMS, **fields: object) -> ToolSpec:
    values: dict[str, object] = {
        "name": name,
        "description": f"The {name} tool.",
        "input_schema": schema,
        "approval": "never",
        "read_only": True,
        "origin": Origin(
            source="markdown", scope="project", path=Path(f"/p/.tooldrop/tools/{name}.md"), line=1
        ),
        "runner": "shell",
    }
    values.update(fields)
    return ToolSpec(**values)  # type: ignore[arg-type]


@functools.cache
def provider_schema(fmt: str) -> jsonschema.Draft202012Validator:
    data = json.loads((SCHEMAS / f"{fmt}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(data)
    return jsonschema.Draft202012Validator(data)


# -- each format has the provider's shape ---------------------------------------------------


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
@pytest.mark.parametrize("kind", ALL_SCHEMAS)
def test_every_definition_validates_against_the_providers_documented_schema(fmt, kind):
    exported = export_tools([spec(kind, ALL_SCHEMAS[kind])], fmt)
    assert len(exported) == 1
    errors = [e.message for e in provider_schema(fmt).iter_errors(exported[0])]
    assert errors == []
    assert json.loads(json.dumps(exported)) == exported  # plain JSON, nothing exotic


def test_the_provider_schemas_do_reject_a_wrong_shape():
    # Guards the guard: a definition in another provider's shape must fail each schema.
    openai = export_tools([spec()], "openai")[0]
    anthropic = export_tools([spec()], "anthropic")[0]
    assert list(provider_schema("anthropic").iter_errors(openai))
    assert list(provider_schema("openai").iter_errors(anthropic))
    assert list(provider_schema("openai-responses").iter_errors(openai))
    assert list(provider_schema("mcp").iter_errors(anthropic))
    assert list(
        provider_schema("gemini").iter_errors(
            {"name": "x", "description": "", "parameters": NO_PARAMS}
        )
    )


def test_openai_chat_nests_the_function_and_responses_is_flat():
    tool = spec("k8s_pods", ALL_REQUIRED)
    chat = export_tools([tool], "openai")[0]
    flat = export_tools([tool], "openai-responses")[0]
    assert chat == {
        "type": "function",
        "function": {
            "name": "k8s_pods",
            "description": "The k8s_pods tool.",
            "parameters": ALL_REQUIRED,
            "strict": True,
        },
    }
    assert flat == {"type": "function", **chat["function"]}


def test_anthropic_and_mcp_shapes():
    tool = spec("k8s_pods", WITH_OPTIONAL, approval="destructive", read_only=False)
    assert export_tools([tool], "anthropic")[0] == {
        "name": "k8s_pods",
        "description": "The k8s_pods tool.",
        "input_schema": WITH_OPTIONAL,
    }
    assert export_tools([tool], "mcp")[0] == {
        "name": "k8s_pods",
        "description": "The k8s_pods tool.",
        "inputSchema": WITH_OPTIONAL,
        "annotations": {"readOnlyHint": False, "destructiveHint": True},
    }


# -- strict ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "strict"),
    [
        ("no_params", True),
        ("all_required", True),
        ("nested", True),
        ("with_optional", False),
        ("python_style", False),
        ("map", False),
        ("recursive", True),  # OpenAI supports recursion through $defs
    ],
)
@pytest.mark.parametrize("fmt", ["openai", "openai-responses"])
def test_openai_strict_is_always_sent_and_true_only_when_the_schema_qualifies(fmt, kind, strict):
    exported = export_tools([spec(kind, ALL_SCHEMAS[kind])], fmt)
    definition = exported[0]["function"] if fmt == "openai" else exported[0]
    assert definition["strict"] is strict
    notes = [p for p in exported.problems if p.severity == "info"]
    assert bool(notes) is not strict  # a non-strict tool says why
    if notes:
        assert notes[0].message.startswith("not strict: ")
        assert notes[0].path == Path(f"/p/.tooldrop/tools/{kind}.md")


@pytest.mark.parametrize(
    ("kind", "strict"),
    [
        ("no_params", True),
        ("all_required", False),  # minimum/maximum are not in Anthropic's subset
        ("nested", True),
        ("with_optional", False),  # maxLength
        ("python_style", False),  # objects without additionalProperties: false
        ("recursive", False),  # no recursion
    ],
)
def test_anthropic_strict_is_sent_only_when_true(kind, strict):
    exported = export_tools([spec(kind, ALL_SCHEMAS[kind])], "anthropic")
    assert exported[0].get("strict", "absent") == (True if strict else "absent")


def test_anthropic_strict_allows_optional_properties():
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "boolean", "default": False}},
        "required": ["a"],
        "additionalProperties": False,
    }
    assert why_not_strict(schema, "anthropic") == []
    assert why_not_strict(schema, "openai") == [
        'b: is optional; strict mode needs every property in "required" '
        '(say "type": [..., "null"] for a value that may be left out)',
        'b: "default" is not supported in strict mode',
    ]


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        (
            {"type": "object", "properties": {}},
            '(root): objects need "additionalProperties": false',
        ),
        (
            {
                "type": "object",
                "properties": {"x": {"type": "string"}},
                "required": ["x"],
                "additionalProperties": True,
            },
            '(root): objects need "additionalProperties": false',
        ),
        (
            {
                **NESTED,
                "properties": {
                    **NESTED["properties"],
                    "filter": {**NESTED["properties"]["filter"], "additionalProperties": True},
                },
            },
            'filter: objects need "additionalProperties": false',
        ),
        (
            {
                "type": "object",
                "properties": {"d": {"type": "string", "format": "binary"}},
                "required": ["d"],
                "additionalProperties": False,
            },
            'd: format "binary" is not supported in strict mode',
        ),
        (
            {
                "type": "object",
                "properties": {"d": {"type": "string", "pattern": "^(?!x).*$"}},
                "required": ["d"],
                "additionalProperties": False,
            },
            "d: patterns with lookahead or lookbehind are not supported",
        ),
        (
            {
                "type": "object",
                "properties": {"d": {"type": "string", "minLength": 1}},
                "required": ["d"],
                "additionalProperties": False,
            },
            'd: "minLength" is not supported in strict mode',
        ),
        (
            {
                "type": "object",
                "properties": {"d": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
                "required": ["d"],
                "additionalProperties": False,
            },
            'd: "oneOf" is not supported in strict mode',
        ),
        (
            {
                "type": "object",
                "properties": {
                    "d": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"e": {"type": "string"}},
                            "additionalProperties": False,
                        },
                    }
                },
                "required": ["d"],
                "additionalProperties": False,
            },
            'd[].e: is optional; strict mode needs every property in "required" '
            '(say "type": [..., "null"] for a value that may be left out)',
        ),
        (
            {"anyOf": [{"type": "object", "properties": {}, "additionalProperties": False}]},
            '(root): the root must be {"type": "object"}',
        ),
    ],
)
def test_why_not_strict_names_the_parameter_and_the_rule(schema, reason):
    assert reason in why_not_strict(schema, "openai")


def test_why_not_strict_for_anthropic_reports_recursion_and_unsupported_keywords():
    assert "(root): recursive schemas are not supported" in why_not_strict(RECURSIVE, "anthropic")
    assert 'count: "minimum" is not supported in strict mode' in why_not_strict(
        ALL_REQUIRED, "anthropic"
    )
    backref = {
        "type": "object",
        "properties": {"w": {"type": "string", "pattern": r"(a)\1"}},
        "required": ["w"],
        "additionalProperties": False,
    }
    assert why_not_strict(backref, "anthropic") == [
        "w: patterns with backreferences or \\b are not supported"
    ]
    assert why_not_strict(backref, "openai") == []
    assert why_not_strict(NESTED, "anthropic") == []


def test_openai_limits_nesting_depth():
    schema: dict = {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }
    inner = schema
    for _ in range(11):
        child: dict = {
            "type": "object",
            "properties": {},
            "required": [],
            "additionalProperties": False,
        }
        inner["properties"]["x"] = child
        inner["required"] = ["x"]
        inner = child
    assert any("nest deeper than 10" in r for r in why_not_strict(schema, "openai"))


def test_an_unknown_strict_target_is_refused():
    with pytest.raises(ValueError, match="OpenAI or Anthropic"):
        why_not_strict(NO_PARAMS, "gemini")  # type: ignore[arg-type]


def test_anthropic_strict_budget_holds_for_the_whole_request():
    tools = [spec(f"tool_{i}", NO_PARAMS) for i in range(21)]
    exported = export_tools(tools, "anthropic")
    assert [d.get("strict", False) for d in exported] == [True] * 20 + [False]
    (note,) = exported.problems
    assert note.severity == "info"
    assert "at most 20 strict tools per request" in note.message
    optional = {
        "type": "object",
        "properties": {f"p{i}": {"type": "string"} for i in range(13)},
        "additionalProperties": False,
    }
    exported = export_tools([spec("a", optional), spec("b", optional)], "anthropic")
    assert [d.get("strict", False) for d in exported] == [True, False]
    assert "over 24 optional parameters" in exported.problems[0].message


# -- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fits"),
    [
        ("k8s_pods", {"openai", "openai-responses", "anthropic", "gemini", "mcp"}),
        ("a" * 64, {"openai", "openai-responses", "anthropic", "gemini", "mcp"}),
        ("a" * 65, {"mcp"}),
        ("a" * 129, set()),
        ("team.deploy", {"gemini", "mcp"}),
        ("ns:tool", {"gemini"}),
        ("1st-tool", {"openai", "openai-responses", "anthropic", "mcp"}),
        ("has space", set()),
        ("ünïcode", set()),
        ("trailing_newline\n", set()),
    ],
)
def test_names_are_checked_against_each_targets_rule(name, fits):
    tool = spec(name)
    for fmt in EXPORT_FORMATS:
        exported = export_tools([tool], fmt)
        assert (len(exported) == 1) is (fmt in fits), fmt
        if fmt not in fits:
            (problem,) = exported.problems
            assert problem.severity == "error"
            assert problem.field == "name"
            assert problem.path == tool.origin.path
            assert problem.line == 1
            assert f'"{name}"' in problem.message
            assert NAME_RULES[fmt].pattern in problem.message
            assert "rename the tool" in problem.message


def test_one_bad_name_leaves_the_others_in_order():
    tools = [spec("first"), spec("x" * 70), spec("third")]
    exported = export_tools(tools, "openai")
    assert [d["function"]["name"] for d in exported] == ["first", "third"]
    assert len(exported.problems) == 1


# -- gemini ---------------------------------------------------------------------------------


def test_gemini_converts_to_the_openapi_subset():
    declaration = export_tools([spec("k8s_pods", WITH_OPTIONAL)], "gemini")[0]
    assert declaration == {
        "name": "k8s_pods",
        "description": "The k8s_pods tool.",
        "parameters": {
            "type": "OBJECT",
            "properties": {
                "namespace": {"type": "STRING", "maxLength": 63},
                "selector": {"type": "STRING", "description": "A label selector"},
                "limit": {"type": "INTEGER", "default": 20},
                "tags": {"type": "ARRAY", "items": {"type": "STRING"}},
            },
            "required": ["namespace"],
            "propertyOrdering": ["namespace", "selector", "limit", "tags"],
        },
    }


def test_gemini_nullable_enums_and_refs():
    nested = export_tools([spec("n", NESTED)], "gemini")[0]["parameters"]["properties"]
    # Gemini enums are strings only: an integer choice stays visible in the description.
    assert nested["filter"]["properties"]["level"] == {
        "type": "INTEGER",
        "description": "One of: 1, 2, 3.",
    }
    assert nested["note"] == {"type": "STRING", "nullable": True}
    python = export_tools([spec("p", PYTHON_STYLE)], "gemini")[0]["parameters"]["properties"]
    assert python["point"]["properties"] == {"x": {"type": "NUMBER"}, "y": {"type": "NUMBER"}}
    assert python["label"] == {"type": "STRING", "nullable": True, "default": None}


def test_gemini_leaves_parameters_out_for_a_tool_without_any():
    assert export_tools([spec("bare")], "gemini")[0] == {
        "name": "bare",
        "description": "The bare tool.",
    }


@pytest.mark.parametrize("kind", ["map", "recursive"])
def test_gemini_sends_what_the_subset_cannot_express_as_json_schema(kind):
    exported = export_tools([spec(kind, ALL_SCHEMAS[kind])], "gemini")
    assert exported[0]["parametersJsonSchema"] == ALL_SCHEMAS[kind]
    assert "parameters" not in exported[0]
    (note,) = exported.problems
    assert note.severity == "info"
    assert "parametersJsonSchema" in note.message


# -- mcp annotations ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("approval", "read_only", "requires_approval", "hints"),
    [
        ("never", True, False, {"readOnlyHint": True, "destructiveHint": False}),
        ("never", False, False, {"readOnlyHint": False, "destructiveHint": False}),
        ("destructive", False, False, {"readOnlyHint": False, "destructiveHint": True}),
        ("always", False, False, {"readOnlyHint": False, "destructiveHint": True}),
        ("always", True, False, {"readOnlyHint": True, "destructiveHint": False}),
        ("never", False, True, {"readOnlyHint": False, "destructiveHint": True}),
    ],
)
def test_mcp_annotations_follow_the_approval_policy(approval, read_only, requires_approval, hints):
    tool = spec(approval=approval, read_only=read_only, requires_approval=requires_approval)
    assert mcp_annotations(tool) == hints
    assert export_tools([tool], "mcp")[0]["annotations"] == hints


# -- the host and the command line ----------------------------------------------------------


def test_exported_tools_are_a_list_with_problems():
    exported = export_tools([spec("ok"), spec("not ok")], "openai")
    assert isinstance(exported, list)
    assert isinstance(exported, ExportedTools)
    assert exported.format == "openai"
    assert len(exported) == 1
    assert len(exported.problems) == 1
    assert repr(exported) == "<ExportedTools openai: 1 tools, 1 problems>"


def test_exports_are_copies_the_host_may_change():
    schema = copy.deepcopy(WITH_OPTIONAL)
    tool = spec("k", schema)
    for fmt in EXPORT_FORMATS:
        exported = export_tools([tool], fmt)
        json.dumps(exported)
        for definition in exported:
            definition.clear()
    assert tool.input_schema == WITH_OPTIONAL
    chat = export_tools([tool], "openai")[0]
    chat["function"]["parameters"]["properties"]["namespace"]["maxLength"] = 1
    assert schema["properties"]["namespace"]["maxLength"] == 63


@pytest.mark.parametrize("bad", [{1, 2}, float("nan"), object()])
def test_a_schema_that_is_not_json_is_left_out_not_sent(bad):
    schema = {"type": "object", "properties": {"x": {"type": "number", "default": bad}}}
    for fmt in EXPORT_FORMATS:
        exported = export_tools([spec("odd", schema), spec("fine")], fmt)
        json.dumps(exported, allow_nan=False)
        assert len(exported) == 1
        (problem,) = [p for p in exported.problems if p.severity == "error"]
        assert 'tool "odd" is left out' in problem.message
        assert "its schema is not JSON" in problem.message


def test_an_unknown_format_is_refused_with_the_known_ones():
    with pytest.raises(
        ValueError, match="expected one of: openai, openai-responses, anthropic, gemini, mcp"
    ):
        export_tools([spec()], "claude")  # type: ignore[arg-type]


def test_host_export_covers_the_tools_available_in_its_mode(make_host, tool_pack, spec_factory):
    pack = tool_pack(
        spec_factory("reader", approval="never", read_only=True),
        spec_factory("writer", approval="always", read_only=False),
    )
    normal = make_host(pack)
    assert [d["name"] for d in normal.export("mcp")] == ["reader", "writer"]
    headless = make_host(pack, mode="headless")
    assert [d["name"] for d in headless.export("mcp")] == ["reader"]
    assert [p for p in headless.export("openai").problems if p.severity == "error"] == []


def test_schema_command_prints_json_on_stdout_and_problems_on_stderr(tmp_path):
    project = tmp_path / "project"
    tools = project / ".tooldrop" / "tools"
    tools.mkdir(parents=True)
    (tools / "k8s-pods.md").write_text(
        "---\n"
        "name: k8s_pods\n"
        "description: List pods in a namespace.\n"
        "parameters:\n"
        "  namespace:\n"
        "    type: string\n"
        "    required: true\n"
        "  selector:\n"
        "    type: string\n"
        "approval: never\n"
        "---\n"
        "kubectl get pods -n {{ namespace }}{{# selector }} -l {{ selector }}{{/ selector }}\n"
    )
    name = "a" * 70
    (tools / "long.md").write_text(
        f"---\nname: {name}\ndescription: Too long a name.\napproval: never\n---\ntrue\n"
    )
    tooldrop = Path(sys.executable).parent / "tooldrop"
    env = {**os.environ, "TOOLDROP_CONFIG_DIR": str(tmp_path / "config")}
    done = subprocess.run(
        [str(tooldrop), "--project", str(project), "schema", "--format", "openai"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    definitions = json.loads(done.stdout)
    assert [d["function"]["name"] for d in definitions] == ["k8s_pods"]
    assert definitions[0]["function"]["strict"] is False
    assert definitions[0]["function"]["parameters"]["required"] == ["namespace"]
    assert "long.md:1: name:" in done.stderr
    assert f'"{name}" is left out of the OpenAI Chat Completions export' in done.stderr
    assert "k8s-pods.md:1: input_schema: not strict: selector: is optional" in done.stderr
    default = subprocess.run(
        [str(tooldrop), "--project", str(project), "schema"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert json.loads(default.stdout) == definitions


# -- properties (Hypothesis) ----------------------------------------------------------------

JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=12,
)
KEYWORDS = sorted(
    {
        "type", "properties", "required", "additionalProperties", "items", "enum", "const",
        "anyOf", "oneOf", "allOf", "not", "$ref", "$defs", "definitions", "default",
        "description", "title", "format", "pattern", "minimum", "maximum", "minLength",
        "maxLength", "minItems", "maxItems", "nullable", "examples", "$schema", "if", "then",
    }
)  # fmt: skip


def _junk_schemas(inner):
    # Anything a careless or hostile tool file might declare: keywords with any JSON value,
    # nested schemas in the places schemas nest, references that go anywhere.
    return st.dictionaries(
        st.sampled_from(KEYWORDS) | st.text(max_size=5), inner | JSON_VALUES, max_size=5
    )


JUNK = st.recursive(JSON_VALUES, _junk_schemas, max_leaves=20)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=st.dictionaries(st.sampled_from(KEYWORDS), JUNK, max_size=6))
def test_no_schema_can_make_an_export_raise(schema):
    tool = spec("fuzzed", schema)
    for fmt in EXPORT_FORMATS:
        exported = export_tools([tool], fmt)
        json.dumps(exported, allow_nan=False)  # always JSON, ready to send
        assert len(exported) + sum(p.severity == "error" for p in exported.problems) == 1
    for target in ("openai", "anthropic"):
        assert all(isinstance(reason, str) for reason in why_not_strict(schema, target))


@st.composite
def valid_schemas(draw, depth: int = 0):
    """Object schemas of the kinds tools declare, always valid JSON Schema."""
    names = draw(
        st.lists(st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True), max_size=4, unique=True)
    )
    properties = {name: draw(valid_properties(depth)) for name in names}
    schema: dict = {"type": "object", "properties": properties}
    required = draw(st.lists(st.sampled_from(names), unique=True)) if names else []
    if required:
        schema["required"] = required
    if draw(st.booleans()):
        schema["additionalProperties"] = False
    return schema


@st.composite
def valid_properties(draw, depth: int):
    kind = draw(
        st.sampled_from(["string", "integer", "number", "boolean", "array", "object", "nullable"])
    )
    prop: dict = {}
    if kind == "object" and depth < 2:
        prop = draw(valid_schemas(depth + 1))
    elif kind == "array":
        prop = {"type": "array", "items": {"type": draw(st.sampled_from(["string", "integer"]))}}
        if draw(st.booleans()):
            prop["minItems"] = draw(st.integers(0, 3))
    elif kind == "nullable":
        prop = {"type": [draw(st.sampled_from(["string", "number"])), "null"]}
    elif kind == "string":
        prop = {"type": "string"}
        extra = draw(st.sampled_from(["", "enum", "pattern", "maxLength", "format", "default"]))
        if extra == "enum":
            prop["enum"] = draw(
                st.lists(st.text(min_size=1, max_size=5), min_size=1, max_size=3, unique=True)
            )
        elif extra == "pattern":
            prop["pattern"] = draw(st.sampled_from(["^[a-z]+$", "^(?!x)", r"(a)\1"]))
        elif extra == "maxLength":
            prop["maxLength"] = draw(st.integers(1, 100))
        elif extra == "format":
            prop["format"] = draw(st.sampled_from(["date", "email", "binary"]))
        elif extra == "default":
            prop["default"] = draw(st.text(max_size=5))
    else:
        prop = {"type": "integer" if kind == "object" else kind}
        if kind in ("integer", "number") and draw(st.booleans()):
            prop["minimum"] = draw(st.integers(-5, 5))
        if kind == "integer" and draw(st.booleans()):
            prop["enum"] = [1, 2, 3]
    if draw(st.booleans()):
        prop["description"] = draw(st.text(max_size=10))
    return prop


def _objects(schema):
    if isinstance(schema, dict):
        if schema.get("type") == "object":
            yield schema
        for value in schema.values():
            yield from _objects(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _objects(item)


@settings(max_examples=200, deadline=None)
@given(schema=valid_schemas())
def test_every_valid_schema_exports_in_each_providers_shape(schema):
    tool = spec("generated", schema)
    for fmt in EXPORT_FORMATS:
        exported = export_tools([tool], fmt)
        assert [e.message for e in provider_schema(fmt).iter_errors(exported[0])] == []
    chat = export_tools([tool], "openai")[0]["function"]
    if chat["strict"]:
        # Strict claimed: the rules OpenAI enforces hold everywhere in the schema.
        for node in _objects(schema):
            assert node.get("additionalProperties") is False
            assert sorted(node.get("required", [])) == sorted(node["properties"])
        assert "default" not in json.dumps(schema)
    anthropic = export_tools([tool], "anthropic")[0]
    if anthropic.get("strict"):
        for node in _objects(schema):
            assert node.get("additionalProperties") is False
        assert not any(k in json.dumps(schema) for k in ('"minimum"', '"maxLength"', '"binary"'))


@settings(max_examples=300, deadline=None)
@given(name=st.text(min_size=1, max_size=140))
def test_a_name_is_exported_exactly_when_it_fits_the_targets_rule(name):
    tool = spec(name)
    for fmt in EXPORT_FORMATS:
        exported = export_tools([tool], fmt)
        fits = re.fullmatch(NAME_RULES[fmt].pattern, name) is not None
        assert len(exported) == int(fits)
        assert len(exported.problems) == int(not fits)
