"""No plugin imports another distribution's private modules.

A plugin that reaches into ``tooldrop._model`` or ``tooldrop.cli._context`` breaks when the
core reorganises its private modules, and shows other plugin authors a door that is not
there. What a plugin needs from the core (or from another plugin) is public: re-exported in
``tooldrop.__all__`` (documented in docs/reference/api.md) or in ``tooldrop.cli.__all__``.
Each plugin's own private modules are its own business. The same holds for the libraries a
plugin builds on: the MCP server once annotated with the SDK's private
``mcp.shared._stream_protocols``; it now has protocols of its own (``tooldrop_mcp._streams``),
which mypy checks against the SDK's wherever a stream is passed on. Only the standard
library's underscore modules (``_thread``) are left out of the check.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    [*ROOT.glob("plugins/*/src/*/**/*.py"), *ROOT.glob("docs/examples/*/src/*/**/*.py")]
)


#: The top-level packages of this repository's distributions: the core and each plugin's.
OURS = {"tooldrop"} | {
    path.name
    for path in [*ROOT.glob("plugins/*/src/*"), *ROOT.glob("docs/examples/*/src/*")]
    if path.is_dir() and (path / "__init__.py").is_file()
}


def _private_part(dotted: str) -> str | None:
    """The first private component of a dotted name (``_model`` in ``tooldrop._model``)."""
    return next((part for part in dotted.split(".") if part.startswith("_")), None)


def foreign_private_imports(source: str, own_package: str) -> list[str]:
    """``line: what`` for each import of a private name of a package other than
    ``own_package`` (this repository's distributions and third-party libraries alike)."""
    found: list[str] = []

    def check(line: int, dotted: str) -> None:
        top = dotted.split(".", 1)[0]
        if top == own_package or top in sys.stdlib_module_names:
            return
        if _private_part(dotted) is not None:
            found.append(f"{line}: {dotted}")

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                check(node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            check(node.lineno, node.module)
            for alias in node.names:
                if alias.name != "*":
                    check(node.lineno, f"{node.module}.{alias.name}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (getattr(node.func, "attr", None) or getattr(node.func, "id", None))
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            check(node.lineno, node.args[0].value)
    return sorted(set(found))


def _own_package(path: Path) -> str:
    src = next(parent for parent in path.parents if parent.name == "src")
    return path.relative_to(src).parts[0]


def test_there_are_plugin_sources_to_check():
    packages = {_own_package(path) for path in SOURCES}
    assert {"tooldrop_mcp", "tooldrop_python", "tooldrop_shell"} <= packages <= OURS


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_plugin_imports_only_public_names_of_other_distributions(path: Path):
    found = foreign_private_imports(path.read_text(encoding="utf-8"), _own_package(path))
    assert not found, f"{path.relative_to(ROOT)} imports private names: {found}"


@pytest.mark.parametrize(
    "source",
    [
        "from tooldrop._model import MODES",
        "from tooldrop.cli._context import CliContext",
        "import tooldrop._files",
        "import tooldrop._files as files",
        "from tooldrop import _host",
        "from tooldrop.cli import _signals",
        "from tooldrop import ToolHost, _model",
        "def f():\n    from tooldrop.host._lifetime import stop_all",
        "import importlib\nimportlib.import_module('tooldrop.host._host')",
        "from tooldrop_shell._process import run_process",
        "from mcp.shared._stream_protocols import ReadStream",
        "from mcp.client import _transport",
        "import pluggy._hooks",
    ],
)
def test_the_check_finds_private_imports(source: str):
    assert foreign_private_imports(source, "tooldrop_mcp")


@pytest.mark.parametrize(
    "source",
    [
        "from tooldrop import MODES, ToolHost",
        "from tooldrop.cli import CliContext",
        "from tooldrop_mcp._server import ToolServer",  # its own private module
        "from ._server import ToolServer",
        "from __future__ import annotations",
        "import tooldrop.hookspecs",
        "from mcp.server.lowlevel import Server",
        "import _thread",  # the standard library's own
    ],
)
def test_the_check_allows_public_and_own_imports(source: str):
    assert foreign_private_imports(source, "tooldrop_mcp") == []
