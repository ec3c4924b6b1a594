"""The ``toml`` plugin (entry point ``toml``): tools written as ``*.toml`` files.

- :func:`tooldrop_load_file` claims ``*.toml`` files in any tools directory.
- :func:`tooldrop_render` turns a call of such a tool into one ``shlex``-quoted command line,
  which tooldrop-shell runs (cwd containment, timeouts, process groups, bounded output).
- :func:`tooldrop_scaffold` writes a starting file for kind ``toml``.
"""

from __future__ import annotations

from pathlib import Path

from tooldrop import LoadResult, Scope, ToolCall, hookimpl

from ._command import Command, render_script
from ._loader import load_toml
from ._scaffold import scaffold

__all__ = ["tooldrop_load_file", "tooldrop_render", "tooldrop_scaffold"]


@hookimpl
def tooldrop_load_file(path: Path, scope: Scope) -> LoadResult | None:
    if path.suffix != ".toml":
        return None  # not ours: another loader may claim it
    return load_toml(path, scope)


@hookimpl
def tooldrop_render(call: ToolCall) -> str | None:
    command = call.spec.payload
    if call.spec.origin.source != "toml" or not isinstance(command, Command):
        return None  # another plugin's tool
    return render_script(command, call.args)


@hookimpl
def tooldrop_scaffold(name: str, kind: str) -> tuple[str, str] | None:
    if kind != "toml":
        return None
    return scaffold(name)
