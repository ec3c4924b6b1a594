"""The public API: ``tooldrop.__all__`` is sorted, complete, and every name imports."""

from __future__ import annotations

import types

import tooldrop


def test_all_is_sorted():
    assert list(tooldrop.__all__) == sorted(tooldrop.__all__, key=lambda n: (not n.isupper(), n))


def test_every_name_in_all_exists():
    for name in tooldrop.__all__:
        assert getattr(tooldrop, name) is not None


#: Public names made or imported on first use by the package's ``__getattr__`` (so importing
#: is cheap).
LAZY = {"converter", *tooldrop._HOMES}


def test_every_public_name_is_in_all():
    public = LAZY | {
        name
        for name, value in vars(tooldrop).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType)
        and name not in {"annotations", "Any"}
    }
    assert public == set(tooldrop.__all__)


def test_version_comes_from_the_distribution():
    import importlib.metadata

    assert tooldrop.__version__ == importlib.metadata.version("tooldrop-core")


def test_importing_tooldrop_stays_light():
    """``tooldrop list`` should not pay for what only calls or loaders need."""
    import subprocess
    import sys

    heavy = ("asyncio", "cattrs", "jsonschema", "mcp", "concurrent.futures")
    code = f"import sys, tooldrop; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


#: What a start-up that lists tools from a warm parse cache must not import: the call path,
#: exports, Python-tool machinery, schema checks, importlib.metadata (entry points are read
#: without it), the markdown loader and YAML (nothing is parsed), the process runner.
NOT_ON_A_WARM_LIST = (
    "tooldrop.calls._pipeline",
    "tooldrop.calls._pending",
    "tooldrop.exports._export",
    "tooldrop.pytools._tool",
    "tooldrop.schemas._schema",
    "importlib.metadata",
    "email",
    "tooldrop_markdown._loader",
    "yaml",
    "tooldrop_shell._process",
    "subprocess",
    "cattrs",
    "jsonschema",
    "asyncio",
)

LIST = """
import json, sys
from tooldrop import ToolHost
tools = ToolHost(project_dir=sys.argv[1], user_dir=sys.argv[2]).tools()
print(json.dumps([[t.name for t in tools], sorted(sys.modules)]))
"""


def test_listing_tools_from_a_warm_cache_imports_none_of_the_call_machinery(tmp_path):
    """The public path (entry-point plugins, a fresh process), run twice: the second run
    must find its tools in the parse cache and import only what listing needs."""
    import json
    import os
    import subprocess
    import sys
    import time

    tools = tmp_path / "project" / ".tooldrop" / "tools"
    tools.mkdir(parents=True)
    (tools / "hello.md").write_text(
        "---\nname: hello\ndescription: Say hello.\nparameters:\n  who:\n    type: string\n"
        "---\necho hello {{ who }}\n"
    )
    old = time.time() - 60  # past the parse cache's racy window, as files on disk are
    os.utime(tools / "hello.md", (old, old))
    (tmp_path / "user").mkdir()
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    argv = [sys.executable, "-c", LIST, str(tmp_path / "project"), str(tmp_path / "user")]
    runs = [
        json.loads(subprocess.run(argv, capture_output=True, text=True, env=env, check=True).stdout)
        for _ in range(2)
    ]
    (cold_names, cold_modules), (warm_names, warm_modules) = runs
    assert cold_names == warm_names == ["hello"]
    assert "tooldrop_markdown._loader" in cold_modules  # the first run did parse the file
    imported = [m for m in NOT_ON_A_WARM_LIST if m in warm_modules]
    assert imported == []


def test_tooldrop_list_from_a_warm_cache_imports_none_of_the_call_machinery(tmp_path):
    """The same for the CLI: ``python -X importtime`` names every module the process
    imported, on stderr."""
    import os
    import subprocess
    import sys
    import time

    tools = tmp_path / "project" / ".tooldrop" / "tools"
    tools.mkdir(parents=True)
    (tools / "hello.md").write_text("---\nname: hello\ndescription: Say hello.\n---\necho hello\n")
    old = time.time() - 60
    os.utime(tools / "hello.md", (old, old))
    (tmp_path / "user").mkdir()
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    argv = [sys.executable, "-X", "importtime", "-m", "tooldrop"]
    argv += ["--project", str(tmp_path / "project"), "--user-dir", str(tmp_path / "user"), "list"]
    runs = [subprocess.run(argv, capture_output=True, text=True, env=env, check=True) for _ in "ab"]
    assert all("hello" in run.stdout for run in runs)
    modules = {line.rsplit("|", 1)[-1].strip() for line in runs[1].stderr.splitlines()}
    assert "tooldrop.host._discover" in modules  # the report is what it seems
    assert [m for m in NOT_ON_A_WARM_LIST if m in modules] == []
