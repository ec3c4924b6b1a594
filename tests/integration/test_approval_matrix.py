"""Every approval × read_only × mode × always_allow × trust combination, run for real.

Each case writes a real markdown tool whose script creates a side-effect file, loads it with
the real markdown loader, calls it through the real shell backend with an ``ask`` callback that
records whether it was asked and answers yes or no, and checks three things against an oracle
written from the tables of DESIGN §7 (not from the policy's code): was the tool available, was a
person asked, and did the script run.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import tooldrop.approval
import tooldrop_markdown.plugin
import tooldrop_shell.plugin
from tooldrop import ToolHost

APPROVALS = ("never", "destructive", "always")
MODES = ("normal", "auto-accept", "architect", "yolo", "plan", "headless")
WHERE = ("personal", "project-untrusted", "project-trusted")

TOOL = """---
name: touch_it
description: Create a file that proves the script ran.
approval: {approval}
read_only: {read_only}
---
touch {marker}
"""


def oracle(
    approval: str, read_only: bool, mode: str, allowed: bool, where: str
) -> tuple[bool, bool]:
    """(available, asks) from the spec: the table of §7.1 with the trust rule of §7.3."""
    untrusted = where == "project-untrusted"
    effective = "always" if untrusted else approval
    if mode == "plan":
        available = effective == "never" and read_only
    elif mode == "headless":
        available = effective == "never"
    else:
        available = True
    if not available:
        return False, False
    if untrusted:
        return True, True  # asks in every mode; always_allow does not reach it
    if allowed or mode == "yolo" or approval == "never":
        return True, False
    if approval == "destructive" and mode in ("auto-accept", "architect"):
        return True, False
    return True, True


CASES = list(
    itertools.product(APPROVALS, (True, False), MODES, (False, True), WHERE, ("yes", "no"))
)


@pytest.mark.parametrize(
    ("approval", "read_only", "mode", "allowed", "where", "answer"),
    CASES,
    ids=["-".join(map(str, case)) for case in CASES],
)
def test_matrix(tmp_path: Path, approval, read_only, mode, allowed, where, answer):
    project = tmp_path / "project"
    user = tmp_path / "user"
    marker = tmp_path / "ran"
    folder = user / "tools" if where == "personal" else project / ".tooldrop" / "tools"
    folder.mkdir(parents=True)
    project.mkdir(exist_ok=True)
    text = TOOL.format(approval=approval, read_only=str(read_only).lower(), marker=marker)
    (folder / "touch-it.md").write_text(text)

    def host_for(mode: str) -> ToolHost:
        return ToolHost(
            project_dir=project,
            user_dir=user,
            mode=mode,  # type: ignore[arg-type]
            always_allow={"touch_it"} if allowed else (),
            plugins=[tooldrop.approval, tooldrop_markdown.plugin, tooldrop_shell.plugin],
        )

    if where == "project-trusted":
        host_for("normal").trust()
    host = host_for(mode)
    assert host.get("touch_it") is not None, host.problems()

    asked: list[str] = []

    def ask(call):
        asked.append(call.name)
        return answer == "yes"

    available, asks = oracle(approval, read_only, mode, allowed, where)
    assert ("touch_it" in [s.name for s in host.tools()]) is available
    result = host.call("touch_it", {}, ask=ask)
    assert bool(asked) is asks
    ran = available and (not asks or answer == "yes")
    assert marker.exists() is ran, result.text
    assert result.is_error is not ran
    if available and asks and answer == "no":
        assert result.denied
        assert "Tool call denied" in result.text
    if not available:
        assert result.text == f'Tool "touch_it" is not available in {mode} mode'


def test_headless_with_no_one_to_ask_denies_and_never_hangs(tmp_path: Path):
    """A call that needs a person, with no ask callback and no tooldrop_ask plugin: denied."""
    project = tmp_path / "p"
    folder = project / ".tooldrop" / "tools"
    folder.mkdir(parents=True)
    marker = tmp_path / "ran"
    (folder / "t.md").write_text(TOOL.format(approval="always", read_only="false", marker=marker))
    host = ToolHost(
        project_dir=project,
        user_dir=tmp_path / "u",
        plugins=[tooldrop.approval, tooldrop_markdown.plugin, tooldrop_shell.plugin],
    )
    result = host.call("touch_it", {})
    assert result.denied
    assert "there is no one to ask" in result.text
    # ... and says what would help: for an untrusted project, trusting it (not yolo mode)
    assert "run `tooldrop trust`" in result.text
    assert not marker.exists()
    host.trust()
    again = host.call("touch_it", {})
    assert "its approval is always: approve it at a prompt, run in yolo mode" in again.text


def test_editing_a_trusted_project_tool_voids_the_trust(tmp_path: Path):
    project = tmp_path / "p"
    folder = project / ".tooldrop" / "tools"
    folder.mkdir(parents=True)
    marker = tmp_path / "ran"
    path = folder / "t.md"
    path.write_text(TOOL.format(approval="never", read_only="true", marker=marker))

    def host() -> ToolHost:
        return ToolHost(
            project_dir=project,
            user_dir=tmp_path / "u",
            mode="headless",
            plugins=[tooldrop.approval, tooldrop_markdown.plugin, tooldrop_shell.plugin],
        )

    assert host().tools() == []  # untrusted: hidden in headless
    host().trust()
    assert [s.name for s in host().tools()] == ["touch_it"]
    path.write_text(path.read_text().replace("touch", "touch  "))
    assert host().tools() == []
    assert not host().is_trusted()
