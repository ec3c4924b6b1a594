"""JSON Schema ``pattern`` regexes, read the way JavaScript reads them.

JSON Schema patterns are ECMA-262 regexes searched without anchoring. Python's ``re`` differs
in one way that matters for validation: ``$`` also matches *before* a trailing newline, so
``^[a-z]+$`` would accept ``"ab\\n"``. We rewrite every ``$`` outside a character class to
``\\Z`` (end of input only), as JavaScript's ``$`` without the ``m`` flag behaves.
"""

from __future__ import annotations

import functools
import re

__all__ = ["compile_pattern"]


def _translate(pattern: str) -> str:
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            if char == "]":
                in_class = False
        elif char == "[":
            in_class = True
        elif char == "$":
            char = r"\Z"
        out.append(char)
        i += 1
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> re.Pattern[str]:
    """Compile a JSON Schema ``pattern``; raises :class:`re.error` when it is not valid."""
    return re.compile(_translate(pattern))
