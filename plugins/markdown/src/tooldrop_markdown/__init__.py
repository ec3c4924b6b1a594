"""Markdown tool files for tooldrop: YAML frontmatter and a shell-script body.

The plugin itself is :mod:`tooldrop_markdown.plugin`; these are the pieces a host or another
plugin may want on their own.
"""

from __future__ import annotations

from ._loader import MAX_FILE_BYTES, load_markdown
from ._quote import cmd_quote, js_string, posix_quote
from ._template import Section, Template, Var, render

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
