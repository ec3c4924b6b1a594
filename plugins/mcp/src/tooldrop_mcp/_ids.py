"""Reading the request id out of a line the SDK refused, with every number bounded.

The SDK's JSON parser refuses a line with a number it cannot represent (an integer of more
than 4,300 digits is "out of range"), and the whole request is then lost: answered, if at
all, with ``id: null``, so the client waits forever. Such a line is usually valid JSON, so
it is decoded again here with numbers parsed under a limit: a longer integer, or a float
of more digits than :data:`MAX_NUMBER_CHARS`, becomes ``None`` without being converted (the
conversion itself is what costs: quadratic in the digits), and the id is read from the
result. Only a string or an integer id within the limit is returned.
"""

from __future__ import annotations

import json

__all__ = ["MAX_LINE_CHARS", "MAX_NUMBER_CHARS", "message_id", "recover_id"]

#: Characters a number may have when the id is recovered; longer ones are not converted.
MAX_NUMBER_CHARS = 1000
#: Lines longer than this are not decoded a second time (the SDK has decoded them once).
MAX_LINE_CHARS = 16 * 1024 * 1024


def _bounded_int(text: str) -> int | None:
    return int(text) if len(text) <= MAX_NUMBER_CHARS else None


def _bounded_float(text: str) -> float | None:
    return float(text) if len(text) <= MAX_NUMBER_CHARS else None


def _no_constant(text: str) -> None:  # NaN, Infinity: not JSON, and no id of ours
    return None


def recover_id(line: str) -> str | int | None:
    """The ``id`` of the JSON-RPC message in ``line``, or ``None`` when it cannot be read."""
    if len(line) > MAX_LINE_CHARS:
        return None
    try:
        message = json.loads(
            line,
            parse_int=_bounded_int,
            parse_float=_bounded_float,
            parse_constant=_no_constant,
        )
    except (ValueError, RecursionError):  # not JSON after all, or nested beyond the stack
        return None
    return message_id(message)


def message_id(message: object) -> str | int | None:
    """The ``id`` of a decoded message, when it is one JSON-RPC allows: a string or an integer."""
    if not isinstance(message, dict):
        return None
    request_id = message.get("id")
    if isinstance(request_id, str) or (
        isinstance(request_id, int) and not isinstance(request_id, bool)
    ):
        return request_id
    return None
