"""Shared test setup: no test reads or writes the real user's config or cache dirs, and
Hypothesis runs with settings that hold on a loaded 2-core machine."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# Property tests run real shells and subprocesses: their speed depends on the machine's load,
# not on the code, so Hypothesis' timing checks (deadline, too_slow) would only add flakes.
# `dev` (the default) is quick; `ci` (CI=true) tries more inputs per test and is repeatable
# (derandomized), so a CI failure reproduces locally with HYPOTHESIS_PROFILE=ci; `thorough`
# is for hunting: HYPOTHESIS_PROFILE=thorough uv run pytest tests/markdown. `mutation` is the
# mutation runner's (tests/mutation/run.py): the same inputs in its coverage run and in every
# mutant's run, and no example database carried from one mutant to the next.
_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow], "print_blob": True}
settings.register_profile("dev", max_examples=50, **_COMMON)
settings.register_profile("ci", max_examples=100, derandomize=True, **_COMMON)
settings.register_profile("thorough", max_examples=2000, **_COMMON)
settings.register_profile("mutation", max_examples=50, derandomize=True, database=None, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


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
