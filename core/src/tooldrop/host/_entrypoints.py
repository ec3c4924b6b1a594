"""The installed entry points of one group, read without importing :mod:`importlib.metadata`.

Every ``ToolHost`` reads the ``tooldrop`` entry points at start-up. ``importlib.metadata``
costs about as much to import as the kernel itself (it imports ``email``, ``zipfile``,
``csv``, ``socket``...), and its ``entry_points()`` builds objects for every entry point of
every installed distribution; on the public path that was a fifth of a warm start.

This reads the same files the same way, for the case nearly every install is: distributions
as ``*.dist-info`` / ``*.egg-info`` folders in the directories of ``sys.path``. As
``importlib.metadata`` does, the directories are searched in ``sys.path`` order, a
distribution is named by its folder name up to the first ``-``, normalized, and only the first
distribution of a name counts (an older copy further down the path is shadowed). Anything
else (a zip archive or an ``.egg`` on ``sys.path``, a meta-path finder that finds
distributions of its own) is left to ``importlib.metadata``: :func:`entry_points` returns
``None`` and the caller asks it instead.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from functools import reduce
from pathlib import Path

from attrs import frozen

__all__ = ["DistInfo", "EntryPoint", "entry_points"]

#: importlib.metadata's ``EntryPoint.pattern``: ``module``, ``module:attr.attr``, extras.
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")
_INFO = (".dist-info", ".egg-info")


def _normalize(name: str) -> str:
    """PEP 503 normalization with underscores, as importlib.metadata keys distributions
    (``re.sub(r"[-_.]+", "_", name).lower()``, without compiling a pattern at start-up)."""
    name = name.lower().replace("-", "_").replace(".", "_")
    while "__" in name:
        name = name.replace("__", "_")
    return name


@frozen
class DistInfo:
    """An installed distribution: its metadata folder."""

    path: str

    def header(self, key: str) -> str | None:
        """One single-line field of the core metadata (``Name``, ``Version``), or ``None``."""
        for filename in ("METADATA", "PKG-INFO"):
            try:
                text = Path(self.path, filename).read_text(encoding="utf-8")
            except OSError:
                continue
            prefix = key.lower() + ":"
            for line in text.split("\n\n", 1)[0].splitlines():  # the headers end at a blank line
                if line.lower().startswith(prefix):
                    return line[len(prefix) :].strip()
            return None
        return None

    @property
    def name(self) -> str | None:
        return self.header("Name")

    @property
    def version(self) -> str | None:
        return self.header("Version")


@frozen
class EntryPoint:
    """One entry point: ``name = value`` in its distribution's ``entry_points.txt``."""

    name: str
    value: str
    group: str
    dist: DistInfo

    def load(self) -> object:
        """Import the module and follow the attributes, as importlib.metadata does."""
        match = _VALUE.match(self.value)
        if match is None:
            raise ValueError(f"entry point {self.name} = {self.value!r} is not module[:attr]")
        module = importlib.import_module(match.group("module"))
        return reduce(getattr, filter(None, (match.group("attr") or "").split(".")), module)


def _only_paths() -> bool:
    """Whether every distribution importlib.metadata would find is a folder on ``sys.path``."""
    from importlib.machinery import PathFinder

    finders = (f for f in sys.meta_path if getattr(f, "find_distributions", None) is not None)
    return all(f is PathFinder for f in finders)


def _section(text: str, group: str) -> list[tuple[str, str]]:
    """The ``name = value`` pairs of ``[group]``, read as importlib.metadata reads them."""
    pairs, current = [], None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line.strip("[]")
        elif current == group and "=" in line:
            name, value = line.split("=", 1)
            pairs.append((name.strip(), value.strip()))
    return pairs


def entry_points(group: str) -> list[EntryPoint] | None:
    """The entry points of ``group`` in discovery order; ``None`` when importlib.metadata must
    be asked instead (see the module docstring)."""
    if not _only_paths():
        return None
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for entry in sys.path:
        root = entry or "."
        try:
            with os.scandir(root) as it:
                children = [child.name for child in it]
        except NotADirectoryError:
            return None  # a zip archive (or an egg file): importlib.metadata reads those
        except OSError:
            continue  # a missing directory holds no distribution
        if root.lower().endswith(".egg"):
            return None  # an egg folder's metadata is in EGG-INFO: importlib.metadata
        for child in children:
            low = child.lower()
            if not low.endswith(_INFO):
                continue
            name = _normalize(low.rpartition(".")[0].partition("-")[0])
            if name in seen:
                continue  # shadowed by the same distribution earlier on sys.path
            seen.add(name)
            path = Path(root, child)
            try:
                text = (path / "entry_points.txt").read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue  # none, or unreadable: no entry points (importlib.metadata would raise)
            dist = DistInfo(str(path))
            found.extend(EntryPoint(n, v, group, dist) for n, v in _section(text, group))
    return found
