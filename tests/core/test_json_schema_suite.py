"""The official JSON-Schema-Test-Suite, every case through the public call path.

The suite's files (``json_schema_test_suite/``, MIT, see its LICENSE and README) are the
draft 2020-12 and draft-07 directories and the optional files that need no network. Each
schema becomes a real tool, loaded the way a Python tool file's tool is (so it meets the
load-time checks), and each case is a ``host.call``. Instances need not be objects while
arguments must be, so the suite's schema becomes the one parameter ``v`` of an object schema,
as an embedded resource (its own ``$id``) so that ``"$ref": "#"`` still means the suite's
schema.

No case may be accepted that the suite says is invalid. Every other disagreement (a valid
instance refused, a schema refused at load) must be listed, with its reason, in
``json_schema_test_suite/expected-failures.json``; a listed case that now agrees fails the
test too, so the list stays true.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from tooldrop import Origin, ToolDefinitionError, ToolResult, to_spec

# About ten seconds: each of ~670 schemas is checked against its meta-schema at load.
pytestmark = pytest.mark.slow

SUITE = Path(__file__).parent / "json_schema_test_suite"
DIALECTS = {
    "draft2020-12": "https://json-schema.org/draft/2020-12/schema",
    "draft7": "http://json-schema.org/draft-07/schema#",
}


def _embedded(schema: Any, draft: str, index: int) -> Any:
    """The suite's schema as a resource of its own inside the tool's schema."""
    if not isinstance(schema, dict) or "$id" in schema:
        return schema
    ident = f"urn:tooldrop-suite:{index}"
    if draft == "draft7" and "$ref" in schema:
        # In draft-07 a $ref's siblings, $id included, are ignored: keep the $ref and the
        # definitions it may point into, under a resource that has the id.
        kept = {k: v for k, v in schema.items() if k in ("definitions", "$schema")}
        return {**kept, "$id": ident, "allOf": [{"$ref": schema["$ref"]}]}
    return {"$id": ident, **schema}


def _tool_schema(schema: Any, draft: str, index: int) -> dict[str, Any]:
    return {
        "$schema": DIALECTS[draft],
        "type": "object",
        "properties": {"v": _embedded(copy.deepcopy(schema), draft, index)},
        "required": ["v"],
        "additionalProperties": False,
    }


def _cases() -> list[tuple[str, str, str, Any, list[dict[str, Any]]]]:
    found = []
    for draft in DIALECTS:
        for path in sorted((SUITE / draft).rglob("*.json")):
            name = path.relative_to(SUITE).as_posix()
            for group in json.loads(path.read_text(encoding="utf-8")):
                found.append((draft, name, group["description"], group["schema"], group["tests"]))
    return found


def _run_suite(home: Path) -> tuple[dict[str, str], int]:
    """Every disagreement as ``"file :: group :: case"`` → what happened; and the case count."""
    import tooldrop.approval
    from tooldrop import ToolHost

    class Pack:
        def __init__(self, specs: list[Any]) -> None:
            self.specs = specs

        @tooldrop.hookimpl
        def tooldrop_register_tools(self, register: Any) -> None:
            for spec in self.specs:
                register(spec)

    class Backend:
        @tooldrop.hookimpl
        def tooldrop_execute(self, call: Any) -> ToolResult | None:
            return ToolResult(text="ran") if call.spec.runner == "suite" else None

    disagreements: dict[str, str] = {}
    specs = []
    calls = []
    count = 0
    for index, (draft, name, group, schema, tests) in enumerate(_cases()):
        count += len(tests)
        tool = {
            "name": f"t{index}",
            "description": group,
            "input_schema": _tool_schema(schema, draft, index),
            "execute": lambda args: "ran",
            "approval": "never",
        }
        try:
            spec = to_spec(tool, origin=Origin(source="suite", scope="plugin"))
        except ToolDefinitionError as exc:
            for test in tests:
                disagreements[f"{name} :: {group} :: {test['description']}"] = (
                    f"refused at load: {exc}"
                )
            continue
        specs.append(attrs.evolve(spec, runner="suite", payload=None))
        calls.extend((f"t{index}", f"{name} :: {group} :: {t['description']}", t) for t in tests)
    (home / "project").mkdir()
    (home / "user").mkdir()
    host = ToolHost(
        plugins=[tooldrop.approval, Backend(), Pack(specs)],
        project_dir=home / "project",
        user_dir=home / "user",
        cache=False,
    )
    for tool_name, key, test in calls:
        result = host.call(tool_name, {"v": test["data"]})
        if result.is_error == test["valid"]:
            verdict = "ACCEPTED INVALID" if test["valid"] is False else "refused valid"
            disagreements[key] = f"{verdict}: {result.text}"
    return disagreements, count


@pytest.fixture(scope="module")
def suite_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], int]:
    return _run_suite(tmp_path_factory.mktemp("suite"))


def test_the_suite_is_all_there(suite_run):
    _, count = suite_run
    assert count > 2300


def test_no_invalid_instance_is_ever_accepted(suite_run):
    disagreements, _ = suite_run
    accepted = {key: why for key, why in disagreements.items() if why.startswith("ACCEPTED")}
    assert accepted == {}


def test_every_other_disagreement_is_documented(suite_run):
    disagreements, _ = suite_run
    expected = json.loads((SUITE / "expected-failures.json").read_text(encoding="utf-8"))
    found = set(disagreements)
    listed = set(expected["cases"])
    assert sorted(found - listed) == [], "undocumented disagreements"
    assert sorted(listed - found) == [], "listed cases that now agree: remove them"
    for key, why in expected["cases"].items():
        assert why in expected["reasons"], f"{key}: unknown reason {why!r}"
