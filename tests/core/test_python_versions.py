"""Every distribution declares exactly the Python versions CI tests.

CI runs the whole suite on the locked interpreter (3.11, the minimum) and the core, format and
backend tests on each version `.ci/other-pythons.sh` names; a classifier for any other version
would promise what nobody tested, and a tested version without its classifier hides it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECTS = sorted([ROOT / "core" / "pyproject.toml", *ROOT.glob("plugins/*/pyproject.toml")])
LOCKED = "3.11"


def _tested_versions() -> set[str]:
    script = (ROOT / ".ci" / "other-pythons.sh").read_text(encoding="utf-8")
    loop = re.search(r"^for version in ([\d. ]+); do$", script, flags=re.MULTILINE)
    assert loop, ".ci/other-pythons.sh: the `for version in ...` loop is not there"
    return {LOCKED, *loop.group(1).split()}


def test_ci_runs_the_other_versions():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^bash \.ci/other-pythons\.sh$", ci, flags=re.MULTILINE)


@pytest.mark.parametrize("pyproject", PYPROJECTS, ids=lambda p: p.parent.name)
def test_classifiers_name_the_tested_versions(pyproject):
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    declared = {
        match.group(1)
        for classifier in project.get("classifiers", [])
        if (match := re.fullmatch(r"Programming Language :: Python :: (3\.\d+)", classifier))
    }
    assert declared == _tested_versions()
    assert project["requires-python"] == f">={LOCKED}"
