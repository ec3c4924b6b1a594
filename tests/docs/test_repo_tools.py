"""The repository's own example tools (.tooldrop/tools/) do what their descriptions say."""

from __future__ import annotations

import os
import stat
import subprocess

import pytest

from tooldrop import ToolHost

from .conftest import ROOT


@pytest.fixture
def host():
    with ToolHost(project_dir=ROOT) as host:
        yield host


def test_every_repository_tool_loads_without_problems(host):
    assert [p.format() for p in host.problems() if p.severity != "info"] == []
    assert {t.name for t in host.all_tools()} >= {"run_tests", "git_recent", "search_code"}


@pytest.mark.parametrize("exit_code", [0, 1, 2])
def test_run_tests_reports_pytest_s_exit_code_not_tail_s(host, tmp_path, exit_code):
    # A stand-in `uv` that prints a summary and exits as pytest would; the real bash runs the
    # exact script the tool renders. Before pipefail, `| tail` made every run exit 0.
    fake = tmp_path / "bin" / "uv"
    fake.parent.mkdir()
    fake.write_text(f"#!/bin/sh\necho '1 failed, 2 passed'\nexit {exit_code}\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    spec = host.get("run_tests")
    assert spec is not None and spec.shell == "bash"
    script = host.render("run_tests", {"target": "tests/docs"})
    env = {**os.environ, "PATH": f"{fake.parent}:{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert done.stdout.strip() == "1 failed, 2 passed"
    assert done.returncode == exit_code
