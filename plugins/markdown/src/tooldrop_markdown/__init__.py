"""Markdown tool files for tooldrop: YAML frontmatter and a shell-script body.

The plugin itself is :mod:`tooldrop_markdown.plugin`; these are the pieces a host or another
plugin may want on their own.
"""

from __future__ import annotations

import typing as _typing

if _typing.TYPE_CHECKING:
    from ._loader import MAX_FILE_BYTES, load_markdown
    from ._quote import cmd_quote, js_string, posix_quote
    from ._template import Section, Template, Var, render

# Imported on first use: with the parse cache warm, `tooldrop list` never needs the loader
# (YAML, cattrs, the shell lexer), and a host importing this package should not pay for it.
_HOMES = {
    "MAX_FILE_BYTES": "_loader",
    "load_markdown": "_loader",
    "cmd_quote": "_quote",
    "js_string": "_quote",
    "posix_quote": "_quote",
    "Section": "_template",
    "Template": "_template",
    "Var": "_template",
    "render": "_template",
}

__all__ = [
    "MAX_FILE_BYTES",
    "Section",
    "Template",
    "Var",
    "cmd_quote",
    "js_string",
    "load_markdown",
    "posix_quote",
    "render",
]


def __getattr__(name: str) -> _typing.Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # next time, a plain attribute
    return value
