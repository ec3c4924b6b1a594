"""Shared test setup: no test reads or writes the real user's config or cache dirs."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_user_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("TOOLDROP_CONFIG_DIR", str(home / "config"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "xdg-cache"))
    for name in ("TOOLDROP_PLUGINS", "TOOLDROP_STRICT_PLUGINS", "TOOLDROP_TRACE_PLUGINS"):
        monkeypatch.delenv(name, raising=False)
