"""The floor check's messages, word for word, and the schema it must not refuse.

``test_speccheck.py`` shows each refusal reaches its file; here the whole message the user
reads is pinned, since a phrase found ``in`` a longer text cannot tell it from a garbled one.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        pytest.param(["msg"], "must be a JSON Schema object", id="a-list"),
        pytest.param("object", "must be a JSON Schema object", id="a-string"),
        pytest.param(
            {"type": "object", "properties": ["msg"]},
            "properties must map parameter names to schemas",
            id="properties-a-list",
        ),
        pytest.param(
            {"type": "object", "required": [1]},
            "required must be a list of parameter names",
            id="required-not-names",
        ),
    ],
)
def test_a_bad_schema_is_refused_in_these_words(make_host, project, tool_writer, schema, message):
    path = tool_writer(project / ".tooldrop" / "tools", "bad.json", name="bad", input_schema=schema)
    host = make_host()
    assert host.get("bad") is None
    [problem] = [p for p in host.problems() if p.path == path]
    assert (problem.field, problem.message) == ("input_schema", message)


def test_a_schema_without_a_type_is_an_object_schema_and_loads(make_host, project, tool_writer):
    schema = {"properties": {"msg": {"type": "string"}}, "required": ["msg"]}
    tool_writer(project / ".tooldrop" / "tools", "t.json", name="untyped", input_schema=schema)
    host = make_host()
    assert host.problems() == []
    assert host.get("untyped") is not None
