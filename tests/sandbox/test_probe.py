"""The bwrap probe says what bwrap itself says (issue 21: a probe that wrongly said no would
turn every confinement test here into a skip, and every sandboxed call into a refusal).

Each probe runs in a fresh process (the answer is remembered per process), with ``PATH``
pointing at the real bwrap or at a stand-in script that fails the way a real one can.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

#: What the probe asks of bwrap, written out by hand.
CONFINED = ["--unshare-user", "--cap-drop", "ALL", "--ro-bind", "/", "/"]
CONFINED += ["--unshare-pid", "--unshare-net", "--die-with-parent"]
PROBE = "import json, tooldrop_sandbox as s; p = s.probe_bwrap(); print(json.dumps(list(p)))"


def probe(path: str) -> list[object]:
    env = {**os.environ, "PATH": path}
    done = subprocess.run(
        [sys.executable, "-c", PROBE.replace("list(p)", "[p.path, p.problem, p.disable_userns]")],
        capture_output=True, text=True, env=env, check=True, timeout=60,
    )  # fmt: skip
    return json.loads(done.stdout)


def stand_in(directory: Path, script: str) -> Path:
    directory.mkdir()
    path = directory / "bwrap"
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)
    return path


def test_the_probe_agrees_with_bwrap_run_by_hand():
    path = shutil.which("bwrap")
    if path is None:
        pytest.skip("bubblewrap is not installed")

    def works(*extra: str) -> bool:
        argv = [path, *CONFINED, *extra, "--", "true"]
        return subprocess.run(argv, capture_output=True, timeout=30, check=False).returncode == 0

    if not works():
        pytest.skip("bwrap cannot confine here (user namespaces disabled?)")
    found = probe(os.path.dirname(path))
    assert found == [os.path.realpath(path), "", works("--disable-userns")]


def test_without_bwrap_the_probe_says_to_install_it(tmp_path):
    (tmp_path / "empty").mkdir()
    assert probe(str(tmp_path / "empty")) == [
        None,
        "bwrap (bubblewrap) is not installed or not on PATH",
        False,
    ]


def test_a_bwrap_that_fails_is_named_with_its_own_last_words(tmp_path):
    fake = stand_in(
        tmp_path / "bin", "echo starting >&2\necho 'setting up uid map: denied' >&2\nexit 1\n"
    )
    assert probe(str(fake.parent)) == [
        None,
        f"{fake} does not work here: setting up uid map: denied (user namespaces disabled?)",
        False,
    ]
    silent = stand_in(tmp_path / "quiet", "exit 3\n")
    assert probe(str(silent.parent))[1] == (
        f"{silent} does not work here: exit status 3 (user namespaces disabled?)"
    )


def test_an_older_bwrap_without_disable_userns_is_used_without_it(tmp_path):
    """It must be asked for the confinement the probe wants, ending in ``-- true``."""
    expected = " ".join([*CONFINED, "--", "true"])
    fake = stand_in(
        tmp_path / "bin",
        f'case "$*" in *--disable-userns*) exit 1;; "{expected}") exit 0;; *) exit 2;; esac\n',
    )
    assert probe(str(fake.parent)) == [str(fake), "", False]
    newer_expected = " ".join([*CONFINED, "--disable-userns", "--", "true"])
    newer = stand_in(tmp_path / "new", f'[ "$*" = "{newer_expected}" ]\n')
    assert probe(str(newer.parent)) == [str(newer), "", True]


STEPS = """\
import json, os, sys, tooldrop_sandbox as s
real, empty = sys.argv[1], sys.argv[2]
home = os.path.dirname(os.path.realpath(os.path.join(real, "bwrap")))
out = []
def step(path, untrusted=None):
    os.environ["PATH"] = path
    p = s.probe_bwrap(untrusted)
    out.append([p.path, p.problem])
step(real, untrusted=home)       # refused before it is ever run
step(real)                       # works, and is remembered for this PATH
step(real, untrusted=home)       # the remembered answer is refused too
step(real, untrusted="/nowhere") # ... but not for a project elsewhere
step(empty)                      # another PATH: searched again
step(empty, untrusted=home)
os.symlink(os.path.join(real, "bwrap"), os.path.join(empty, "bwrap"))
step(empty)                      # installed while the host runs: noticed
print(json.dumps(out))
"""


def test_the_probe_is_remembered_per_path_and_never_trusts_a_bwrap_in_the_project(tmp_path):
    """What a host sees when ``PATH`` changes or bubblewrap is installed while it runs, and
    when the bwrap found lives inside the project (before and after it was remembered)."""
    path = shutil.which("bwrap")
    if path is None:
        pytest.skip("bubblewrap is not installed")
    real = os.path.realpath(path)
    by_hand = subprocess.run([path, *CONFINED, "--", "true"], capture_output=True, timeout=30)
    if by_hand.returncode != 0:  # asked by hand: a probe that wrongly said no must fail here
        pytest.skip("bwrap cannot confine here (user namespaces disabled?)")
    (tmp_path / "empty").mkdir()
    done = subprocess.run(
        [sys.executable, "-c", STEPS, os.path.dirname(path), str(tmp_path / "empty")],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    refused = [None, f"{path} is inside the project, so it is not trusted"]
    assert json.loads(done.stdout) == [
        refused,
        [real, ""],
        [None, f"{real} is inside the project, so it is not trusted"],
        [real, ""],
        [None, "bwrap (bubblewrap) is not installed or not on PATH"],
        [None, "bwrap (bubblewrap) is not installed or not on PATH"],
        [real, ""],
    ]


def test_a_bwrap_that_cannot_start_is_not_taken_for_one_that_works(tmp_path):
    from tooldrop_sandbox._bwrap import _run_probe

    broken = tmp_path / "bwrap"
    broken.write_text("#!/nonexistent/interpreter\n")  # exec fails: OSError, no exit status
    broken.chmod(0o755)
    found = _run_probe(str(broken))
    assert found.path is None
    assert found.problem.startswith(f"{broken} does not work here: it could not be started (")


def test_a_bwrap_that_says_why_in_bytes_that_are_not_utf8_is_still_quoted(tmp_path):
    from tooldrop_sandbox._bwrap import _run_probe

    fake = stand_in(tmp_path / "bin", "printf 'uid map: \\377 denied\\n' >&2\nexit 1\n")
    assert _run_probe(str(fake)).problem == (
        f"{fake} does not work here: uid map: \ufffd denied (user namespaces disabled?)"
    )
