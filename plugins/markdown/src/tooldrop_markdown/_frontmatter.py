"""Splitting a tool file into its YAML frontmatter and its body, as the reference does.

The file starts with ``---`` (then only whitespace on that line); the frontmatter runs to the
first later line that *starts* with ``---``; whatever follows those three dashes (on the same
line too: ``---echo x``) is the body, trimmed. CRLF line ends work. ``---\\n---`` is an empty
frontmatter. Text that does not start with ``---`` has no frontmatter at all.

One deliberate difference: a UTF-8 byte-order mark before the ``---`` is dropped and the file
loads (the reference reports "missing frontmatter" for it, which only puzzles people whose
editor adds one).
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["BOM", "JS_WHITESPACE", "Split", "split_frontmatter"]

BOM = "\ufeff"
#: What JavaScript's ``String.prototype.trim`` removes (WhiteSpace and LineTerminator).
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
# The opening line: ``---`` and only whitespace up to its newline (``\s*`` in the reference
# may swallow blank lines too; those are then part of the frontmatter, which is the same).
_OPEN = re.compile(r"---[^\S\n]*\n")
_CLOSE = re.compile(r"^---", re.MULTILINE)


class Split(NamedTuple):
    """A tool file cut in two, with where each part starts in the file (1-based lines)."""

    frontmatter: str
    #: Line of the file where the frontmatter's first line stands.
    frontmatter_line: int
    #: The body, trimmed as JavaScript trims.
    body: str
    #: Line of the file where the trimmed body starts.
    body_line: int


def split_frontmatter(text: str) -> Split | None:
    """Split ``text`` (BOM already removed) or return ``None`` when it has no frontmatter."""
    opening = _OPEN.match(text)
    if opening is None:
        return None
    start = opening.end()
    closing = _CLOSE.search(text, start)
    if closing is None:
        return None
    front = text[start : closing.start()]
    # The newline before the closing line belongs to neither part.
    if front.endswith("\n"):
        front = front[:-2] if front.endswith("\r\n") else front[:-1]
    rest_start = closing.end()
    rest = text[rest_start:]
    body = rest.lstrip(JS_WHITESPACE)
    body_start = rest_start + (len(rest) - len(body))
    body = body.rstrip(JS_WHITESPACE)
    front_line = 2
    body_line = text.count("\n", 0, body_start) + 1
    return Split(front, front_line, body, body_line)
