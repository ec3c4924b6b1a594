"""A griffe extension: ``#:`` comments above an attribute become its docstring.

The code documents module constants and attrs fields the Sphinx way (``#: text`` on the lines
just above the definition), which keeps each field's explanation beside it without a string
literal after every field. griffe reads only string literals, so this hands it the comments.
"""

from __future__ import annotations

import ast
from typing import Any

import griffe


class SphinxComments(griffe.Extension):
    def on_attribute_instance(
        self, *, node: ast.AST | griffe.ObjectNode, attr: griffe.Attribute, **kwargs: Any
    ) -> None:
        if attr.docstring is not None or attr.lineno is None:
            return
        lines = attr.module.lines
        comment: list[str] = []
        index = attr.lineno - 2  # the line above, 0-based
        while index >= 0 and lines[index].lstrip().startswith("#:"):
            comment.insert(0, lines[index].lstrip()[2:].strip())
            index -= 1
        if comment:
            attr.docstring = griffe.Docstring(" ".join(comment), parent=attr, lineno=index + 2)
