"""``tooldrop call``'s prompt on a real terminal: always allow, and edit in ``$EDITOR``.

Each test runs the real ``tooldrop`` command (every installed plugin, a real markdown tool, the
real shell backend) with its stdin on a pseudo-terminal, and answers the prompt through it.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = """---
name: touch_file
description: Create an empty file.
parameters:
  path:
    type: string
    required: true
approval: always
---
touch {{ path }} && echo touched {{ path }}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project" / ".tooldrop" / "tools"
    folder.mkdir(parents=True)
    (folder / "touch-file.md").write_text(TOOL)
    return tmp_path / "project"


def tooldrop(project: Path, user: Path, *args: str, answers: bytes | None, env=None):
    """Run ``tooldrop``; with ``answers``, stdin is a terminal that has them typed in."""
    command = [sys.executable, "-m", "tooldrop", "--project", str(project), "--user-dir", str(user)]
    environ = {**os.environ, **(env or {})}
    if answers is None:
        done = subprocess.run(
            [*command, *args], capture_output=True, text=True, env=environ, timeout=60, check=False
        )
        return done.returncode, done.stdout, done.stderr
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            [*command, *args],
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=environ,
        )
        os.close(slave)
        slave = -1
        os.write(master, answers)  # the terminal holds the lines until the prompts read them
        out, err = proc.communicate(timeout=60)
    finally:
        if slave != -1:
            os.close(slave)
        os.close(master)
    return proc.returncode, out.decode(), err.decode()


def test_always_allow_is_remembered_for_this_version_of_the_tool(project, tmp_path):
    user = tmp_path / "user"
    target = tmp_path / "a"
    code, out, err = tooldrop(project, user, "call", "touch_file", f"path={target}", answers=b"a\n")
    assert code == 0, err
    assert out == f"EXIT_CODE: 0\ntouched {target}"
    assert "[a] always allow" in err
    grants = json.loads((user / "grants.json").read_text())["grants"]
    assert [(g["name"], g["scope"], g["place"]) for g in grants] == [
        ("touch_file", "project", str(project.resolve()))
    ]

    # No terminal now, and the project is not trusted: a grant never bypasses that rule.
    again = tmp_path / "b"
    code, out, _ = tooldrop(project, user, "call", "touch_file", f"path={again}", answers=None)
    assert code == 2
    assert "not trusted yet" in out
    assert not again.exists()

    # Once the project is trusted, the remembered grant answers instead of a person.
    code, _, err = tooldrop(project, user, "trust", answers=None)
    assert code == 0, err
    code, out, _ = tooldrop(project, user, "call", "touch_file", f"path={again}", answers=None)
    assert code == 0, out
    assert again.exists()

    # An edited tool file is another tool: the grant no longer applies.
    tool = project / ".tooldrop" / "tools" / "touch-file.md"
    tool.write_text(tool.read_text().replace("echo touched", "echo made"))
    third = tmp_path / "c"
    code, out, err = tooldrop(project, user, "call", "touch_file", f"path={third}", answers=None)
    assert code == 2
    assert not third.exists()


def test_edit_opens_the_arguments_in_editor_then_shows_the_new_script(project, tmp_path):
    user = tmp_path / "user"
    original, edited = tmp_path / "original", tmp_path / "edited"
    editor = tmp_path / "editor.py"
    editor.write_text(
        f"import json, sys\njson.dump({{'path': {str(edited)!r}}}, open(sys.argv[1], 'w'))\n"
    )
    code, out, err = tooldrop(
        project,
        user,
        "call",
        "touch_file",
        f"path={original}",
        answers=b"e\ny\n",
        env={"EDITOR": f"{sys.executable} {editor}"},
    )
    assert code == 0, err
    assert out == f"EXIT_CODE: 0\ntouched {edited}"
    assert edited.exists()
    assert not original.exists()
    # the new script was shown before the second question
    assert err.index(f"| touch '{original}'") < err.index(f"| touch '{edited}'")


def test_edited_arguments_are_validated_again(project, tmp_path):
    # Arguments that do not meet the schema are shown with the error and asked about again
    # (docs/approval.md), not run and not the end of the call.
    user = tmp_path / "user"
    target = tmp_path / "made"
    editor = tmp_path / "editor.py"
    editor.write_text("import json, sys\njson.dump({'path': 5}, open(sys.argv[1], 'w'))\n")
    code, out, err = tooldrop(
        project,
        user,
        "call",
        "touch_file",
        f"path={target}",
        answers=b"e\nn\n",
        env={"EDITOR": f"{sys.executable} {editor}"},
    )
    assert code == 2, err
    assert out.startswith("Tool call denied: the user declined")
    assert 'The edited arguments would not run: {"path": 5}' in err
    assert '⚒ Parameter "path" has wrong type — expected string, got number' in err
    assert err.count("Run it?") == 2
    assert not target.exists()


def test_a_second_edit_starts_from_the_first_and_can_fix_it(project, tmp_path):
    user = tmp_path / "user"
    target = tmp_path / "made"
    editor = tmp_path / "editor.py"
    # Each edit toggles an undeclared "x": the first adds it (refused), the second, which
    # must see the first edit's text, takes it out again.
    editor.write_text(
        "import json, sys\n"
        "args = json.load(open(sys.argv[1]))\n"
        "if 'x' in args:\n    del args['x']\nelse:\n    args['x'] = 1\n"
        "json.dump(args, open(sys.argv[1], 'w'))\n"
    )
    code, out, err = tooldrop(
        project,
        user,
        "call",
        "touch_file",
        f"path={target}",
        answers=b"e\ne\ny\n",
        env={"EDITOR": f"{sys.executable} {editor}"},
    )
    assert code == 0, err
    assert out == f"EXIT_CODE: 0\ntouched {target}"
    assert "The edited arguments would not run" in err
    assert "x" in err.split("The edited arguments would not run", 1)[1].splitlines()[1]
    assert target.exists()


def test_the_prompt_says_enter_means_no(project, tmp_path):
    target = tmp_path / "made"
    code, out, err = tooldrop(
        project, tmp_path / "user", "call", "touch_file", f"path={target}", answers=b"\n"
    )
    assert code == 2, err
    assert "(Enter: no)" in err
    assert out.startswith("Tool call denied: the user declined")
    assert not target.exists()


def test_editing_to_invalid_json_keeps_the_arguments_and_asks_again(project, tmp_path):
    user = tmp_path / "user"
    target = tmp_path / "kept"
    editor = tmp_path / "editor.py"
    editor.write_text("import sys\nopen(sys.argv[1], 'w').write('{oops')\n")
    code, out, err = tooldrop(
        project,
        user,
        "call",
        "touch_file",
        f"path={target}",
        answers=b"e\nn\n",
        env={"EDITOR": f"{sys.executable} {editor}"},
    )
    assert code == 2
    assert "Not valid JSON" in err
    assert not target.exists()
    assert out.startswith("Tool call denied: the user declined")


@pytest.mark.parametrize("mode", ["normal", "headless"])
def test_call_says_the_project_is_untrusted(project, tmp_path, mode):
    """Without a terminal the untrusted project's tool is refused (normal) or hidden
    (headless); either way stderr says why and what to run, once."""
    code, out, err = tooldrop(
        project, tmp_path / "user", "--mode", mode, "call", "touch_file", "path=x", answers=None
    )
    assert code in (1, 2), (out, err)
    assert err.count("this project is not trusted") == 1, err
    assert f"run `tooldrop trust` in {project.resolve()}" in err
    assert not (project / "x").exists()
