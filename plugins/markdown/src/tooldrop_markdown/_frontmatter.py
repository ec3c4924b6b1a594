"""Splitting a tool file into its YAML frontmatter and its body, as the reference does.

The reference splits as this JavaScript pattern does,
``^---\\s*\\r?\\n(?:([\\s\\S]*?)\\r?\\n)?---\\s*\\r?\\n?([\\s\\S]*)$``, where ``\\s`` is
JavaScript's whitespace (U+FEFF yes, ``\\x1c`` and ``\\x85`` no). So:

- the file starts with ``---``; whitespace and blank (or whitespace-only) lines after it are
  skipped, up to the last newline of that run;
- the frontmatter runs to the first later line that *starts* with ``---``; whatever follows
  those three dashes (on the same line too: ``---echo x``) is the body, trimmed. CRLF works;
- the frontmatter must end in a newline before that line, so a ``---`` right at its start
  closes only when no later line does: ``---\\n---\\nbody`` is an empty frontmatter, while in
  ``---\\n---\\nname: t\\n---\\nbody`` the frontmatter is ``---\\nname: t`` (a YAML document
  start, then the fields) and the tool loads;
- text that does not start with ``---`` has no frontmatter at all.

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
# The opening: ``---``, then JavaScript whitespace (newlines too) up to and including the last
# newline of that run, as the reference's greedy ``\s*\r?\n`` takes it.
_OPEN = re.compile("---[" + re.escape(JS_WHITESPACE) + "]*")
# A closing line after a newline that ends some frontmatter text.
_CLOSE = re.compile(r"\n---")


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
    newline = text.rfind("\n", 0, opening.end())
    if newline < 3:
        return None
    start = newline + 1
    closing = _CLOSE.search(text, start)
    if closing is not None:
        front = text[start : closing.start()]
        # The newline before the closing line belongs to neither part.
        if front.endswith("\r"):
            front = front[:-1]
        rest_start = closing.end()
    elif text.startswith("---", start):
        front, rest_start = "", start + 3  # the text is empty, without its newline
    else:
        return None
    rest = text[rest_start:]
    body = rest.lstrip(JS_WHITESPACE)
    body_start = rest_start + (len(rest) - len(body))
    body = body.rstrip(JS_WHITESPACE)
    front_line = text.count("\n", 0, start) + 1
    body_line = text.count("\n", 0, body_start) + 1
    return Split(front, front_line, body, body_line)
