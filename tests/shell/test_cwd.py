"""Where a tool's shell starts, and the ways a ``cwd`` must not get out of the project."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldrop_shell import CWD_ESCAPES, resolve_cwd
from tooldrop_shell._errors import SetupError

# Every refused call must leave this file absent: the proof that nothing ran.
TOUCH = 'touch "$TOOLDROP_TEST_MARKER"; pwd -P'


@pytest.fixture
def marker(tmp_path, monkeypatch):
    path = tmp_path / "ran"
    monkeypatch.setenv("TOOLDROP_TEST_MARKER", str(path))
    return path


@pytest.fixture
def layout(project: Path) -> Path:
    """``proj/sub``, ``proj/file.txt``, ``proj/link-in -> sub``, ``proj/link-out -> ../elsewhere``,
    and a sibling ``proj-evil`` that shares the project root's prefix."""
    (project / "sub" / "deep").mkdir(parents=True)
    (project / "file.txt").write_text("x")
    (project.parent / "elsewhere").mkdir()
    (project.parent / "proj-evil").mkdir()
    (project / "link-in").symlink_to(project / "sub")
    (project / "link-out").symlink_to(project.parent / "elsewhere")
    return project


def test_default_is_the_project_root(run, project):
    assert run("pwd -P").text == f"EXIT_CODE: 0\n{project.resolve()}"


@pytest.mark.parametrize(
    ("cwd", "where"),
    [
        ("sub", "sub"),
        ("./sub/deep", "sub/deep"),
        ("sub/../sub/deep/..", "sub"),
        ("link-in", "sub"),  # a symlink that stays inside is followed
        (".", ""),
        ("", ""),
    ],
)
def test_relative_cwd_inside_the_project(run, layout, cwd, where):
    expected = (layout / where).resolve()
    assert run("pwd -P", cwd=cwd).text == f"EXIT_CODE: 0\n{expected}"


def test_absolute_cwd_inside_the_project(run, layout):
    assert run("pwd -P", cwd=str(layout / "sub")).text == f"EXIT_CODE: 0\n{layout / 'sub'}"


@pytest.mark.parametrize(
    "cwd",
    [
        "..",
        "../..",
        "sub/../../elsewhere",
        "/",
        "/tmp",
        "${HOME}",
        "$HOME/x",
        "../proj-evil",  # shares the root's prefix: a string check would let it through
        "link-out",  # a symlink inside the project pointing out of it
        "link-out/missing",  # ... even to a directory that does not exist there
        "/nonexistent/elsewhere",  # missing, but outside: refused, not a fallback
        "${OUTSIDE}",
        "${UNSET_VAR:-..}",
        "${UNSET_VAR}/sub",  # an unset variable leaves "/sub": absolute, outside
    ],
)
def test_escaping_cwd_is_refused_before_anything_runs(run, layout, marker, monkeypatch, cwd):
    monkeypatch.setenv("HOME", str(layout.parent / "elsewhere"))
    monkeypatch.setenv("OUTSIDE", str(layout.parent / "proj-evil"))
    monkeypatch.delenv("UNSET_VAR", raising=False)
    result = run(TOUCH, cwd=cwd)
    assert result.is_error
    assert result.text == CWD_ESCAPES == "Custom tool cwd escapes the project directory"
    assert not marker.exists()


def test_absolute_path_to_the_sibling_with_the_same_prefix(run, layout, marker):
    result = run(TOUCH, cwd=str(layout.parent / "proj-evil"))
    assert result.text == CWD_ESCAPES
    assert not marker.exists()


def test_project_root_reached_through_a_symlink(tmp_path, pack, new_host):
    # The host was given a symlink to the project: real paths on both sides still agree.
    real = tmp_path / "proj"
    (real / "sub").mkdir(parents=True, exist_ok=True)
    alias = tmp_path / "alias"
    alias.symlink_to(real)
    pack.add("where", "pwd -P", cwd="sub")
    host = new_host()
    host.project_dir = alias  # as a host app might set it, unresolved
    assert host.call("where", {}).text == f"EXIT_CODE: 0\n{real.resolve() / 'sub'}"


@pytest.mark.parametrize(
    "cwd", ["missing", "sub/missing/deeper", "~/x", "${UNSET_VAR:-missing}/deeper"]
)
def test_missing_cwd_inside_falls_back_to_the_root(run, layout, cwd, monkeypatch):
    monkeypatch.delenv("UNSET_VAR", raising=False)
    assert run("pwd -P", cwd=cwd).text == f"EXIT_CODE: 0\n{layout.resolve()}"


def test_cwd_that_is_a_file_is_an_error(run, layout, marker):
    result = run(TOUCH, cwd="file.txt")
    assert result.is_error
    assert result.text == "Custom tool cwd is not a directory: file.txt"
    assert not marker.exists()


def test_cwd_variables_expand_from_the_environment(run, layout, monkeypatch):
    monkeypatch.setenv("TOOL_SUB", "sub")
    monkeypatch.setenv("EMPTY", "")
    assert run("pwd -P", cwd="${TOOL_SUB}/deep").text == f"EXIT_CODE: 0\n{layout / 'sub/deep'}"
    assert run("pwd -P", cwd="$TOOL_SUB").text == f"EXIT_CODE: 0\n{layout / 'sub'}"
    assert run("pwd -P", cwd="${NOPE_X:-sub}").text == f"EXIT_CODE: 0\n{layout / 'sub'}"
    # set-but-empty wins over the default (the reference's semantics): "" is the root
    assert run("pwd -P", cwd="${EMPTY:-sub}").text == f"EXIT_CODE: 0\n{layout}"


def test_nul_byte_in_cwd_is_refused(project):
    with pytest.raises(SetupError, match="escapes"):
        resolve_cwd("sub\0x", project)


# -- property: whatever the cwd, the shell starts inside the project or not at all -----------

_PARTS = st.sampled_from(
    ["..", ".", "sub", "deep", "link-in", "link-out", "missing", "file.txt", "proj-evil", ""]
)
_CWDS = st.builds(
    lambda absolute, parts: ("/" if absolute else "") + "/".join(parts),
    st.booleans(),
    st.lists(_PARTS, max_size=6),
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cwd=_CWDS)
def test_resolved_cwd_is_always_inside_the_project(layout, cwd):
    root = os.path.realpath(layout)
    try:
        resolved = resolve_cwd(cwd, layout, environ={})
    except SetupError:
        return
    real = os.path.realpath(resolved)
    assert os.path.commonpath([root, real]) == root
    assert Path(real).is_dir()
    assert not (real + "/").startswith(root + "-")
