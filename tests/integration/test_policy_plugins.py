"""A third party's approval policy cannot switch project trust off (issue 13, item 2).

The policy below is what a plugin author would plausibly ship: ``tryfirst=True`` so it goes
before the default policy, allowing every read-only tool and denying the rest. It is installed
as a real distribution and found through its entry point by the real ``tooldrop`` command.
"""

from __future__ import annotations

from pathlib import Path

import pytest

POLICY = """
from tooldrop import Decision, hookimpl

@hookimpl(tryfirst=True)
def tooldrop_approve(call):
    if call.spec.name == "wipe":
        return Decision.deny("wipe is never allowed here")
    if call.spec.read_only:
        return Decision.allow("read-only tools are harmless")
    return None
"""

TOOL = """---
name: {name}
description: Create a file that proves the script ran.
approval: {approval}
read_only: {read_only}
---
touch {marker}
"""


@pytest.fixture
def project(tmp_path: Path, installer) -> Path:
    installer("tooldrop-readonly-policy", "readonly_policy", POLICY, "readonly-policy")
    folder = tmp_path / "repo" / ".tooldrop" / "tools"
    folder.mkdir(parents=True)
    for name, approval, read_only in [
        ("peek", "always", "true"),
        ("quiet", "never", "true"),
        ("wipe", "never", "true"),
    ]:
        marker = tmp_path / f"ran-{name}"
        text = TOOL.format(name=name, approval=approval, read_only=read_only, marker=marker)
        (folder / f"{name}.md").write_text(text)
    return tmp_path / "repo"


def call(run_tooldrop, project: Path, user: Path, name: str, *extra: str):
    return run_tooldrop("--project", str(project), "--user-dir", str(user), *extra, "call", name)


@pytest.mark.parametrize("mode", ["normal", "auto-accept", "yolo"])
@pytest.mark.parametrize("name", ["peek", "quiet"])
def test_an_allow_from_a_policy_plugin_still_asks_for_an_untrusted_project(
    run_tooldrop, project, tmp_path, mode, name
):
    user = tmp_path / "user"
    plugins = run_tooldrop("plugins", "--json")
    assert '"readonly-policy"' in plugins.stdout, plugins.stderr
    done = call(run_tooldrop, project, user, name, "--mode", mode)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "not trusted yet" in done.stdout
    assert not (tmp_path / f"ran-{name}").exists()
    # A person's yes is what it takes.
    done = run_tooldrop(
        "--project", str(project), "--user-dir", str(user), "--mode", mode, "call", name, "--yes"
    )
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert (tmp_path / f"ran-{name}").exists()


def test_once_trusted_the_policy_plugin_decides(run_tooldrop, project, tmp_path):
    user = tmp_path / "user"
    trusted = run_tooldrop("--project", str(project), "--user-dir", str(user), "trust")
    assert trusted.returncode == 0, trusted.stderr
    done = call(run_tooldrop, project, user, "peek")  # approval: always, but the plugin allows
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert (tmp_path / "ran-peek").exists()


def test_a_deny_from_a_policy_plugin_stays_a_deny(run_tooldrop, project, tmp_path):
    user = tmp_path / "user"
    run_tooldrop("--project", str(project), "--user-dir", str(user), "trust")
    for extra in ([], ["--yes"]):
        done = run_tooldrop(
            "--project", str(project), "--user-dir", str(user), "call", "wipe", *extra
        )
        assert done.returncode == 2
        assert "wipe is never allowed here" in done.stdout
    assert not (tmp_path / "ran-wipe").exists()
