"""A FIFO or a device where tooldrop expects a file never hangs a command (issue 13, item 7).

A cloned repository decides what its ``.tooldrop/config.yaml`` is. Each command here runs as a
real subprocess under a timeout: before the fix, ``list`` and ``trust`` blocked forever in
``open()`` on the FIFO.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")

#: Generous on a loaded machine; a hang is forever.
TIMEOUT = 60

TOOL = """---
description: Say hello.
---
echo hello
"""


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    project, config = tmp_path / "project", tmp_path / "config"
    (project / ".tooldrop" / "tools").mkdir(parents=True)
    (config / "tools").mkdir(parents=True)
    (project / ".tooldrop" / "tools" / "hello.md").write_text(TOOL)
    return project, config


def tooldrop(project: Path, config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TOOLDROP_CONFIG_DIR": str(config)}
    return subprocess.run(
        [sys.executable, "-m", "tooldrop", "--project", str(project), *args],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, timeout=TIMEOUT,
        check=False,
    )  # fmt: skip


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_a_special_project_config_does_not_hang_list_or_trust(layout, special):
    project, config = layout
    target = project / ".tooldrop" / "config.yaml"
    if special == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to(special)
    listed = tooldrop(project, config, "list")
    assert listed.returncode == 0, listed.stderr
    assert "hello" in listed.stdout
    assert "not a regular file" in listed.stdout + listed.stderr
    status = tooldrop(project, config, "trust", "--status")
    assert "not trusted" in status.stdout + status.stderr
    trusted = tooldrop(project, config, "trust")
    assert trusted.returncode == 0, trusted.stderr
    assert "trusted" in tooldrop(project, config, "trust", "--status").stdout


@pytest.mark.parametrize("name", ["config.yaml", "trust.json", "grants.json"])
def test_special_personal_files_do_not_hang(layout, name):
    project, config = layout
    os.mkfifo(config / name)
    listed = tooldrop(project, config, "list")
    assert listed.returncode == 0, listed.stderr
    assert "hello" in listed.stdout


def test_a_fifo_tool_file_is_a_problem_not_a_hang(layout):
    project, config = layout
    os.mkfifo(config / "tools" / "stuck.md")
    os.mkfifo(config / "tools" / "stuck.py")
    listed = tooldrop(project, config, "list")
    assert listed.returncode == 0, listed.stderr
    assert "hello" in listed.stdout


def test_a_fifo_passed_to_the_loaders_is_refused(tmp_path: Path):
    # Discovery stats the entry first; this is the file swapped for a FIFO after that stat.
    from tooldrop_markdown import load_markdown
    from tooldrop_python._loader import load_file

    path = tmp_path / "tool.md"
    os.mkfifo(path)
    result = load_markdown(path, "personal")
    assert not result.tools
    assert "not a regular file" in result.problems[0].message
    py = tmp_path / "tool.py"
    os.mkfifo(py)
    result = load_file(py, "personal")
    assert not result.tools
    assert "not a regular file" in result.problems[0].message
