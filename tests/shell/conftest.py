"""Shell tools for the tests, without the markdown plugin: a tiny tool pack.

``ShellPack`` registers ``ToolSpec(runner="shell", payload=<script>)`` objects through
``tooldrop_register_tools`` and renders them by substituting ``{{name}}`` with the POSIX-quoted
argument, so the tests exercise the real host, pipeline, approval policy and shell plugin.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

import tooldrop.approval
import tooldrop_shell
from tooldrop import Origin, ToolCall, ToolHost, ToolSpec, hookimpl

_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _render(script: str, args: dict[str, Any]) -> str:
    """``{{name}}`` → the argument, POSIX-quoted (JSON for non-strings, '' when missing)."""
    return _PLACEHOLDER.sub(lambda m: shlex.quote(_text(args.get(m[1], ""))), script)


class ShellPack:
    """Tools registered from test code. ``add`` them before the host's first use."""

    def __init__(self) -> None:
        self.specs: dict[str, ToolSpec] = {}

    def add(
        self,
        name: str,
        script: str,
        *,
        params: dict[str, Any] | None = None,
        approval: str = "never",
        read_only: bool = True,
        **fields: Any,
    ) -> ToolSpec:
        schema = {"type": "object", "properties": params or {}, "additionalProperties": False}
        spec = ToolSpec(
            name=name,
            description=f"test tool {name}",
            input_schema=schema,
            approval=approval,  # type: ignore[arg-type]
            read_only=read_only,
            origin=Origin(source="test", scope="plugin"),
            runner="shell",
            payload=script,
            **fields,
        )
        self.specs[name] = spec
        return spec

    @hookimpl
    def tooldrop_register_tools(self, register: Callable[[Any], None]) -> None:
        for spec in self.specs.values():
            register(spec)

    @hookimpl
    def tooldrop_render(self, call: ToolCall) -> str | None:
        if call.spec.name in self.specs:
            return _render(str(call.spec.payload), dict(call.args))
        return None


def make_host(project: Path, pack: ShellPack, **kwargs: Any) -> ToolHost:
    user_dir = project.parent / f"{project.name}-user"
    return ToolHost(
        project_dir=project,
        user_dir=user_dir,
        plugins=[tooldrop_shell.plugin, tooldrop.approval, pack],
        **kwargs,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    return root


@pytest.fixture
def pack() -> ShellPack:
    return ShellPack()


@pytest.fixture
def host(project: Path, pack: ShellPack) -> Iterator[ToolHost]:
    with make_host(project, pack) as h:
        yield h


@pytest.fixture
def new_host(project: Path, pack: ShellPack) -> Iterator[Callable[..., ToolHost]]:
    """``new_host(**ToolHost kwargs)``: a host over the same project and pack."""
    hosts: list[ToolHost] = []

    def build(**kwargs: Any) -> ToolHost:
        hosts.append(make_host(project, pack, **kwargs))
        return hosts[-1]

    yield build
    for h in hosts:
        h.close()


@pytest.fixture
def run(host: ToolHost, pack: ShellPack) -> Callable[..., Any]:
    """``run(script, **spec_fields)``: register a one-off tool and call it."""
    counter = iter(range(10**6))

    def call(script: str, args: dict[str, Any] | None = None, **fields: Any) -> Any:
        name = f"t{next(counter)}"
        pack.add(name, script, **fields)
        host.reload()
        return host.call(name, args or {})

    return call


# -- processes ------------------------------------------------------------------------------


class Procs:
    """Process inspection for the tests (``procs`` fixture)."""

    @staticmethod
    def group_members(pgid: int) -> list[psutil.Process]:
        return group_members(pgid)

    @staticmethod
    def wait_gone(pgid: int, within: float = 5.0) -> list[psutil.Process]:
        return wait_gone(pgid, within)

    @staticmethod
    def zombies() -> list[psutil.Process]:
        return my_zombies()

    @staticmethod
    def first_int(text: str, label: str) -> int:
        return first_int(text, label)


@pytest.fixture
def procs() -> Procs:
    return Procs()


def group_members(pgid: int) -> list[psutil.Process]:
    """Live (non-zombie) processes whose process group is ``pgid``."""
    found = []
    for proc in psutil.process_iter():
        with contextlib.suppress(psutil.Error, ProcessLookupError, PermissionError):
            if os.getpgid(proc.pid) == pgid and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc)
    return found


def wait_gone(pgid: int, within: float = 5.0) -> list[psutil.Process]:
    """Group members still alive after ``within`` seconds (SIGKILL delivery is asynchronous)."""
    end = time.monotonic() + within
    while True:
        members = group_members(pgid)
        if not members or time.monotonic() > end:
            return members
        time.sleep(0.05)


def my_zombies() -> list[psutil.Process]:
    """Children of this test process that exited and were never reaped."""
    zombies = []
    for child in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if child.status() == psutil.STATUS_ZOMBIE:
                zombies.append(child)
    return zombies


def first_int(text: str, label: str) -> int:
    """The integer printed after ``label=`` in a tool's output."""
    match = re.search(rf"{label}=(\d+)", text)
    assert match, f"no {label}= in {text!r}"
    return int(match[1])
