"""The ``python`` plugin: loads personal ``*.py`` tool modules and runs ``python`` tools.

- :func:`tooldrop_load_file` claims ``*.py`` files. Those in the personal tools dir (or a
  plugin's tools dir) are imported, each on its own; any other ``.py`` (a project's tools
  dir, a path given to ``tooldrop check``) is reported and never imported, because
  importing a file runs it.
- :func:`tooldrop_execute` runs every tool whose runner is ``python``: these files' tools and
  those pip tool packs register with ``tooldrop_register_tools``.
- :func:`tooldrop_scaffold` writes ``tooldrop new NAME --python``'s example tool.
"""

from __future__ import annotations

from pathlib import Path

from tooldrop import LoadResult, Scope, ToolCall, ToolHost, ToolResult, hookimpl

# The loader, runner and scaffold are imported on first use (they bring asyncio, threads and
# the signature machinery): a project without Python tools never pays for them.

__all__ = ["tooldrop_execute", "tooldrop_load_file", "tooldrop_scaffold"]


@hookimpl
def tooldrop_load_file(path: Path, scope: Scope, host: ToolHost) -> LoadResult | None:
    if path.suffix != ".py":
        return None
    from ._loader import load_file

    return load_file(path, scope, host.personal_tools_dir)


@hookimpl
def tooldrop_execute(call: ToolCall, host: ToolHost) -> ToolResult | None:
    if call.spec.runner != "python":
        return None
    from ._runner import run_call

    return run_call(call)


@hookimpl
def tooldrop_scaffold(name: str, kind: str, host: ToolHost) -> tuple[str, str] | None:
    if kind != "python":
        return None
    from ._scaffold import scaffold

    return scaffold(name)
