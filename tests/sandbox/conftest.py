"""Real bubblewrap, real bash, real markdown tool files in a real project directory.

The tests that confine anything skip, with the reason printed (``-ra``), where ``bwrap``
cannot run; CI installs bubblewrap (``.ci/run``) so they run there.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

import tooldrop.approval
import tooldrop_markdown.plugin
import tooldrop_sandbox
import tooldrop_shell.plugin
from tooldrop import ToolHost, ToolResult

PROBLEM = tooldrop_sandbox.probe_bwrap().problem
needs_bwrap = pytest.mark.skipif(bool(PROBLEM), reason=f"bubblewrap cannot run here: {PROBLEM}")

PLUGINS = (
    tooldrop_markdown.plugin,
    tooldrop_shell.plugin,
    tooldrop.approval,
    tooldrop_sandbox.plugin,
)


class Project:
    """A project directory with markdown tools, and hosts over it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.tools = root / ".tooldrop" / "tools"
        self.tools.mkdir(parents=True)

    def tool(self, name: str, script: str, **front: Any) -> Path:
        front = {"name": name, "description": f"test tool {name}", "approval": "never", **front}
        text = f"---\n{yaml.safe_dump(front, sort_keys=False)}---\n{textwrap.dedent(script)}"
        path = self.tools / f"{name}.md"
        path.write_text(text, encoding="utf-8")
        return path

    def host(self, sandbox: str = "required", **kwargs: Any) -> ToolHost:
        return ToolHost(self.root, sandbox=sandbox, plugins=PLUGINS, cache=False, **kwargs)

    def call(self, name: str, sandbox: str = "required", **kwargs: Any) -> ToolResult:
        """Call a tool, saying yes to any prompt (the project is not trusted)."""
        with self.host(sandbox) as host:
            return host.call(name, kwargs, ask=lambda call: True)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path / "project")


@pytest.fixture
def outside_tmp() -> Callable[[str], Path]:
    """Unique paths in the real home directory (outside /tmp), removed afterwards."""
    made: list[Path] = []

    def make(name: str) -> Path:
        path = Path.home() / f".tooldrop-sandbox-test-{os.getpid()}-{len(made)}-{name}"
        made.append(path)
        return path

    yield make
    for path in made:
        if path.is_dir():
            for child in path.iterdir():
                child.unlink()
            path.rmdir()
        elif path.exists():
            path.unlink()
