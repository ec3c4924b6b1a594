"""The public API: ``tooldrop.__all__`` is sorted, complete, and every name imports."""

from __future__ import annotations

import types

import tooldrop


def test_all_is_sorted():
    assert list(tooldrop.__all__) == sorted(tooldrop.__all__, key=lambda n: (not n.isupper(), n))


def test_every_name_in_all_exists():
    for name in tooldrop.__all__:
        assert getattr(tooldrop, name) is not None


#: Public names made on first use by the package's ``__getattr__`` (so importing is cheap).
LAZY = {"converter"}


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
