"""Fixtures for tooldrop-python: real tool files in real personal and project dirs."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tooldrop.approval
import tooldrop_python.plugin
from tooldrop import ToolHost


class Dirs:
    """A project and a personal config dir, each with an empty tools dir."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.project = root / "project"
        self.user = root / "user"
        self.personal_tools = self.user / "tools"
        self.project_tools = self.project / ".tooldrop" / "tools"
        self.personal_tools.mkdir(parents=True)
        self.project_tools.mkdir(parents=True)

    def personal(self, file_name: str, source: str) -> Path:
        """Write a personal tool file (dedented) and return its path."""
        return write(self.personal_tools / file_name, source)

    def in_project(self, file_name: str, source: str) -> Path:
        return write(self.project_tools / file_name, source)


def write(path: Path, source: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return path


@pytest.fixture
def dirs(tmp_path: Path) -> Dirs:
    return Dirs(tmp_path)


@pytest.fixture
def make_host(dirs: Dirs) -> Callable[..., ToolHost]:
    hosts: list[ToolHost] = []

    def make(*extra_plugins: object, **kwargs: Any) -> ToolHost:
        host = ToolHost(
            project_dir=dirs.project,
            user_dir=dirs.user,
            plugins=[tooldrop_python.plugin, tooldrop.approval, *extra_plugins],
            **kwargs,
        )
        hosts.append(host)
        return host

    yield make
    for host in hosts:
        host.close()


@pytest.fixture
def host(make_host: Callable[..., ToolHost]) -> ToolHost:
    return make_host()


def _yes(call: object) -> bool:
    return True


@pytest.fixture
def yes() -> Callable[[object], bool]:
    """An ``ask`` callback that approves every prompt."""
    return _yes


def _problems_of(host: ToolHost, path: Path) -> list[str]:
    return [
        ": ".join(str(part) for part in (p.line, p.field, p.message) if part)
        for p in host.problems()
        if p.path == path
    ]


@pytest.fixture
def problems_of() -> Callable[[ToolHost, Path], list[str]]:
    """``problems_of(host, path)``: ``line: field: message`` for each problem of ``path``."""
    return _problems_of
