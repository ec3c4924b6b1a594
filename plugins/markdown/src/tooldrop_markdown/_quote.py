"""Turning argument values into shell words, exactly as the reference does.

Values are first turned into text the way JavaScript's ``String()`` would (the reference is
JavaScript, and a tool file must render the same here): ``2.0`` is ``2``, ``1e-7`` is
``1e-7``, ``true`` is ``true``, objects are compact JSON. Then each word is quoted for the
shell that will run the script:

- POSIX shells: ``'`` + the text with every ``'`` written as ``'\\''`` + ``'``. There is no
  shortcut for "safe" strings: every value is one quoted word, so nothing in it is ever
  parsed by the shell.
- cmd.exe: ``"`` + the text with every ``"`` doubled + ``"``. cmd.exe has no reliable escape
  for ``%`` (variable expansion) or line breaks, so values holding ``%``, a newline, a
  carriage return or a NUL byte are refused (:class:`tooldrop.RenderError`), never run.

Python integers are written exactly, where JavaScript would round those beyond 2**53: the
model sent those digits, and we keep them.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tooldrop import RenderError

__all__ = [
    "cmd_quote",
    "is_truthy",
    "js_json",
    "js_number",
    "js_string",
    "posix_quote",
    "render_value",
]

_EXACT_FLOAT_INT = 2.0**53
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def js_number(value: float) -> str:
    """``String(value)`` for a JavaScript number: the shortest round-trip digits, laid out
    as ECMAScript's Number::toString lays them out.

    >>> [js_number(x) for x in (2.0, 1e-7, 0.0001, 1e21, 1.5e21, 1e20, -0.0, 123.456)]
    ['2', '1e-7', '0.0001', '1e+21', '1.5e+21', '100000000000000000000', '0', '123.456']
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"  # -0 too, as String(-0) is "0"
    if value.is_integer() and abs(value) < _EXACT_FLOAT_INT:
        return str(int(value))
    text = repr(value)  # Python's repr is also the shortest text that reads back the same
    sign = ""
    if text[0] == "-":
        sign, text = "-", text[1:]
    mantissa, _, exp = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    stripped = digits.lstrip("0")
    # The value is 0.<digits> x 10**point (ECMAScript's k digits and n).
    point = len(whole) + (int(exp) if exp else 0) - (len(digits) - len(stripped))
    digits = stripped.rstrip("0")  # not empty: the value is not 0
    count = len(digits)
    if count <= point <= 21:
        body = digits + "0" * (point - count)
    elif 0 < point <= 21:
        body = f"{digits[:point]}.{digits[point:]}"
    elif -6 < point <= 0:
        body = "0." + "0" * -point + digits
    else:
        shift = point - 1
        exponent = f"e{'+' if shift >= 0 else '-'}{abs(shift)}"
        body = (digits if count == 1 else f"{digits[0]}.{digits[1:]}") + exponent
    return sign + body


def _json_string(text: str) -> str:
    dumped = json.dumps(text, ensure_ascii=False)
    if _LONE_SURROGATE.search(dumped):
        # JSON.stringify escapes lone surrogates (well-formed JSON.stringify, ES2019).
        dumped = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)
    return dumped


def js_json(value: Any) -> str:
    """``JSON.stringify(value)``: compact, numbers as JavaScript writes them."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return js_number(value) if math.isfinite(value) else "null"
    if isinstance(value, str):
        return _json_string(value)
    if isinstance(value, Mapping):
        items = (f"{_json_string(str(k))}:{js_json(v)}" for k, v in value.items())
        return "{" + ",".join(items) + "}"
    if isinstance(value, Sequence):
        return "[" + ",".join(js_json(v) for v in value) + "]"
    return _json_string(str(value))


def js_string(value: Any) -> str:
    """The text of one substituted value (or one array element): strings as they are,
    numbers and booleans as ``String()`` writes them, ``null`` as ``null``, objects and
    arrays as compact JSON."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool | int | float):
        return js_number(value)
    return js_json(value)


def is_truthy(value: Any) -> bool:
    """JavaScript truthiness, plus ``[]`` counted as empty (as the reference does).

    Falsy: missing (``None``), ``""``, ``0``, ``NaN``, ``false``, ``[]``. Everything else,
    ``" "``, ``"0"``, ``"false"``, ``[""]`` and ``{}`` included, is truthy.
    """
    if value is None or value is False:
        return False
    if isinstance(value, str | list | tuple):
        return len(value) > 0
    if isinstance(value, int | float):
        return value == value and value != 0  # NaN != NaN
    return True


def posix_quote(text: str) -> str:
    """One POSIX shell word that stands for exactly ``text``.

    :raises RenderError: ``text`` holds a NUL byte, which no shell argument can carry.
    """
    if "\0" in text:
        raise RenderError("⚒ A value contains a NUL byte, which a shell script cannot carry")
    return "'" + text.replace("'", "'\\''") + "'"


def cmd_quote(text: str) -> str:
    """One cmd.exe word for ``text``, or :class:`RenderError` when cmd.exe cannot be trusted
    with it (``%``, newline, carriage return or NUL)."""
    for char, what in (
        ("%", "a percent sign"),
        ("\n", "a newline"),
        ("\r", "a carriage return"),
        ("\0", "a NUL byte"),
    ):
        if char in text:
            raise RenderError(
                f"⚒ A value contains {what}, which cmd.exe cannot receive safely; "
                "the tool was not run"
            )
    return '"' + text.replace('"', '""') + '"'


def render_value(value: Any, quote: Callable[[str], str]) -> str:
    """The text a placeholder becomes: nothing for a missing value, one quoted word for a
    scalar or object, one quoted word per element (joined by spaces) for an array."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return " ".join(quote(js_string(element)) for element in value)
    return quote(js_string(value))
