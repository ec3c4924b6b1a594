"""Third-party plugins installed for real, and the real ``tooldrop`` command to run them.

``site`` is a folder laid out the way pip installs distributions (a module and its
``*.dist-info`` with ``entry_points.txt``); ``run_tooldrop`` runs ``python -m tooldrop`` with that
folder on ``PYTHONPATH``, so the plugins are found through their entry points like any other.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest


def install(site: Path, dist: str, module: str, source: str, entry_name: str) -> None:
    """Write a distribution the way pip installs one: the module and its dist-info."""
    (site / f"{module}.py").write_text(textwrap.dedent(source))
    info = site / f"{dist.replace('-', '_')}-1.0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0.0\n")
    (info / "entry_points.txt").write_text(f"[tooldrop]\n{entry_name} = {module}\n")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    path = tmp_path / "site"
    path.mkdir()
    return path


@pytest.fixture
def installer(site: Path) -> Callable[[str, str, str, str], None]:
    """``installer(dist, module, source, entry_name)``: install one plugin into ``site``."""

    def do(dist: str, module: str, source: str, entry_name: str) -> None:
        install(site, dist, module, source, entry_name)

    return do


RunTooldrop = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_tooldrop(site: Path) -> RunTooldrop:
    """``run_tooldrop(*args, cwd=None, env={...})``: the real CLI, stdin not a terminal."""

    def run(
        *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        environ = {**os.environ, "PYTHONPATH": str(site), **(env or {})}
        return subprocess.run(
            [sys.executable, "-m", "tooldrop", *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env=environ,
            cwd=cwd,
            timeout=60,
            check=False,
        )

    return run
