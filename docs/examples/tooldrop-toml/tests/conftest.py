"""The plugin's tests: a host composed of the default policy, tooldrop-shell and this plugin."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import tooldrop.approval
import tooldrop_shell.plugin
import tooldrop_toml.plugin
from tooldrop import ToolHost


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory, monkeypatch):
    """Never read or write the real user's config and cache dirs."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("TOOLDROP_CONFIG_DIR", str(home / "config"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "xdg-cache"))


@pytest.fixture
def tools_dir(tmp_path) -> Path:
    folder = tmp_path / "project" / ".tooldrop" / "tools"
    folder.mkdir(parents=True)
    return folder


@pytest.fixture
def make_host(tmp_path, tools_dir) -> Callable[..., ToolHost]:
    """A host on the project of ``tools_dir``, with only the plugins this one needs."""

    def make(**kwargs) -> ToolHost:
        kwargs.setdefault(
            "plugins", [tooldrop.approval, tooldrop_shell.plugin, tooldrop_toml.plugin]
        )
        return ToolHost(project_dir=tools_dir.parents[1], user_dir=tmp_path / "config", **kwargs)

    return make
