"""JSON Schema ``pattern`` regexes: ECMA-262, run on RE2, which cannot backtrack.

JSON Schema patterns are ECMA-262 (JavaScript) regexes, searched without anchoring. Python's
``re`` reads them differently and backtracks: ``^(a+)+$`` against thirty ``a`` and a ``!`` runs
for many seconds while holding the GIL. So :mod:`._ecma` translates the ECMA-262 syntax into
an RE2 program with the same meaning (or refuses it, saying why), and RE2 matches in linear
time, releasing the GIL while it searches. See :mod:`._ecma` for what each construct means.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from ._ecma import Untranslatable, to_re2

__all__ = ["PatternError", "Regex", "compile_pattern", "translate"]


class PatternError(re.error):
    """A ``pattern`` that is not ECMA-262, or that tooldrop cannot run safely.

    A subclass of :class:`re.error`, so code that caught the old errors still does.
    """


def _options() -> Any:
    import re2

    options = re2.Options()
    options.log_errors = False  # RE2 would print every refused pattern to stderr
    options.never_capture = True
    return options


@functools.cache
def _re2_knows(script: str) -> bool:
    import re2

    try:
        re2.compile(f"\\p{{{script}}}", _options())
    except re2.error:
        return False
    return True


def translate(pattern: str) -> str:
    """The RE2 pattern that means what the ECMA-262 ``pattern`` means.

    :raises PatternError: when it is not ECMA-262, or cannot be run without backtracking.
    """
    try:
        return to_re2(pattern, _re2_knows)
    except Untranslatable as exc:
        raise PatternError(str(exc)) from None


class Regex:
    """A compiled pattern; :meth:`search` says whether it matches anywhere in a string."""

    __slots__ = ("_search", "pattern")

    def __init__(self, pattern: str, search: Callable[[bytes], Any]) -> None:
        self.pattern = pattern
        self._search = search

    def search(self, text: str) -> object | None:
        """A match object when the pattern matches somewhere in ``text``, else ``None``.

        :raises UnicodeEncodeError: ``text`` has an unpaired surrogate (not a Unicode string;
            RE2 cannot read it).
        """
        # RE2 on UTF-8 bytes: its str interface maps every offset back to characters, which
        # costs three times the search itself on short strings.
        found: object | None = self._search(text.encode())
        return found

    def __repr__(self) -> str:
        return f"Regex({self.pattern!r})"


@functools.lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> Regex:
    """Compile a JSON Schema ``pattern`` (ECMA-262) for searching.

    :raises PatternError: when it is not ECMA-262 or cannot be run safely; the message says why.
    """
    import re2

    if not isinstance(pattern, str):
        raise PatternError(f"a pattern must be a string, got {type(pattern).__name__}")
    try:
        program = re2.compile(translate(pattern).encode(), _options())
    except re2.error as exc:
        (reason,) = exc.args  # google-re2 raises error(RE2's message) with the message as bytes
        raise PatternError(f"RE2 cannot run this pattern: {reason.decode()}") from None
    return Regex(pattern, program.search)
