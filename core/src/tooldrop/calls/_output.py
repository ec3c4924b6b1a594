"""Fitting a tool's output into what the model may see (the reference's head + tail cut)."""

from __future__ import annotations

__all__ = ["DEFAULT_OUTPUT_LIMIT", "truncate", "truncation_marker"]

#: Characters of tool output the model sees by default (the reference's limit).
DEFAULT_OUTPUT_LIMIT = 2000
#: Share of the budget given to the start of the output; the rest goes to its end.
HEAD_SHARE = 0.4


def truncation_marker(total: int) -> str:
    """The line that stands where output was cut, saying how long the whole output was."""
    return (
        f"\n... [Output truncated: {total} characters total; "
        "request a narrower result to inspect omitted content] ...\n"
    )


def split_budget(total: int, limit: int) -> tuple[int, int, str]:
    """How many leading and trailing characters fit beside the marker: ``(head, tail, marker)``."""
    marker = truncation_marker(total)
    budget = max(limit - len(marker), 0)
    head = int(budget * HEAD_SHARE)
    return head, budget - head, marker


def join_truncated(head: str, tail: str, total: int, limit: int) -> str:
    """Build the truncated text from the first and last characters of a ``total``-long text.

    ``head`` must hold at least the first ``split_budget(...)[0]`` characters and ``tail`` at
    least the last ``split_budget(...)[1]``; a backend that keeps only the two ends of a
    stream (bounded memory) can therefore produce exactly what :func:`truncate` would.
    """
    if limit <= 0:
        return ""
    n_head, n_tail, marker = split_budget(total, limit)
    if len(marker) >= limit:
        return marker[:limit]
    return head[:n_head] + marker + (tail[-n_tail:] if n_tail else "")


def truncate(text: str, limit: int) -> tuple[str, bool]:
    """Cut ``text`` to ``limit`` characters around a marker; return it and whether it was cut.

    Text of at most ``limit`` characters is returned as it is. A ``limit`` of 0 or less
    gives ``""``.
    """
    if limit <= 0:
        return "", bool(text)
    if len(text) <= limit:
        return text, False
    return join_truncated(text, text, len(text), limit), True
