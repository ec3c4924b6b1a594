"""Helpers for the markdown plugin's tests: real files in temporary directories."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tooldrop import LoadResult, ToolHost
from tooldrop_markdown import load_markdown, posix_quote, render
from tooldrop_markdown._template import parse, tokenize

HEADER = "---\nname: t\ndescription: d\n"
#: What the run-again warnings say of a value handed to a shell, or to a wrapper.
SHELL_CODE = "which runs it as shell code: the quotes around the value do not protect it there"
WRAPPER = (
    "{{ x }} is given to a wrapper that runs its arguments as a command: the value chooses "
    "the program; name the program in the file"
)
#: How the warnings for a program that runs the value as code end.
TELL = "If the tool is meant to run code, say so in its description and keep approval: always"


def frontmatter(body: str, params: str = "", extra: str = "") -> str:
    """A tool file named ``t``: ``params`` is the indented YAML under ``parameters:``."""
    text = HEADER + extra
    if params:
        text += "parameters:\n" + params
    return text + "---\n" + body + "\n"


def errors(load: Callable[..., LoadResult], body: str, params: str, shell: str | None) -> list[str]:
    """The error messages of a tool file with ``body`` (``shell:`` as given)."""
    extra = "" if shell is None else f"shell: {shell}\n"
    result = load(frontmatter(body, params, extra))
    return [p.message for p in result.problems if p.severity == "error"]


def warnings(load: Callable[..., LoadResult], body: str, params: str) -> list[str]:
    """The warning messages of a tool file with ``body``, which must load."""
    result = load(frontmatter(body, params))
    assert result.tools, [p.format() for p in result.problems]
    return [p.message for p in result.problems if p.severity == "warning"]


def bash_runs(folder: Path, body: str, value: str, marker: str = "PWNED") -> bool:
    """Render ``body`` with ``value`` quoted and no checks, run it with the real bash in
    ``folder``: whether the value ran as code (the ``marker`` file appeared)."""
    template, _ = parse(body, tokenize(body))
    script = render(template, {"x": value}, posix_quote)
    subprocess.run(
        ["/bin/bash", "-c", script], cwd=folder, capture_output=True, timeout=10, check=False
    )
    return (folder / marker).exists()


@pytest.fixture
def load(tmp_path: Path) -> Callable[..., LoadResult]:
    """``load(text, name="t.md")``: write the file and load it with the markdown loader."""
    counter = iter(range(1_000_000))

    def do(text: str | bytes, name: str | None = None) -> LoadResult:
        path = tmp_path / (name or f"tool{next(counter)}.md")
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8", newline="")
        return load_markdown(path, "project")

    return do


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project root with an empty ``.tooldrop/tools/``."""
    root = tmp_path / "project"
    (root / ".tooldrop" / "tools").mkdir(parents=True)
    return root


@pytest.fixture
def make_host(tmp_path: Path) -> Callable[..., ToolHost]:
    """``make_host(project, **kwargs)``: a host with the installed plugins."""
    hosts: list[ToolHost] = []

    def do(project: Path, **kwargs: object) -> ToolHost:
        kwargs.setdefault("user_dir", tmp_path / "user")
        host = ToolHost(project_dir=project, **kwargs)  # type: ignore[arg-type]
        hosts.append(host)
        return host

    yield do
    for host in hosts:
        host.close()
