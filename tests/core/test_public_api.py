"""The public API: ``tooldrop.__all__`` is sorted, complete, and every name imports."""

from __future__ import annotations

import types

import tooldrop


def test_all_is_sorted():
    assert list(tooldrop.__all__) == sorted(tooldrop.__all__, key=lambda n: (not n.isupper(), n))


def test_every_name_in_all_exists():
    for name in tooldrop.__all__:
        assert getattr(tooldrop, name) is not None


def test_every_public_name_is_in_all():
    public = {
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
