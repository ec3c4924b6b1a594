"""A tool's cwd: and env: are shown wherever a person decides about it (issue 12): at
``tooldrop trust`` and at the approval prompt. A variable can make an innocent-looking
script run code, so reading the scripts alone is not enough."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tooldrop import ToolCall
from tooldrop.cli import build_cli, load_plugin_set
from tooldrop.cli._call import describe_call


@pytest.fixture
def cli(project, user_dir, core_plugins, monkeypatch):
    monkeypatch.chdir(project)

    def invoke(*args: str):
        group = build_cli(load_plugin_set(core_plugins))
        return CliRunner().invoke(
            group, ["--user-dir", str(user_dir), *args], catch_exceptions=False
        )

    return invoke


def test_trust_lists_every_env_and_cwd(cli, project, tool_writer):
    folder = project / ".tooldrop" / "tools"
    folder.mkdir(parents=True, exist_ok=True)
    tool_writer(folder, "a.json", name="alpha", env={"EDITOR_X": "vim -c x", "B": "2"}, cwd="sub")
    tool_writer(folder, "b.json", name="beta")
    out = cli("trust").output
    assert "alpha:\n  Runs in: sub\n  Environment:\n    EDITOR_X='vim -c x'\n    B='2'\n" in out
    assert "beta:" not in out  # nothing to show


def test_the_prompt_shows_env_and_cwd(spec_factory):
    spec = spec_factory(name="t", env={"GIT_DIR": "x"}, cwd="${HOME}/x")
    text = describe_call(ToolCall(spec=spec, args={}), host=None)  # type: ignore[arg-type]
    assert "Runs in: ${HOME}/x" in text
    assert "Environment:\n  GIT_DIR='x'" in text
