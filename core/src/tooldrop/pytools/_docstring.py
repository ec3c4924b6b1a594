"""Docstrings split into a tool's description and its parameters' descriptions.

Google style (``Args:`` entries, with ``name (type): text`` and indented continuation lines)
and Sphinx style (``:param name: text``) are understood; everything else is left alone.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping

import attrs

__all__ = ["Docstring", "parse_docstring"]

# -- docstrings -------------------------------------------------------------------------

_SECTION = re.compile(
    r"^(args|arguments|parameters|params|attributes|fields|keyword args|keyword arguments|"
    r"other parameters|returns?|yields?|raises|examples?|notes?|warnings?|see also|todo|"
    r"references)\s*:\s*$",
    re.IGNORECASE,
)
_PARAM_SECTIONS = frozenset(
    (
        "args",
        "arguments",
        "parameters",
        "params",
        "attributes",
        "fields",
        "keyword args",
        "keyword arguments",
        "other parameters",
    )
)
_GOOGLE_ENTRY = re.compile(r"^\*{0,2}(?P<name>\w+)\s*(?:\([^)]*\))?\s*:\s*(?P<text>.*)$")
_SPHINX_PARAM = re.compile(
    r"^:(?:param|parameter|arg|argument|key|keyword)\s+(?:[^:]*\s)?(?P<name>\w+)\s*:\s*(?P<text>.*)$"
)


@attrs.frozen
class Docstring:
    """A docstring split into the tool's description and per-parameter descriptions."""

    #: The first paragraph, its lines joined with spaces.
    summary: str
    params: Mapping[str, str]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def parse_docstring(doc: str | None) -> Docstring:
    """Split a docstring: the first paragraph, and ``Args:`` / ``:param:`` descriptions.

    >>> parse_docstring('''Add two numbers.
    ...
    ... Args:
    ...     a: The first.
    ...     b (int): The second,
    ...         on two lines.
    ... ''').params
    {'a': 'The first.', 'b': 'The second, on two lines.'}
    """
    lines = inspect.cleandoc(doc or "").splitlines()
    summary: list[str] = []
    for line in lines:
        stripped = line.strip()
        if not stripped or _SECTION.match(stripped) or stripped.startswith(":"):
            break
        summary.append(stripped)
    params: dict[str, list[str]] = {}
    current: list[str] | None = None
    section: str | None = None  # the parameter section we are in, if any
    section_indent = entry_indent = 0
    for line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        header = _SECTION.match(stripped)
        if header and (section is None or _indent(line) <= section_indent):
            name = header.group(1).lower()
            section = name if name in _PARAM_SECTIONS else ""
            section_indent, entry_indent, current = _indent(line), -1, None
            continue
        sphinx = _SPHINX_PARAM.match(stripped)
        if sphinx:
            section, current = None, params.setdefault(sphinx["name"], [])
            current.append(sphinx["text"].strip())
            continue
        if section:  # inside Args: and friends
            # Text back at the header's indentation ends the section, unless the entries
            # stand there too (``cleandoc`` dedents them when the docstring starts with
            # the header).
            if entry_indent > section_indent >= _indent(line):
                section, current = None, None
                continue
            if entry_indent < 0:
                entry_indent = _indent(line)
            entry = _GOOGLE_ENTRY.match(stripped) if _indent(line) <= entry_indent else None
            if entry:
                current = params.setdefault(entry["name"], [])
                current.append(entry["text"].strip())
            elif current is not None:
                current.append(stripped)
        elif section is None and current is not None and _indent(line) > 0:
            current.append(stripped)  # continuation of a :param: line
        elif section is None:
            current = None
    joined = {name: " ".join(p for p in parts if p) for name, parts in params.items()}
    return Docstring(summary=" ".join(summary), params={k: v for k, v in joined.items() if v})
