"""``tooldrop new NAME --python``: the scaffold is a working, commented personal tool."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tooldrop_python._scaffold import python_tool_name


@pytest.mark.parametrize(
    ("name", "file_name", "tool_name"),
    [
        ("k8s-pods", "k8s_pods.py", "k8s_pods"),
        ("weather", "weather.py", "weather"),
        ("My Tool!", "My_Tool.py", "My_Tool"),
        ("2fa", "2fa.py", "2fa"),
        ("class", "class.py", "class"),
    ],
)
def test_the_scaffold_loads_cleanly_and_runs(dirs, host, yes, name, file_name, tool_name):
    written = host.hook.tooldrop_scaffold(name=name, kind="python", host=host)
    assert written is not None
    got_name, text = written
    assert got_name == file_name
    (dirs.personal_tools / got_name).write_text(text)
    host.reload()
    assert host.problems() == []
    spec = host.get(f"custom__{tool_name}")
    assert spec.description.startswith("Repeat a text")
    assert spec.input_schema["required"] == ["text"]
    assert spec.input_schema["properties"]["text"]["description"].startswith("The text to repeat")
    assert (spec.approval, spec.read_only, spec.timeout_ms) == ("always", True, 30_000)
    assert host.call(spec.name, {"text": "hi", "repeat": 2}, ask=yes).text == "hi\nhi"


def test_other_kinds_are_left_to_other_plugins(host):
    assert host.hook.tooldrop_scaffold(name="x", kind="markdown", host=host) is None


def test_a_name_with_nothing_to_use_is_refused():
    with pytest.raises(ValueError, match="no letters or digits"):
        python_tool_name("--- !")


def test_the_scaffold_is_ruff_clean(dirs, host, tmp_path):
    _, text = host.hook.tooldrop_scaffold(name="lint_me", kind="python", host=host)
    path = tmp_path / "lint_me.py"
    path.write_text(text)
    ruff = shutil.which("ruff", path=os.path.dirname(sys.executable))
    if ruff is None:
        pytest.skip("ruff is not installed next to this Python")
    done = subprocess.run(
        [ruff, "check", "--isolated", "--select", "E,F,W,I,B,UP", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout


def test_tooldrop_new_python_through_the_cli(dirs):
    tooldrop = shutil.which("tooldrop", path=os.path.dirname(sys.executable))
    assert tooldrop is not None
    base = [tooldrop, "--project", str(dirs.project), "--user-dir", str(dirs.user)]
    env = {**os.environ, "TOOLDROP_PLUGINS": "python,approval"}
    created = subprocess.run(
        [*base, "new", "k8s-pods", "--python"], capture_output=True, text=True, env=env, timeout=120
    )
    assert created.returncode == 0, created.stderr
    path = dirs.personal_tools / "k8s_pods.py"
    assert path.is_file()
    checked = subprocess.run([*base, "check"], capture_output=True, text=True, env=env, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    path.write_text(path.read_text() + "# my edits\n")
    before = path.read_text()
    again = subprocess.run(
        [*base, "new", "k8s-pods", "--python"], capture_output=True, text=True, env=env, timeout=120
    )
    assert again.returncode == 1
    assert path.read_text() == before  # never overwritten


def test_tooldrop_new_python_refuses_a_name_with_nothing_to_use(dirs):
    tooldrop = shutil.which("tooldrop", path=os.path.dirname(sys.executable))
    base = [tooldrop, "--project", str(dirs.project), "--user-dir", str(dirs.user)]
    env = {**os.environ, "TOOLDROP_PLUGINS": "python,approval"}
    done = subprocess.run(
        [*base, "new", "--python", "--", "!!!"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 1
    assert "has no letters or digits to name a tool with" in done.stderr
    assert list(dirs.personal_tools.iterdir()) == []
