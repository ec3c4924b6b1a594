"""docs/plugins.md is enough to write a loader: its example, taken from the page as it stands,
loads, renders, runs through tooldrop-shell, is cached, is named and checked as the page says.

The example is installed for real: a folder on ``sys.path`` with the module and a
``dist-info`` declaring the entry point ``make``, so entry-point loading and
``TOOLDROP_PLUGINS`` are the ones users get.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

import tooldrop
import tooldrop.approval
import tooldrop_shell.plugin
from tooldrop import ToolHost
from tooldrop.cli import build_cli, load_plugin_set

from .conftest import DOCS, blocks

PAGE = DOCS / "plugins.md"

# A target with a comment, one whose prerequisite is not a tool, and a line a hostile value of
# the path could only reach through the renderer's quoting.
MAKEFILE = (
    "hello: ## Say hello\n"
    "\t@echo hello from make\n"
    "say-bye: setup ## Say goodbye\n"
    "\t@echo bye\n"
    "setup:\n"
    "\t@true\n"
)


def _example() -> str:
    [block] = [
        b for b in blocks(PAGE) if b.lang == "python" and b.body.startswith("# tooldrop_make.py")
    ]
    return block.body


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The page's module, installed as the distribution ``tooldrop-make`` (entry point ``make``)."""
    site = tmp_path / "site"
    dist = site / "tooldrop_make-0.1.dist-info"
    dist.mkdir(parents=True)
    (site / "tooldrop_make.py").write_text(_example(), encoding="utf-8")
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tooldrop-make\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[tooldrop]\nmake = tooldrop_make\n")
    monkeypatch.syspath_prepend(str(site))
    sys.modules.pop("tooldrop_make", None)
    yield site
    sys.modules.pop("tooldrop_make", None)


@pytest.fixture
def make(site: Path) -> ModuleType:
    return importlib.import_module("tooldrop_make")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    # A project path a renderer that forgot to quote would run code from.
    root = tmp_path / "it's a $(touch pwned) project"
    tools = root / ".tooldrop" / "tools"
    tools.mkdir(parents=True)
    (tools / "dev.mk").write_text(MAKEFILE, encoding="utf-8")
    return root


def _host(project: Path, *plugins: object) -> ToolHost:
    return ToolHost(
        project_dir=project, plugins=[tooldrop.approval, tooldrop_shell.plugin, *plugins]
    )


def _age(path: Path) -> None:
    """Make the file old enough for the parse cache (fresh files are not cached)."""
    past = time.time() - 60
    os.utime(path, (past, past))


def test_the_example_loads_what_the_page_says(make: ModuleType, project: Path) -> None:
    host = _host(project, make)
    assert [p.format() for p in host.problems()] == []
    tools = {spec.name: spec for spec in host.tools()}
    assert sorted(tools) == ["make_hello", "make_say_bye"]
    spec = tools["make_say_bye"]
    data = (project / ".tooldrop" / "tools" / "dev.mk").read_bytes()
    assert spec.origin.source == "make"
    assert spec.origin.scope == "project"
    assert spec.origin.line == 3
    assert spec.origin.content_hash == hashlib.sha256(data).hexdigest()
    assert spec.description == "Say goodbye"
    assert (spec.approval, spec.read_only) == ("always", False)
    assert spec.runner == "shell"


def test_tooldrop_shell_runs_what_its_renderer_returns(
    make: ModuleType, project: Path, tmp_path: Path
) -> None:
    host = _host(project, make)
    asked: list[str] = []

    def ask(call: tooldrop.ToolCall) -> bool:
        asked.append(call.script or "")
        return True

    result = host.call("make_hello", {}, ask=ask)
    assert not result.is_error, result.text
    assert result.text.splitlines() == ["EXIT_CODE: 0", "hello from make"]
    assert asked and "make -f" in asked[0]  # untrusted project: the person saw the script
    assert result.exit_code == 0
    assert not list(tmp_path.rglob("pwned"))


def test_without_the_renderer_no_backend_runs_it(make: ModuleType, project: Path) -> None:
    loader_only = SimpleNamespace(tooldrop_load_file=make.tooldrop_load_file)
    host = _host(project, loader_only)
    assert [spec.name for spec in host.tools()] == ["make_hello", "make_say_bye"]
    result = host.call("make_hello", {}, ask=lambda call: True)
    assert result.is_error
    assert 'No backend can run "shell" tools' in result.text


def _counting(make: ModuleType, calls: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    real = make.tooldrop_load_file

    @tooldrop.hookimpl
    def tooldrop_load_file(path: Path, scope: str) -> Any:
        calls.append(path)
        return real(path, scope)

    monkeypatch.setattr(make, "tooldrop_load_file", tooldrop_load_file)


def test_a_cacheable_result_is_not_loaded_again_while_the_file_is_unchanged(
    make: ModuleType, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    makefile = project / ".tooldrop" / "tools" / "dev.mk"
    _age(makefile)
    first = {spec.name: spec for spec in _host(project, make).tools()}
    calls: list[Path] = []
    _counting(make, calls, monkeypatch)
    again = {spec.name: spec for spec in _host(project, make).tools()}
    assert calls == []  # from the pickle
    assert again["make_hello"].payload == first["make_hello"].payload
    assert type(again["make_hello"].payload) is make.Target
    makefile.write_text(MAKEFILE + "lint: ## Lint\n\t@true\n", encoding="utf-8")
    _age(makefile)
    assert "make_lint" in {spec.name for spec in _host(project, make).tools()}
    assert calls == [makefile]


class Unpicklable:
    """A loader whose cacheable result holds a lambda (the page says: it fails nothing)."""

    def __init__(self) -> None:
        self.calls = 0

    @tooldrop.hookimpl
    def tooldrop_load_file(self, path: Path, scope: str) -> tooldrop.LoadResult | None:
        if path.suffix != ".odd":
            return None
        self.calls += 1
        spec = tooldrop.ToolSpec(
            name="odd",
            description="A payload that does not pickle.",
            input_schema={"type": "object"},
            origin=tooldrop.Origin(source="odd", scope=scope, path=path, content_hash="x"),
            runner="odd",
            payload=lambda: None,
        )
        return tooldrop.LoadResult(tools=[spec], cacheable=True)


def test_a_result_that_does_not_pickle_costs_the_directory_its_cache_and_nothing_else(
    make: ModuleType, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tools = project / ".tooldrop" / "tools"
    (tools / "a.odd").write_text("odd\n")
    for path in tools.iterdir():
        _age(path)
    odd = Unpicklable()
    calls: list[Path] = []
    _counting(make, calls, monkeypatch)
    for _ in range(2):
        host = _host(project, make, odd)
        assert [p.format() for p in host.problems()] == []
        assert {spec.name for spec in host.tools()} == {"make_hello", "make_say_bye", "odd"}
    assert odd.calls == 2
    assert calls == [tools / "dev.mk"] * 2  # its neighbour is parsed every time too


def test_plugin_names_are_what_the_page_says(
    site: Path, make: ModuleType, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def names(host: ToolHost) -> list[str]:
        return [info.name for info in host.plugins()]

    monkeypatch.setenv("TOOLDROP_PLUGINS", "make")
    essential = ["tooldrop.schema", "approval", "tooldrop.python"]
    assert names(ToolHost(project_dir=project)) == [*essential, "make"]
    monkeypatch.setenv("TOOLDROP_PLUGINS", "shell")  # not applied to an explicit list
    # Composed by hand, the installed module keeps its entry point's name (and its grants).
    assert names(ToolHost(project_dir=project, plugins=[make])) == [*essential, "make"]

    class Pack:
        @tooldrop.hookimpl
        def tooldrop_register_tools(self, register: Any) -> None:
            register(
                tooldrop.ToolSpec(
                    name="packed",
                    description="A tool a plugin registers.",
                    input_schema={"type": "object"},
                    origin=tooldrop.Origin(source="pack", scope="project"),
                    runner="pack",
                )
            )

    host = ToolHost(project_dir=project, plugins=[])
    class_path = f"{Pack.__module__}.{Pack.__qualname__}"
    assert host.register(Pack()) == class_path  # the same in every process
    assert host.register(Pack()) == f"{class_path}#2"
    host.unregister(class_path)
    host.unregister(f"{class_path}#2")
    assert host.register(Pack(), name="make") == "make"
    sources = {spec.origin.source for spec in host.tools() if spec.name == "packed"}
    assert "entrypoint:make" in sources  # whatever the tool said it was
    assert all(spec.origin.scope == "plugin" for spec in host.tools())


def _check(project: Path) -> tuple[int, list[dict[str, Any]]]:
    done = CliRunner().invoke(
        build_cli(load_plugin_set()), ["--project", str(project), "check", "--json"]
    )
    return done.exit_code, json.loads(done.stdout)


def test_check_exits_as_the_severity_table_says(
    site: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLDROP_PLUGINS", "make,shell")
    tools = project / ".tooldrop" / "tools"
    assert _check(project) == (0, [])
    # info: a project tool overriding a personal one is a note, and passes.
    personal = Path(os.environ["TOOLDROP_CONFIG_DIR"]) / "tools"
    personal.mkdir(parents=True)
    (personal / "dev.mk").write_text(MAKEFILE, encoding="utf-8")
    code, problems = _check(project)
    assert problems and {p["severity"] for p in problems} == {"info"}
    assert code == 0
    # warning: the tool file loads nothing, and fails the check.
    (personal / "dev.mk").unlink()
    (tools / "empty.mk").write_text("all:\n\t@true\n", encoding="utf-8")
    code, problems = _check(project)
    assert [(p["severity"], Path(p["path"]).name) for p in problems] == [("warning", "empty.mk")]
    assert "no target has a ## comment" in problems[0]["message"]
    assert code == 1
    # error: a name the core refuses keeps the tool out, and fails the check.
    (tools / "empty.mk").unlink()
    (tools / "long.mk").write_text(f"{'x' * 130}: ## Too long a name\n\t@true\n")
    code, problems = _check(project)
    assert [p["severity"] for p in problems] == ["error"]
    assert code == 1
    host = ToolHost(project_dir=project)
    assert not any(spec.name.startswith("make_x") for spec in host.tools())
