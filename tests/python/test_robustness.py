"""Whatever a tool file holds, loading it gives tools or problems, never an exception."""

from __future__ import annotations

import keyword
import string
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldrop import Origin, ToolDefinitionError, ToolSpec, to_spec
from tooldrop_python._loader import MODULE_PREFIX, load_file

SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=10,
)
keys = st.sampled_from(
    [
        "name",
        "description",
        "execute",
        "inputSchema",
        "input_schema",
        "parameters",
        "approval",
        "read_only",
        "readOnly",
        "requires_approval",
        "requiresApproval",
        "timeout_ms",
        "timeoutMs",
        "other",
    ]
)
values = json_values | st.sampled_from([print, len, lambda a: a, lambda: 1, lambda a, b, c: 1])


@SETTINGS
@given(st.binary(max_size=300))
def test_any_bytes(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("tools") / "random.py"
    path.write_bytes(data)
    result = load_file(path, "personal")
    assert all(p.path == path for p in result.problems)
    assert result.tools or result.problems


@SETTINGS
@given(json_values)
def test_any_literal_default(tmp_path_factory, value):
    path = tmp_path_factory.mktemp("tools") / "literal.py"
    path.write_text(f"default = {value!r}\n".replace("nan", "float('nan')").replace("inf", "1e999"))
    result = load_file(path, "personal")
    assert not result.tools
    assert result.problems
    assert all(p.path == path and p.message for p in result.problems)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(keys, values, max_size=8))
def test_any_dict_is_a_spec_or_a_definition_error(data):
    spec, problems = None, ()
    try:
        spec = to_spec(data, origin=Origin(source="python", scope="personal"))
    except ToolDefinitionError as exc:
        problems = exc.problems
    if spec is None:
        assert problems
        assert all(p.message for p in problems)
    else:
        assert isinstance(spec, ToolSpec)
        assert spec.input_schema["type"] == "object"


names = st.text(
    alphabet=st.sampled_from(string.ascii_letters + string.digits + "-_ .ünï€"),
    min_size=1,
    max_size=12,
).filter(lambda s: s.strip(".") and "/" not in s)


@SETTINGS
@given(names)
def test_any_file_name_gets_its_own_module(tmp_path_factory, stem):
    directory = tmp_path_factory.mktemp("tools")
    path = directory / f"{stem}.py"
    path.write_text('default = {"name": "t", "description": "d", "execute": lambda a: __name__}\n')
    first = load_file(path, "personal")
    second = load_file(path, "personal")
    assert not first.problems and not second.problems
    module = second.tools[0].payload({}, None)
    assert module.startswith(MODULE_PREFIX)
    assert module.isidentifier() and not keyword.iskeyword(module)
    assert module in sys.modules
    assert first.tools[0].payload({}, None) not in sys.modules  # the old one was dropped
    assert Path(sys.modules[module].__file__) == path
