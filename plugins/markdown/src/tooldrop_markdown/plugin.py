"""The ``markdown`` plugin (entry point ``markdown``): tool files as Nanocoder writes them.

A tool file is YAML frontmatter between ``---`` lines and a shell-script body with
``{{ placeholders }}`` (DESIGN §5, ``reference/nanocoder-custom-tools.md``). This plugin
claims ``*.md`` files, loads them into tools or problems, renders their bodies for a call,
and writes the scaffold of ``tooldrop new``.
"""

from __future__ import annotations

import os
from pathlib import Path

from tooldrop import LoadResult, Scope, ToolCall, ToolHost, hookimpl

from ._quote import cmd_quote, posix_quote
from ._template import Template, render

# The loader (YAML, cattrs, the shell lexer) and the scaffold are imported on first use: with
# the parse cache warm, listing tools never loads a file, so it never needs them.

__all__ = ["tooldrop_load_file", "tooldrop_render", "tooldrop_scaffold"]


@hookimpl
def tooldrop_load_file(path: Path, scope: Scope, host: ToolHost) -> LoadResult | None:
    """Load ``*.md`` files (the suffix is case-sensitive, as in the reference)."""
    if not path.name.endswith(".md"):
        return None
    from ._loader import load_markdown

    return load_markdown(path, scope)


@hookimpl
def tooldrop_render(call: ToolCall, host: ToolHost) -> str | None:
    """Render a markdown tool's body for the call's arguments.

    Values are POSIX single-quoted, or double-quoted for cmd.exe (the shell on Windows when
    the tool names none), where values holding ``%``, line breaks or NUL are refused.
    """
    template = call.spec.payload
    if not isinstance(template, Template):
        return None
    shell = call.spec.shell or ("cmd.exe" if os.name == "nt" else None)
    quote = cmd_quote if shell == "cmd.exe" else posix_quote
    return render(template, call.args, quote)


@hookimpl
def tooldrop_scaffold(name: str, kind: str, host: ToolHost) -> tuple[str, str] | None:
    """``(file name, text)`` for ``tooldrop new NAME``; raises ``ValueError`` for a name that
    cannot be a tool file (``../x``, ``My.Tool``)."""
    if kind != "markdown":
        return None
    from ._scaffold import scaffold

    return scaffold(name)
