"""The ``python`` plugin: loads personal ``*.py`` tool modules.

- :func:`tooldrop_load_file` claims ``*.py`` files. Those in the personal tools dir, the
  ``tools/`` of a personal skill bundle, or a plugin's tools dir are imported, each on its
  own; any other ``.py`` (a project's tools dir or skill bundle, a path given to ``tooldrop
  check``) is reported and never imported, because importing a file runs it.
- The tools it loads have runner ``python``; the core runs them (its essential backend
  ``tooldrop.python``), as it runs those pip tool packs register with
  ``tooldrop_register_tools``.
- :func:`tooldrop_scaffold` writes ``tooldrop new NAME --python``'s example tool.
"""

from __future__ import annotations

from pathlib import Path

from tooldrop import LoadResult, Scope, ToolHost, hookimpl

# The loader and scaffold are imported on first use (the loader brings asyncio and threads):
# a project without Python tools never pays for them.

__all__ = ["tooldrop_load_file", "tooldrop_scaffold"]


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
def tooldrop_scaffold(name: str, kind: str, host: ToolHost) -> tuple[str, str] | None:
    if kind != "python":
        return None
    from ._scaffold import scaffold

    return scaffold(name)
