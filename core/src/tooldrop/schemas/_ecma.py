"""ECMA-262 pattern syntax, translated into RE2 syntax with the same meaning.

JSON Schema patterns are ECMA-262 (JavaScript) regexes, searched without anchoring. Python's
``re`` reads them differently (``\\d`` matches ``٣``, ``.`` matches ``\\r``, ``$`` matches before
a final newline, ``(?P<n>…)`` loads, ``(?<n>…)`` does not) and backtracks: ``^(a+)+$`` against
thirty ``a`` and a ``!`` runs for many seconds while holding the GIL. So we parse the ECMA-262
syntax ourselves and emit an RE2 program with the same meaning: RE2 matches in linear time and
releases the GIL while it searches.

What the translation means, construct by construct (the JavaScript ``u`` flag's reading, as JSON
Schema recommends):

- ``\\d \\w \\b`` are ASCII, ``\\s`` is ECMA white space and line terminators (``\\u00a0``,
  ``\\u2028``, BOM, ...), ``.`` is any code point but ``\\n \\r \\u2028 \\u2029``;
- ``^`` and ``$`` are the start and the end of the string (no multiline flag);
- groups, named groups ``(?<name>…)`` and lazy quantifiers keep their meaning (we only ask
  whether there is a match);
- ``\\p{…}`` / ``\\P{…}``: general categories (``L``, ``Letter``, ``gc=Lu``...), scripts
  (``sc=Greek``, ``Script=Latin``), ``Any`` and ``ASCII``.

Refused, with a message saying so, because RE2 cannot run them or they would silently mean
something else: lookaround, backreferences, inline flags ``(?i)``, Python-only syntax
(``(?P<n>…)``, ``\\Z``, ``\\A``), unknown letter escapes, ``\\p{…}`` names RE2 does not know
(binary properties, ``Script_Extensions``, short script names like ``sc=Grek``), and
repetition counts above 1000. As in JavaScript without the ``u`` flag, a ``{``, ``}`` or ``]``
that cannot be read otherwise is a literal character, and a backslash before punctuation is
that character.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._ecma_tables import (
    ALL,
    CATEGORIES,
    CLASS_ESCAPES,
    CONTROL,
    GROUP_NAME,
    LINE_ENDS,
    MAX,
    MAX_REPEAT,
    QUANTIFIER,
    SCRIPT_NAME,
    SYNTAX,
)

__all__ = ["Untranslatable", "to_re2"]


class Untranslatable(Exception):
    """The pattern is not ECMA-262, or has no RE2 equivalent; the message says why."""


def _hex(cp: int) -> str:
    return f"\\x{{{cp:X}}}"


def _literal(cp: int) -> str:
    char = chr(cp)
    return char if char.isascii() and char.isalnum() else _hex(cp)


def _complement(ranges: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    start = 0
    for first, last in sorted(ranges):
        if first > start:
            out.append((start, first - 1))
        start = max(start, last + 1)
    if start <= MAX:
        out.append((start, MAX))
    return tuple(out)


def _ranges_text(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(_hex(a) if a == b else f"{_hex(a)}-{_hex(b)}" for a, b in ranges)


def _class(ranges: tuple[tuple[int, int], ...]) -> str:
    return f"[{_ranges_text(ranges)}]" if ranges else r"(?:\b\B)"


class _Parser:
    """A recursive-descent reader of ECMA-262 pattern syntax that writes RE2 syntax."""

    def __init__(self, source: str, knows_script: Callable[[str], bool]) -> None:
        self.src = source
        self.knows_script = knows_script
        self.pos = 0
        self.groups: set[str] = set()

    # -- helpers --------------------------------------------------------------------------

    def fail(self, message: str) -> Untranslatable:
        return Untranslatable(f"{message} (at position {self.pos})")

    def peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.src[index] if index < len(self.src) else ""

    def take(self) -> str:
        char = self.peek()
        if not char:
            raise self.fail("unexpected end of pattern")
        self.pos += 1
        return char

    def read_hex(self, count: int) -> int | None:
        text = self.src[self.pos : self.pos + count]
        if len(text) == count and all(c in "0123456789abcdefABCDEF" for c in text):
            self.pos += count
            return int(text, 16)
        return None

    # -- grammar --------------------------------------------------------------------------

    def disjunction(self) -> str:
        parts = [self.alternative()]
        while self.peek() == "|":
            self.pos += 1
            parts.append(self.alternative())
        return "|".join(parts)

    def alternative(self) -> str:
        out: list[str] = []
        while self.peek() and self.peek() not in "|)":
            out.append(self.term())
        return "".join(out)

    def term(self) -> str:
        char = self.peek()
        if char in "^$":
            self.pos += 1
            self.no_quantifier("an anchor")
            return char
        if char == "\\" and self.peek(1) in ("b", "B"):
            self.pos += 2
            self.no_quantifier("a word boundary")
            return "\\" + self.src[self.pos - 1]
        if char == "(" and self.src.startswith(("(?=", "(?!", "(?<=", "(?<!"), self.pos):
            raise self.fail("lookahead and lookbehind are not supported (RE2 has no lookaround)")
        atom = self.atom()
        return atom + self.quantifier()

    def no_quantifier(self, what: str) -> None:
        if self.peek() in ("*", "+", "?") or (self.peek() == "{" and self.quantifier_at()):
            raise self.fail(f"nothing to repeat: a quantifier cannot follow {what}")

    def quantifier_at(self) -> re.Match[str] | None:
        return QUANTIFIER.match(self.src, self.pos)

    def quantifier(self) -> str:
        char = self.peek()
        if char in ("*", "+", "?"):
            self.pos += 1
            text = char
        elif char == "{" and (found := self.quantifier_at()):
            low = int(found.group(1))
            high = found.group(3)
            if high is not None and high != "" and int(high) < low:
                raise self.fail(f"numbers out of order in {found.group(0)} quantifier")
            if low > MAX_REPEAT or (high not in (None, "") and int(high) > MAX_REPEAT):
                raise self.fail(
                    f"repetition count {found.group(0)} is above {MAX_REPEAT}; use minLength "
                    "or maxLength for long strings"
                )
            self.pos = found.end()
            text = found.group(0)
        else:
            return ""
        if self.peek() == "?":
            self.pos += 1  # lazy or greedy, the answer to "is there a match?" is the same
        if self.peek() in ("*", "+", "?") or (self.peek() == "{" and self.quantifier_at()):
            raise self.fail("nothing to repeat: a quantifier cannot follow a quantifier")
        return text

    def atom(self) -> str:
        char = self.take()
        if char == ".":
            return _class(_complement(LINE_ENDS))
        if char == "(":
            return self.group()
        if char == "[":
            return self.char_class()
        if char == "\\":
            return self.atom_escape()
        if char in ("*", "+", "?"):
            raise self.fail(f"nothing to repeat before {char!r}")
        if char == "{" and QUANTIFIER.match(self.src, self.pos - 1):
            raise self.fail("nothing to repeat before '{'")
        return _literal(self.code_point(char))  # ")" never gets here: alternative() stops at it

    def code_point(self, char: str) -> int:
        cp = ord(char)
        if 0xD800 <= cp <= 0xDBFF and 0xDC00 <= ord(self.peek() or "\0") <= 0xDFFF:
            low = ord(self.take())
            return 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
        if 0xD800 <= cp <= 0xDFFF:
            raise self.fail("an unpaired surrogate cannot be matched")
        return cp

    def group(self) -> str:
        if self.peek() == "?":
            if self.peek(1) == ":":
                self.pos += 2
            elif self.peek(1) == "<":
                self.pos += 2
                end = self.src.find(">", self.pos)
                name = self.src[self.pos : end] if end != -1 else ""
                if not name or not GROUP_NAME.fullmatch(name):
                    raise self.fail("a named group needs a name: (?<name>...)")
                if name in self.groups:
                    raise self.fail(f"duplicate group name {name!r}")
                self.groups.add(name)
                self.pos = end + 1
            elif self.peek(1) == "P":
                raise self.fail("(?P...) is Python syntax; ECMA-262 names a group (?<name>...)")
            else:
                raise self.fail(
                    "inline flags and other (?...) groups are not supported; only (?:...) "
                    "and (?<name>...)"
                )
        inner = self.disjunction()
        if self.peek() != ")":
            raise self.fail("missing ')'")
        self.pos += 1
        return f"(?:{inner})"

    def escape_code_point(self, letter: str, *, in_class: bool) -> int | None:
        """The code point of a character escape after ``\\``, or ``None`` if it is not one."""
        if letter in CONTROL:
            return CONTROL[letter]
        if letter == "c":
            control = self.peek()
            if control.isascii() and control.isalpha():
                self.pos += 1
                return ord(control) % 32
            raise self.fail("\\c must be followed by a letter")
        if letter == "0":
            if self.peek().isdigit():
                raise self.fail("octal escapes are not ECMA-262 (with the u flag)")
            return 0
        if letter == "x":
            value = self.read_hex(2)
            if value is None:
                raise self.fail("\\x must be followed by two hex digits")
            return value
        if letter == "u":
            return self.unicode_escape()
        if in_class and letter == "b":
            return 0x08
        if letter in SYNTAX:
            return ord(letter)
        if not letter.isascii() or not letter.isalnum():
            return self.code_point(letter)  # "\-", "\é": that character, as JavaScript reads it
        return None

    def unicode_escape(self) -> int:
        if self.peek() == "{":
            end = self.src.find("}", self.pos)
            digits = self.src[self.pos + 1 : end] if end != -1 else ""
            if not digits or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise self.fail("\\u{...} must hold hex digits")
            value = int(digits, 16)
            if value > MAX:
                raise self.fail("\\u{...} is above U+10FFFF")
            self.pos = end + 1
        else:
            found = self.read_hex(4)
            if found is None:
                raise self.fail("\\u must be followed by four hex digits or {...}")
            value = found
            if 0xD800 <= value <= 0xDBFF and self.src.startswith("\\u", self.pos):
                start = self.pos
                self.pos += 2
                low = self.read_hex(4)
                if low is not None and 0xDC00 <= low <= 0xDFFF:
                    return 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                self.pos = start
        if 0xD800 <= value <= 0xDFFF:
            raise self.fail("an unpaired surrogate cannot be matched")
        return value

    def property_escape(self, negated: bool) -> str:
        if self.peek() != "{":
            raise self.fail("\\p must be followed by {name}")
        end = self.src.find("}", self.pos)
        if end == -1:
            raise self.fail("missing '}' after \\p{")
        body = self.src[self.pos + 1 : end]
        self.pos = end + 1
        name, _, value = body.partition("=")
        letter = "P" if negated else "p"
        if name in ("Script", "sc") and value:
            # RE2's \p{...} also reads category names and Any, which are no Script value in
            # ECMA-262: \p{sc=L} is a SyntaxError there, and must not come to mean "letters".
            # Nor may RE2's own syntax pass through: \p{^Greek} is RE2 for "not Greek".
            if (
                value not in CATEGORIES
                and value != "Any"
                and SCRIPT_NAME.fullmatch(value)
                and self.knows_script(value)
            ):
                return f"\\{letter}{{{value}}}"
            raise self.fail(
                f"\\{letter}{{{body}}}: {value} is not a script RE2 knows "
                "(scripts go by their long names: sc=Greek, not sc=Grek)"
            )
        if value:
            if name in ("General_Category", "gc") and value in CATEGORIES:
                return f"\\{letter}{{{CATEGORIES[value]}}}"
            raise self.fail(
                f"\\{letter}{{{body}}} is not supported (RE2 knows categories and scripts)"
            )
        if body in CATEGORIES:
            return f"\\{letter}{{{CATEGORIES[body]}}}"
        if body == "Any":
            return _ranges_text(() if negated else ALL)
        if body == "ASCII":
            return _ranges_text(_complement(((0, 0x7F),)) if negated else ((0, 0x7F),))
        raise self.fail(
            f"\\{letter}{{{body}}} is not supported: "
            "use a general category (L, Nd, ...) or sc=<Script>"
        )

    def atom_escape(self) -> str:
        letter = self.take()
        if letter.lower() in CLASS_ESCAPES:
            ranges = CLASS_ESCAPES[letter.lower()]
            return _class(_complement(ranges) if letter.isupper() else ranges)
        if letter in ("p", "P"):
            body = self.property_escape(negated=letter == "P")
            return f"[{body}]" if body else r"(?:\b\B)"
        if letter.isdigit() and letter != "0":
            raise self.fail("backreferences are not supported (RE2 cannot run them)")
        if letter == "k":
            raise self.fail("backreferences (\\k<name>) are not supported")
        cp = self.escape_code_point(letter, in_class=False)
        if cp is None:
            raise self.fail(f"\\{letter} is not an ECMA-262 escape")
        return _literal(cp)

    def class_atom(self) -> tuple[int | None, str]:
        """One class member: ``(code point, "")`` or ``(None, RE2 class text)``."""
        char = self.take()
        if char != "\\":
            return self.code_point(char), ""
        letter = self.take()
        if letter.lower() in CLASS_ESCAPES:
            ranges = CLASS_ESCAPES[letter.lower()]
            return None, _ranges_text(_complement(ranges) if letter.isupper() else ranges)
        if letter in ("p", "P"):
            return None, self.property_escape(negated=letter == "P")
        if letter.isdigit() and letter != "0":
            raise self.fail("backreferences and octal escapes are not supported")
        cp = self.escape_code_point(letter, in_class=True)
        if cp is None:
            raise self.fail(f"\\{letter} is not an ECMA-262 escape")
        return cp, ""

    def char_class(self) -> str:
        negated = self.peek() == "^"
        if negated:
            self.pos += 1
        parts: list[str] = []
        while True:
            if not self.peek():
                raise self.fail("missing ']'")
            if self.peek() == "]":
                self.pos += 1
                break
            first, text = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.pos += 1
                last, _ = self.class_atom()
                if first is None or last is None:
                    raise self.fail("a class escape cannot start or end a range")
                if last < first:
                    raise self.fail("range out of order in character class")
                parts.append(f"{_hex(first)}-{_hex(last)}")
            elif first is None:
                parts.append(text)
            else:
                parts.append(_hex(first))
        body = "".join(parts)
        if not body:
            return _class(ALL) if negated else _class(())
        return f"[{'^' if negated else ''}{body}]"


def to_re2(pattern: str, knows_script: Callable[[str], bool]) -> str:
    """The RE2 pattern that means what the ECMA-262 ``pattern`` means.

    :param knows_script: whether RE2 has a script of that name (for ``\\p{sc=...}``).
    :raises Untranslatable: when it is not ECMA-262 or RE2 cannot run it.
    """
    parser = _Parser(pattern, knows_script)
    out = parser.disjunction()
    if parser.pos < len(pattern):
        raise parser.fail("unmatched ')'")
    return out
