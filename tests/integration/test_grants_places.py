"""An "always allow" holds where it was given (issue 13, item 1), with the real ``tooldrop``.

Two repositories side by side hold the byte-identical ``run_script`` tool (its body runs the
repository's own ``hello.sh``), as two clones of a docs example would. Granting it in A must not
run B's script unasked, trusted or not; inside an untrusted project a grant waits for trust.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tooldrop import ToolHost

TOOL = """---
name: run_script
description: Run the repository's hello script.
approval: always
---
sh ./hello.sh
"""


def make_repo(root: Path, marker: Path) -> Path:
    tools = root / ".tooldrop" / "tools"
    tools.mkdir(parents=True)
    (tools / "run-script.md").write_text(TOOL)
    (root / "hello.sh").write_text(f"touch '{marker}'\necho hello from {root.name}\n")
    return root


@pytest.fixture
def repos(tmp_path: Path) -> tuple[Path, Path]:
    return (
        make_repo(tmp_path / "repo-a", tmp_path / "ran-a"),
        make_repo(tmp_path / "repo-b", tmp_path / "ran-b"),
    )


def tooldrop(project: Path, user: Path, *args: str, answers: bytes | None = None):
    """The real CLI in ``project``; with ``answers`` its stdin is a terminal they are typed on."""
    command = [sys.executable, "-m", "tooldrop", "--user-dir", str(user), *args]
    if answers is None:
        done = subprocess.run(
            command,
            cwd=project,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        return done.returncode, done.stdout, done.stderr
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            command, cwd=project, stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        os.close(slave)
        slave = -1
        os.write(master, answers)
        out, err = proc.communicate(timeout=60)
    finally:
        if slave != -1:
            os.close(slave)
        os.close(master)
    return proc.returncode, out.decode(), err.decode()


def test_a_grant_in_one_repository_does_not_run_the_same_file_in_another(repos, tmp_path):
    a, b = repos
    user = tmp_path / "user"
    assert tooldrop(a, user, "trust")[0] == 0
    code, out, err = tooldrop(a, user, "call", "run_script", answers=b"a\n")
    assert code == 0, err
    assert "hello from repo-a" in out
    assert "remembered for this version of run_script, for project " in err  # where it holds
    assert (tmp_path / "ran-a").exists()

    # The same bytes in B, untrusted: asks, and with nobody to ask nothing runs.
    code, out, _ = tooldrop(b, user, "call", "run_script")
    assert code == 2, out
    assert not (tmp_path / "ran-b").exists()
    assert "not trusted" in tooldrop(b, user, "trust", "--status")[1]

    # Trusting B does not make A's grant B's: B's script still waits for a person.
    assert tooldrop(b, user, "trust")[0] == 0
    code, out, _ = tooldrop(b, user, "call", "run_script")
    assert code == 2, out
    assert not (tmp_path / "ran-b").exists()

    # In A the grant still answers instead of a person.
    (tmp_path / "ran-a").unlink()
    code, out, _ = tooldrop(a, user, "call", "run_script")
    assert code == 0, out
    assert (tmp_path / "ran-a").exists()

    # list, show and grants say where it holds.
    listing = json.loads(tooldrop(a, user, "list", "--json")[1])
    assert [t["grant"] for t in listing["tools"] if t["name"] == "run_script"] == ["applies"]
    listing = json.loads(tooldrop(b, user, "list", "--json")[1])
    assert [t["grant"] for t in listing["tools"] if t["name"] == "run_script"] == [None]
    assert "always allowed (grant)" in tooldrop(a, user, "list")[1]
    shown = tooldrop(a, user, "show", "run_script")[1]
    assert "grant      always allowed: this version, for project" in shown
    data = json.loads(tooldrop(b, user, "grants", "--json")[1])
    [grant] = data["grants"]
    assert (grant["name"], grant["scope"], grant["place"]) == ("run_script", "project", str(a))
    assert (grant["here"], grant["applies"], grant["status"]) == (False, False, "another project")


def test_inside_an_untrusted_project_a_grant_waits_for_trust(repos, tmp_path):
    a, _ = repos
    user = tmp_path / "user"
    code, _, err = tooldrop(a, user, "call", "run_script", answers=b"a\n")
    assert code == 0, err
    assert "it applies once you trust the project" in err
    (tmp_path / "ran-a").unlink()

    code, out, _ = tooldrop(a, user, "call", "run_script")
    assert code == 2, out  # remembered, but the project is not trusted: it asks
    assert not (tmp_path / "ran-a").exists()
    assert "grant waits for trust" in tooldrop(a, user, "list")[1]
    assert "applies once the project is trusted" in tooldrop(a, user, "show", "run_script")[1]
    [grant] = json.loads(tooldrop(a, user, "grants", "--json")[1])["grants"]
    assert grant["status"] == "waits for trust"

    assert tooldrop(a, user, "trust")[0] == 0
    code, out, _ = tooldrop(a, user, "call", "run_script")
    assert code == 0, out
    assert (tmp_path / "ran-a").exists()


def test_grants_revoke_forgets_the_grant_here(repos, tmp_path):
    a, b = repos
    user = tmp_path / "user"
    for repo in (a, b):
        assert tooldrop(repo, user, "trust")[0] == 0
        assert tooldrop(repo, user, "call", "run_script", answers=b"a\n")[0] == 0
    assert len(json.loads(tooldrop(a, user, "grants", "--json")[1])["grants"]) == 2

    code, out, _ = tooldrop(a, user, "grants", "--revoke", "run_script")
    assert code == 0
    assert "Revoked run_script (project" in out
    assert tooldrop(a, user, "call", "run_script")[0] == 2  # asks again
    assert tooldrop(b, user, "call", "run_script")[0] == 0  # B's own grant stays

    revoked = json.loads(tooldrop(a, user, "grants", "--revoke-all", "--json")[1])["revoked"]
    assert [g["place"] for g in revoked] == [str(b)]
    assert json.loads(tooldrop(a, user, "grants", "--json")[1])["grants"] == []


def test_old_grant_files_are_ignored_with_a_notice(repos, tmp_path):
    """Version 1 grants were keyed by name and hash only: never trusted more broadly."""
    a, _ = repos
    user = tmp_path / "user"
    user.mkdir()
    assert tooldrop(a, user, "trust")[0] == 0
    content_hash = ToolHost(project_dir=a, user_dir=user).get("run_script").origin.content_hash
    (user / "grants.json").write_text(
        json.dumps({"version": 1, "grants": {"run_script": [content_hash]}})
    )
    code, out, _ = tooldrop(a, user, "call", "run_script")
    assert code == 2, out  # the old grant does not answer
    assert not (tmp_path / "ran-a").exists()
    listing = json.loads(tooldrop(a, user, "list", "--json")[1])
    [notice] = [p for p in listing["problems"] if p["field"] == "grants"]
    assert notice["severity"] == "info"
    assert "are ignored" in notice["message"]
    assert tooldrop(a, user, "check")[0] == 0  # a notice, not a failure

    # A new grant keeps the old ones aside (still ignored, still reported) ...
    assert tooldrop(a, user, "call", "run_script", answers=b"a\n")[0] == 0
    data = json.loads((user / "grants.json").read_text())
    assert data["version"] == 2
    assert data["ignored_version_1"] == {"run_script": [content_hash]}
    assert json.loads(tooldrop(a, user, "grants", "--json")[1])["notices"]
    # ... until --revoke-all drops them.
    tooldrop(a, user, "grants", "--revoke-all")
    assert json.loads(tooldrop(a, user, "grants", "--json")[1])["notices"] == []
