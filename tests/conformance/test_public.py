"""Every case of ``public.json`` (the markdown tool conformance suite) through the public API.

Each case writes its tool file into a fresh project's ``.tooldrop/tools/`` and uses a
``ToolHost`` with the installed plugins, as a host app would. See ``README`` in the shared
conformance folder for what each kind must show.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tooldrop import ToolHost

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "public.json").read_text(encoding="utf-8")
)


def _host(tmp_path: Path, markdown: str) -> ToolHost:
    tools = tmp_path / "project" / ".tooldrop" / "tools"
    tools.mkdir(parents=True)
    # newline="" keeps the case's own line ends (one case is CRLF).
    (tools / "t.md").write_text(markdown, encoding="utf-8", newline="")
    return ToolHost(project_dir=tmp_path / "project", user_dir=tmp_path / "user")


def test_the_suite_is_complete() -> None:
    kinds = {case["kind"] for case in CASES}
    assert kinds == {"render", "load", "load_error", "validate", "run"}
    assert len({case["id"] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_case(case: dict[str, Any], tmp_path: Path) -> None:
    with _host(tmp_path, case["markdown"]) as host:
        kind = case["kind"]
        if kind == "load_error":
            assert host.get("t") is None
            lines = [problem.format().lower() for problem in host.problems()]
            assert any(case["expect_mentions"].lower() in line for line in lines), lines
            return
        assert host.get("t") is not None, [str(p) for p in host.problems()]
        if kind == "render":
            assert host.render("t", case["args"]) == case["expect"]
        elif kind == "load":
            spec = host.get("t")
            for key, expected in case["expect"].items():
                if key == "properties":
                    assert sorted(spec.parameters) == expected
                elif key == "required":
                    assert list(spec.required) == expected
                else:
                    assert getattr(spec, key) == expected, key
        elif kind == "validate":
            asked: list[object] = []
            result = host.call("t", case["args"], ask=lambda call: asked.append(call) or False)
            expected = case["expect_error_mentions"]
            if expected is None:
                # Valid arguments reach approval (declined here, so nothing runs) or run.
                assert asked or not result.is_error, result.text
            else:
                assert result.is_error
                assert expected in result.text
                assert not asked  # refused before rendering and approval: nothing ran
        else:
            assert kind == "run"
            result = host.call("t", case["args"], ask=lambda call: True)
            assert result.text == case["expect"]
