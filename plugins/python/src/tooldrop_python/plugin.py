"""The ``python`` plugin: loads personal ``*.py`` tool modules and runs ``python`` tools.

- :func:`tooldrop_load_file` claims ``*.py`` files. Those in the personal tools dir, the
  ``tools/`` of a personal skill bundle, or a plugin's tools dir are imported, each on its
  own; any other ``.py`` (a project's tools dir or skill bundle, a path given to ``tooldrop
  check``) is reported and never imported, because importing a file runs it.
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

    personal = host.personal_tools_dir
    # A personal skill bundle's tools/ is the person's own config too: imported like the
    # personal tools dir. A project bundle's .py is never imported (scope "project").
    bundle_tools = path.parent
    if bundle_tools.name == "tools" and bundle_tools.parent.parent == host.personal_skills_dir:
        personal = bundle_tools
    return load_file(path, scope, personal)


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
