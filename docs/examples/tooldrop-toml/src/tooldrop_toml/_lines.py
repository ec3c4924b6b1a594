"""Which line of a TOML file a dotted field path (``parameters.count.type``) stands on.

:mod:`tomllib` gives values, not positions, so this reads the text once for table headers
(``[parameters.count]``) and ``key = value`` lines. A path with no line of its own (a key
inside an inline table, an array item) gets the line of its closest ancestor that has one.
Good enough for messages; it never decides whether a file loads.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["line_finder", "syntax_error_line"]

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")
_KEY = re.compile(
    r"""^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*="""
)
_INDEX = re.compile(r"\[\d+\]")
_AT_LINE = re.compile(r"at line (\d+)")


def _dotted(key: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in key.split("."))


def line_finder(text: str) -> Callable[[str], int | None]:
    """A function from a dotted field path to its 1-based line, or ``None``."""
    lines: dict[str, int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = _dotted(header.group(1))
            lines.setdefault(table, number)
            continue
        key = _KEY.match(line)
        if key:
            path = _dotted(key.group(1))
            lines.setdefault(f"{table}.{path}" if table else path, number)

    def line_of(path: str) -> int | None:
        path = _INDEX.sub("", path)
        while path:
            if path in lines:
                return lines[path]
            path = path.rpartition(".")[0]
        return None

    return line_of


def syntax_error_line(message: str, text: str) -> int | None:
    """The line a :class:`tomllib.TOMLDecodeError` message names (``... (at line 3, column 7)``,
    or ``(at end of document)``: the last line)."""
    found = _AT_LINE.search(message)
    if found:
        return int(found.group(1))
    if "end of document" in message:
        return max(len(text.splitlines()), 1)
    return None
