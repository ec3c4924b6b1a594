"""Built and pip-installed for real, the plugin is found through its entry point by the CLI.

The wheel is installed with ``uv pip install --target`` into a folder that real ``tooldrop``
processes get on their ``PYTHONPATH``, exactly like a third-party plugin. (``.ci/wheels.sh``
does the same in a clean virtual environment with only built wheels.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    uv = shutil.which("uv")
    assert uv, "uv is needed to build and install the plugin"
    out = tmp_path_factory.mktemp("wheel")
    site = tmp_path_factory.mktemp("site")
    subprocess.run([uv, "build", "--wheel", "-q", "-o", str(out), str(EXAMPLE)], check=True)
    [wheel] = out.glob("*.whl")
    subprocess.run(
        [uv, "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)], check=True
    )
    return site


@pytest.fixture
def tooldrop(site, tmp_path):
    project = tmp_path / "project"
    tools = project / ".tooldrop" / "tools"
    tools.mkdir(parents=True)
    (tools / "greet.toml").write_text(
        'name = "greet"\ndescription = "Greet someone."\ncommand = ["echo", "hello", "{who}"]\n'
        'approval = "never"\n[parameters.who]\ntype = "string"\nrequired = true\n'
    )
    (tools / "broken.toml").write_text('name = "broken"\ndescription = "d"\ncommand = ["{x}"]\n')
    env = {**os.environ, "PYTHONPATH": str(site), "TOOLDROP_CONFIG_DIR": str(tmp_path / "cfg")}

    def run(*args: str, code: int = 0) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "tooldrop", "--project", str(project), *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert done.returncode == code, done.stdout + done.stderr
        return done.stdout + done.stderr

    return run


def test_list_plugins_check_and_call(tooldrop):
    assert "toml  (tooldrop-toml 1.0.0, entrypoint)  tooldrop_toml.plugin" in tooldrop("plugins")
    listing = tooldrop("list")
    assert "toml · project" in listing
    assert "greet" in listing
    checked = tooldrop("check", code=1)
    assert ".tooldrop/tools/broken.toml:3: command[0]: the program must be fixed text" in checked
    assert tooldrop("render", "greet", "who=it's me") == "echo hello 'it'\"'\"'s me'"
    tooldrop("call", "greet", "who=you", code=2)  # not trusted, no terminal: denied
    tooldrop("trust")
    assert tooldrop("call", "greet", "who=you") == "EXIT_CODE: 0\nhello you"
