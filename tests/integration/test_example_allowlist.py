"""The documented approval plugin, built and pip-installed for real, overrides the default.

The example in ``docs/examples/tooldrop-allowlist`` is built into a wheel and installed with
``uv pip install --target`` into a folder that a real ``tooldrop`` process gets on its
``PYTHONPATH``; it is then found through its entry point like any third-party plugin.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "tooldrop-allowlist"

TOOL = """---
name: git_status
description: Show the working tree status.
parameters:
  short:
    type: boolean
approval: always
read_only: true
---
echo status{{# short }} --short{{/ short }}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    uv = shutil.which("uv")
    assert uv, "uv is needed to build and install the example plugin"
    out = tmp_path_factory.mktemp("wheel")
    site = tmp_path_factory.mktemp("site")
    subprocess.run([uv, "build", "--wheel", "-q", "-o", str(out), str(EXAMPLE)], check=True)
    [wheel] = out.glob("*.whl")
    subprocess.run(
        [uv, "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)], check=True
    )
    return site


def run_call(site: Path, project: Path, config: Path, args: dict, *, trust: bool = True) -> dict:
    code = (
        "import json, sys, tooldrop\n"
        f"host = tooldrop.ToolHost(project_dir={str(project)!r}, user_dir={str(config)!r})\n"
        + ("host.trust()\n" if trust else "")
        + f"r = host.call('git_status', {args!r})\n"
        "print(json.dumps({'text': r.text, 'denied': r.denied, 'error': r.is_error,"
        " 'plugins': [p.name for p in host.plugins() if p.loaded]}))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.fixture
def project(tmp_path) -> Path:
    folder = tmp_path / "project" / ".tooldrop" / "tools"
    folder.mkdir(parents=True)
    (folder / "git-status.md").write_text(TOOL)
    return tmp_path / "project"


def test_the_plugin_loads_through_its_entry_point(site, project, tmp_path):
    result = run_call(site, project, tmp_path / "config", {})
    assert "allowlist" in result["plugins"]
    assert result["denied"]  # no allow-list yet: the default policy asks, nobody answers


def test_a_matching_script_runs_and_another_is_still_denied(site, project, tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    (config / "allowlist.txt").write_text("echo status --short\n")
    allowed = run_call(site, project, config, {"short": True})
    assert allowed == {**allowed, "denied": False, "error": False}
    assert allowed["text"] == "EXIT_CODE: 0\nstatus --short"
    other = run_call(site, project, config, {})
    assert other["denied"]


def test_an_untrusted_projects_matching_script_still_asks(site, project, tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    (config / "allowlist.txt").write_text("echo status --short\n")
    untrusted = run_call(site, project, config, {"short": True}, trust=False)
    assert untrusted["denied"]
    assert "not trusted yet" in untrusted["text"]
