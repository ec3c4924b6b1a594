"""Core tests compose hosts from small real plugins defined here: no other tooldrop plugin."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tooldrop.approval
from tooldrop import (
    LoadResult,
    Origin,
    Problem,
    Scope,
    ToolCall,
    ToolHost,
    ToolResult,
    ToolSpec,
    hookimpl,
)

SCHEMA = {
    "type": "object",
    "properties": {"msg": {"type": "string"}},
    "additionalProperties": False,
}


def make_spec(name: str = "echo", **overrides: Any) -> ToolSpec:
    """A tool run by :class:`EchoBackend`: it answers ``<name>: <args as JSON>``."""
    fields: dict[str, Any] = {
        "name": name,
        "description": f"The {name} tool.",
        "input_schema": SCHEMA,
        "approval": "never",
        "read_only": True,
        "origin": Origin(source="test", scope="plugin", content_hash=f"hash-of-{name}"),
        "runner": "echo",
    }
    fields.update(overrides)
    return ToolSpec(**fields)


class EchoBackend:
    """Runs ``echo`` tools: the result text is the tool name and its arguments."""

    def __init__(self) -> None:
        self.calls: list[ToolCall] = []

    @hookimpl
    def tooldrop_execute(self, call: ToolCall) -> ToolResult | None:
        if call.spec.runner != "echo":
            return None
        self.calls.append(call)
        payload = call.spec.payload
        if callable(payload):
            return payload(call)  # type: ignore[no-any-return]
        return ToolResult(text=f"{call.name}: {json.dumps(dict(call.args), sort_keys=True)}")


class ToolPack:
    """Registers the given specs through ``tooldrop_register_tools``, like a pip tool pack."""

    def __init__(self, *specs: ToolSpec) -> None:
        self.specs = specs

    @hookimpl
    def tooldrop_register_tools(self, register: Callable[[Any], None]) -> None:
        for spec in self.specs:
            register(spec)


class JsonLoader:
    """A loader for ``*.json`` tool files: ``{"name", "description", "approval", ...}``."""

    def __init__(self) -> None:
        self.loaded: list[str] = []

    @hookimpl
    def tooldrop_load_file(self, path: Path, scope: Scope) -> LoadResult | None:
        if path.suffix != ".json":
            return None
        self.loaded.append(path.name)
        raw = path.read_bytes()
        try:
            data = json.loads(raw)
            origin = Origin(
                source="json",
                scope=scope,
                path=path,
                line=1,
                content_hash=hashlib.sha256(raw).hexdigest(),
            )
            spec = make_spec(origin=origin, **data)
        except Exception as exc:  # noqa: BLE001 - any bad file is reported, like a real loader.
            return LoadResult(
                problems=[Problem(path=path, line=1, message=str(exc))], cacheable=True
            )
        return LoadResult(tools=[spec], cacheable=True)


@pytest.fixture
def echo() -> EchoBackend:
    return EchoBackend()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".tooldrop" / "tools").mkdir(parents=True)
    return root


@pytest.fixture
def user_dir(tmp_path: Path) -> Path:
    path = tmp_path / "user"
    (path / "tools").mkdir(parents=True)
    return path


@pytest.fixture
def make_host(project: Path, user_dir: Path, echo: EchoBackend) -> Callable[..., ToolHost]:
    """``make_host(*plugins, **options)``: the default policy, the echo backend, a JSON loader."""

    def factory(*plugins: object, **options: Any) -> ToolHost:
        options.setdefault("project_dir", project)
        options.setdefault("user_dir", user_dir)
        return ToolHost(plugins=[tooldrop.approval, echo, JsonLoader(), *plugins], **options)

    return factory


def write_tool(directory: Path, file_name: str, **data: Any) -> Path:
    path = directory / file_name
    path.write_text(json.dumps(data))
    return path


@pytest.fixture
def spec_factory() -> Callable[..., ToolSpec]:
    return make_spec


@pytest.fixture
def tool_writer() -> Callable[..., Path]:
    return write_tool


@pytest.fixture
def tool_pack() -> type[ToolPack]:
    return ToolPack


@pytest.fixture
def core_plugins(echo: EchoBackend) -> list[object]:
    """The plugins every core test host has: the default policy, the echo backend, JSON files."""
    return [tooldrop.approval, echo, JsonLoader()]
