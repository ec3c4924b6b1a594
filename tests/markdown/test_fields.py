"""Every field of the reference table: defaults, rules, the reference's messages, all at once."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldrop_markdown._fields import ABSENT

from .conftest import frontmatter


class _SubStr(str):
    """A str subclass: the hooks' fast type test must not treat it differently."""


def errors(result) -> list[tuple[str, str]]:
    return [(p.field, p.message) for p in result.problems if p.severity == "error"]


def only_tool(result):
    assert [p for p in result.problems if p.severity == "error"] == []
    (tool,) = result.tools
    return tool


def test_minimal_tool_gets_the_reference_defaults(load) -> None:  # P3
    tool = only_tool(load("---\nname: hello\ndescription: Says hello\n---\necho hello\n"))
    assert tool.name == "hello"
    assert tool.description == "Says hello"
    assert tool.input_schema == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }
    assert (tool.approval, tool.read_only, tool.timeout_ms) == ("always", False, 30000)
    assert (tool.cwd, dict(tool.env), tool.shell) == (None, {}, None)
    assert tool.runner == "shell"
    assert tool.payload.source == "echo hello"


def test_full_tool_keeps_every_value(load) -> None:  # P4
    params = (
        "  namespace:\n    type: string\n    required: true\n    pattern: '^[a-z0-9-]+$'\n"
        "    maxLength: 63\n  selector:\n    type: string\n    minLength: 1\n"
        "  count:\n    type: integer\n    min: 1\n    max: 100\n    default: 10\n"
        "  watch:\n    type: boolean\n"
    )
    extra = "approval: never\nread_only: true\ntimeout_ms: 60000\ncwd: ./scripts\nshell: sh\n"
    tool = only_tool(load(frontmatter("kubectl get pods -n {{ namespace }}", params, extra)))
    assert tool.parameters == {
        "namespace": {"type": "string", "pattern": "^[a-z0-9-]+$", "maxLength": 63},
        "selector": {"type": "string", "minLength": 1},
        "count": {"type": "integer", "default": 10, "minimum": 1, "maximum": 100},
        "watch": {"type": "boolean"},
    }
    assert list(tool.required) == ["namespace"]
    assert (tool.approval, tool.read_only, tool.timeout_ms) == ("never", True, 60000)
    assert (tool.cwd, tool.shell) == ("./scripts", "sh")
    assert tool.keep_background is False


def test_keep_background_reaches_the_spec(load):
    tool = only_tool(
        load(frontmatter("npm run dev >dev.log 2>&1 &", extra="keep_background: true\n"))
    )
    assert tool.keep_background is True


@pytest.mark.parametrize(
    ("approval", "read_only"), [("never", True), ("always", False), ("destructive", False)]
)
def test_read_only_defaults_to_approval_never(load, approval, read_only) -> None:  # P5, P6
    tool = only_tool(load(frontmatter("echo", extra=f"approval: {approval}\n")))
    assert tool.read_only is read_only


def test_explicit_read_only_wins(load) -> None:
    tool = only_tool(load(frontmatter("echo", extra="approval: never\nread_only: false\n")))
    assert tool.read_only is False


def test_description_is_trimmed(load) -> None:
    tool = only_tool(load("---\nname: t\ndescription: |\n  Lists pods.\n\n---\necho\n"))
    assert tool.description == "Lists pods."


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ("name: BadName\n", "name", 'Invalid or missing "name" — must match /^[a-z][a-z0-9_]*$/'),
        ("name: 5\n", "name", 'Invalid or missing "name"'),
        ("name: k8s-pods\n", "name", 'try "k8s_pods"'),
        ("name:\n", "name", 'Invalid or missing "name"'),
        ("description: '   '\n", "description", 'Missing "description"'),
        ("description: 5\n", "description", 'Missing "description" (it must be text, got 5)'),
        (
            "approval: NEVER\n",
            "approval",
            'Invalid "approval" value — expected one of: never, always, destructive',
        ),
        ("approval: yes\n", "approval", 'Invalid "approval" value'),
        (
            "read_only: yes\n",
            "read_only",
            '"read_only" must be a boolean (got "yes"; YAML 1.2 reads yes as text',
        ),
        ("read_only: 1\n", "read_only", '"read_only" must be a boolean'),
        ("keep_background: yes\n", "keep_background", '"keep_background" must be a boolean'),
        (
            "timeout_ms: 30_000\n",
            "timeout_ms",
            'timeout_ms must be a finite number (got "30_000"; '
            "YAML 1.2 reads 30_000 as text, write 30000)",
        ),
        ("timeout_ms: .inf\n", "timeout_ms", "timeout_ms must be a finite number"),
        ("timeout_ms: 1.5\n", "timeout_ms", "timeout_ms must be an integer"),
        ("timeout_ms: 0\n", "timeout_ms", '"timeout_ms" must be positive'),
        ("timeout_ms: -5\n", "timeout_ms", '"timeout_ms" must be positive'),
        ("timeout_ms: 300001\n", "timeout_ms", '"timeout_ms" exceeds maximum of 300000'),
        ("cwd:\n", "cwd", "cwd must be a string"),
        ("cwd: 5\n", "cwd", "cwd must be a string"),
        ("env: [A]\n", "env", '"env" must be a mapping of name → value'),
        ("shell: zsh\n", "shell", 'Invalid "shell" — expected one of: bash, sh'),
        ("shell: cmd.exe\n", "shell", 'Invalid "shell"'),
        (
            "parameters: 5\n",
            "parameters",
            '"parameters" must be a mapping of name → definition '
            "(or a list of {name, type, ...} entries)",
        ),
    ],
)
def test_top_level_rules(load, extra, field, message) -> None:
    text = "---\n" + extra + "name: t\ndescription: d\n---\necho\n"
    if extra.startswith(("name", "description")):
        key = extra.split(":")[0]
        base = {"name": "name: t\n", "description": "description: d\n"}
        text = "---\n" + extra + base["description" if key == "name" else "name"] + "---\necho\n"
    result = load(text)
    assert result.tools == ()
    assert any(f == field and message in m for f, m in errors(result)), errors(result)


def test_missing_name_and_description(load) -> None:  # P7, P8, P10
    assert [f for f, _ in errors(load("---\ndescription: d\n---\necho\n"))] == ["name"]
    assert [f for f, _ in errors(load("---\nname: t\n---\necho\n"))] == ["description"]
    assert [f for f, _ in errors(load("---\n---\necho\n"))] == ["name", "description"]


@pytest.mark.parametrize(
    ("value", "expected"), [("1e3", 1000), ("30000.0", 30000), ("300000", 300000), ("1", 1)]
)
def test_timeout_values_that_are_integers(load, value, expected) -> None:
    tool = only_tool(load(frontmatter("echo", extra=f"timeout_ms: {value}\n")))
    assert tool.timeout_ms == expected
    assert type(tool.timeout_ms) is int


def test_null_means_default_for_these_keys(load) -> None:
    extra = "approval:\nread_only:\ntimeout_ms:\nshell:\nenv:\nparameters:\n"
    tool = only_tool(load(frontmatter("echo", extra=extra)))
    assert (tool.approval, tool.read_only, tool.timeout_ms, tool.shell) == (
        "always",
        False,
        30000,
        None,
    )
    assert tool.parameters == {}


def test_every_problem_is_reported_at_once_with_its_line(load) -> None:
    text = (
        "---\n"
        "name: Bad\n"  # 2
        "description: d\n"  # 3
        "approval: sometimes\n"  # 4
        "timeout_ms: 0\n"  # 5
        "parameters:\n"  # 6
        "  ns:\n"  # 7
        "    type: object\n"  # 8
        "    pattern: '['\n"  # 9
        "    minLength: '3'\n"  # 10
        "  other:\n"  # 11
        "    type: string\n"  # 12
        "    required: yes\n"  # 13
        "---\n"
        "echo {{ ns }}\n"
    )
    found = {(p.field, p.line) for p in load(text).problems}
    assert found >= {
        ("name", 2),
        ("approval", 4),
        ("timeout_ms", 5),
        ("parameters.ns.type", 8),
        ("parameters.ns.pattern", 9),
        ("parameters.ns.minLength", 10),
        ("parameters.other.required", 13),
    }


@pytest.mark.parametrize(
    ("definition", "field", "message"),
    [
        (
            "    type: object\n",
            "type",
            "invalid type — expected one of: string, number, integer, boolean, array "
            '(got "object")',
        ),
        (
            "    type: strin\n",
            "type",
            "invalid type — expected one of: string, number, integer, boolean, array "
            '(got "strin"); did you mean "string"?',
        ),
        ("    type: Integer\n", "type", 'did you mean "integer"?'),
        ("    description: x\n", "type", "type is missing"),
        ("    type: string\n    description: 5\n", "description", "description must be a string"),
        ("    type: string\n    required: 'true'\n", "required", "required must be a boolean"),
        ("    type: string\n    enum: red\n", "enum", "enum must be an array"),
        ("    type: string\n    pattern: 5\n", "pattern", "pattern must be a string"),
        (
            "    type: string\n    pattern: '" + "a" * 1025 + "'\n",
            "pattern",
            "pattern is too long (max 1024 chars",
        ),
        (
            "    type: string\n    pattern: '['\n",
            "pattern",
            "pattern is not a valid regular expression",
        ),
        (
            "    type: string\n    pattern: '(a'\n",
            "pattern",
            "pattern is not a valid regular expression",
        ),
        (
            "    type: string\n    minLength: '3'\n",
            "minLength",
            "minLength must be a finite number",
        ),
        ("    type: string\n    maxLength: 1.5\n", "maxLength", "maxLength must be an integer"),
        ("    type: number\n    min: .inf\n", "min", "min must be a finite number"),
        ("    type: number\n    max: ten\n", "max", "max must be a finite number"),
        (
            "    type: array\n    items: string\n",
            "items",
            'items must be a mapping with a "type" field',
        ),
        ("    type: array\n    items: {type: object}\n", "items", "items.type is invalid"),
        ("    type: array\n    items: {}\n", "items", "items.type is invalid"),
        (
            "    type: array\n    items: {type: strin}\n",
            "items",
            "items.type is invalid — expected one of: string, number, integer, boolean, array "
            '(got "strin"); did you mean "string"?',
        ),
        ("    type: array\n    items:\n      type: Number\n", "items", 'did you mean "number"?'),
    ],
)
def test_parameter_rules(load, definition, field, message) -> None:
    result = load(frontmatter("echo", "  x:\n" + definition))
    assert result.tools == ()
    assert any(f == f"parameters.x.{field}" and message in m for f, m in errors(result)), errors(
        result
    )


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        (
            "  Bad-Name:\n    type: string\n",
            "parameters.Bad-Name",
            'Invalid parameter name "Bad-Name" — must match /^[a-z][a-z0-9_]*$/',
        ),
        ("  1x:\n    type: string\n", "parameters.1x", "Invalid parameter name"),
        (
            "  x: string\n",
            "parameters.x",
            'Parameter "x" must be a mapping with at least a "type" field',
        ),
        ("  - type: string\n", "parameters[0]", 'entry is missing a "name" field'),  # P2
        ("  - name: 5\n    type: string\n", "parameters[0]", 'missing a "name" field'),
        ("  - x\n", "parameters[0]", 'entry must be a mapping with at least a "name" and "type"'),
    ],
)
def test_parameter_shapes(load, params, field, message) -> None:
    result = load(frontmatter("echo", params))
    assert result.tools == ()
    assert any(f == field and message in m for f, m in errors(result)), errors(result)


def test_parameters_as_a_list(load) -> None:  # P1
    params = (
        "  - name: namespace\n    type: string\n    description: The namespace\n"
        "    default: default\n  - name: label\n    type: string\n    required: false\n"
    )
    tool = only_tool(load(frontmatter("echo {{ namespace }} {{ label }}", params)))
    assert list(tool.parameters) == ["namespace", "label"]
    assert tool.parameters["namespace"] == {
        "type": "string",
        "description": "The namespace",
        "default": "default",
    }


def test_a_name_listed_twice_keeps_the_last_entry_and_warns(load) -> None:
    params = "  - name: a\n    type: string\n  - name: a\n    type: integer\n"
    result = load(frontmatter("echo {{ a }}", params))
    (tool,) = result.tools
    assert tool.parameters == {"a": {"type": "integer"}}
    (warning,) = result.problems
    assert (warning.severity, warning.field, warning.line) == ("warning", "parameters[1]", 7)


@pytest.mark.parametrize("empty", ["{}", "[]", ""])
def test_empty_parameters(load, empty) -> None:
    assert only_tool(load(frontmatter("echo", extra=f"parameters: {empty}\n"))).parameters == {}


def test_constraints_that_do_not_fit_the_type_are_kept_and_ignored(load) -> None:
    params = (
        "  n:\n    type: integer\n    minLength: 2\n"
        "  s:\n    type: string\n    items: {type: string}\n"
    )
    tool = only_tool(load(frontmatter("echo {{ n }} {{ s }}", params)))
    assert tool.parameters["n"] == {"type": "integer", "minLength": 2}
    assert tool.parameters["s"] == {"type": "string", "items": {"type": "string"}}


def test_default_null_is_a_default(load) -> None:
    tool = only_tool(load(frontmatter("echo {{ x }}", "  x:\n    type: string\n    default:\n")))
    assert tool.parameters["x"] == {"type": "string", "default": None}


def test_null_optional_parameter_keys_are_left_out(load) -> None:
    params = "  x:\n    type: string\n    description:\n    pattern:\n    required:\n"
    tool = only_tool(load(frontmatter("echo {{ x }}", params)))
    assert tool.parameters["x"] == {"type": "string"}


def test_enum_values_are_kept_as_written(load) -> None:
    params = "  c:\n    type: string\n    enum: [red, green]\n"
    tool = only_tool(load(frontmatter("echo {{ c }}", params)))
    assert tool.parameters["c"]["enum"] == ["red", "green"]


def test_unknown_keys_warn_and_the_tool_loads(load) -> None:
    params = "  x:\n    type: integer\n    minimum: 1\n    title: X\n"
    result = load(frontmatter("echo {{ x }}", params, extra="timeout: 5\nversion: 2\n"))
    assert len(result.tools) == 1
    warnings = {(p.field, p.message) for p in result.problems}
    assert warnings == {
        ("timeout", 'unknown key "timeout" (ignored); did you mean "timeout_ms"?'),
        ("version", 'unknown key "version" (ignored)'),
        ("parameters.x.minimum", 'unknown key "minimum" (ignored); did you mean "min"?'),
        ("parameters.x.title", 'unknown key "title" (ignored)'),
    }
    assert {p.severity for p in result.problems} == {"warning"}


def test_nanocoder_event_triggers_are_noted(load) -> None:
    result = load(frontmatter("echo", extra="subscribe:\n  - kind: schedule.cron\n"))
    assert len(result.tools) == 1
    (note,) = result.problems
    assert (note.field, note.severity) == ("subscribe", "info")


def test_items_keep_only_their_type(load) -> None:
    params = "  xs:\n    type: array\n    items: {type: string, pattern: '^a'}\n"
    result = load(frontmatter("echo {{ xs }}", params))
    assert result.tools[0].parameters["xs"]["items"] == {"type": "string"}
    assert [p.field for p in result.problems] == ["parameters.xs.items"]


def test_defaults_and_enums_that_cannot_match_warn(load) -> None:
    params = (
        "  n:\n    type: integer\n    default: ten\n"
        "  c:\n    type: string\n    enum: [red, 1]\n    default: blue\n"
    )
    result = load(frontmatter("echo {{ n }} {{ c }}", params))
    assert len(result.tools) == 1
    assert {(p.field, p.severity) for p in result.problems} == {
        ("parameters.n.default", "warning"),
        ("parameters.c.enum[1]", "warning"),
        ("parameters.c.default", "warning"),
    }


def test_env_values_are_stringified_like_javascript(load) -> None:  # P15 and more
    extra = (
        "env:\n  FOO: bar\n  N: 1\n  F: 2.0\n  B: true\n  E:\n  L: [1, 2]\n"
        "  M: {k: v}\n  7: seven\n"
    )
    result = load(frontmatter("echo", extra=extra))
    (tool,) = result.tools
    assert dict(tool.env) == {
        "FOO": "bar",
        "N": "1",
        "F": "2",
        "B": "true",
        "E": "",
        "L": "1,2",
        "M": "[object Object]",
        "7": "seven",
    }
    assert {(p.field, p.severity) for p in result.problems} == {
        ("env.L", "warning"),
        ("env.M", "warning"),
    }


@pytest.mark.parametrize(
    "name",
    ["LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV",
     "BASH_FUNC_ls%%", "IFS", "PS4", "SHELLOPTS", "PROMPT_COMMAND", "ld_preload"],
)  # fmt: skip
def test_env_may_not_set_dangerous_variables(load, name) -> None:
    result = load(frontmatter("echo", extra=f"env:\n  SAFE: x\n  '{name}': y\n"))
    assert result.tools == ()
    (problem,) = result.problems
    assert problem.field == f"env.{name}"
    assert problem.message.startswith(f"env may not set {name}:")
    assert problem.line == 6


@pytest.mark.parametrize("name", ["''", "'A=B'"])
def test_env_names_must_be_valid(load, name) -> None:
    result = load(frontmatter("echo", extra=f"env:\n  {name}: y\n"))
    assert result.tools == ()
    assert "is not a valid environment variable name" in result.problems[0].message


VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(),
    st.sampled_from(["", "x", "string", "never", "bash", "yes", "42", " d ", "cmd.exe"]),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.sampled_from([ABSENT, _SubStr("never"), _SubStr("string")]),
)


def _outcome(structure, value):
    try:
        result = structure(value, object)
    except Exception as exc:  # noqa: BLE001 - compared, not swallowed
        return ("error", type(exc), str(exc))
    return ("ok", type(result), result if result == result else "nan")


@given(value=VALUES)
def test_each_hook_gives_what_its_rule_gives(value: object) -> None:
    # The hooks let the usual value through after one type test (and give the set's own
    # string for a choice); for any value they must do exactly what the rule does.
    from tooldrop_markdown import _fields as f

    pairs = [
        (f._text_hook("cwd"), lambda v, _: f._text(v, "cwd")),
        (f._boolean_hook("required"), lambda v, _: f._boolean(v, "required")),
        (f._integer_hook("minLength"), lambda v, _: f._integer(v, "minLength")),
        (f._finite_hook("min"), lambda v, _: f._finite(v, "min")),
        (f._choice_hook("m", f.APPROVALS), lambda v, _: f._choice(v, "m", f.APPROVALS)),
        (f._param_type_hook, f._param_type),
        (f._timeout_hook, f._timeout),
    ]
    for hook, rule in pairs:
        assert _outcome(hook, value) == _outcome(rule, value)
    kind = _outcome(f._param_type_hook, value)
    if kind[0] == "ok" and type(value) is str:
        assert any(kind[2] is option for option in f.PARAM_TYPES)


@pytest.mark.parametrize("written", [".nan", ".inf", "-.inf"])
def test_a_non_finite_default_becomes_null_with_a_warning(project, make_host, written) -> None:
    # JSON has no NaN or Infinity; Nanocoder's JSON.stringify shows null. Before, the tool
    # loaded silently, dropped out of the OpenAI export and rendered 'NaN'.
    params = f"  x:\n    type: number\n    default: {written}\n  y:\n    type: number\n"
    params += f"    enum: [1, [{written}]]\n"
    (project / ".tooldrop" / "tools" / "t.md").write_text(frontmatter("echo [{{ x }}]", params))
    host = make_host(project)
    problems = {problem.field: problem for problem in host.problems()}
    default, enum = problems["parameters.x.default"], problems["parameters.y.enum"]
    assert (default.line, default.field, default.severity) == (7, "parameters.x.default", "warning")
    assert default.message.startswith(f"{written} is not a JSON number: it becomes null")
    assert (enum.line, enum.field) == (10, "parameters.y.enum")
    (tool,) = host.tools()
    properties = tool.input_schema["properties"]
    assert properties["x"]["default"] is None
    assert properties["y"]["enum"] == [1, [None]]
    exported = host.export("openai")
    assert [tool["function"]["name"] for tool in exported] == ["t"]
    assert [p.severity for p in exported.problems] == ["info"]  # "not strict" only
    assert host.render("t", {}) == "echo []"
