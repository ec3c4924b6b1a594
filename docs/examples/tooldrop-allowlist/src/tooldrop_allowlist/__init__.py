"""Approve read-only calls whose rendered script matches an allow-list entry.

The plugin implements ``tooldrop_approve`` with ``tryfirst=True``, so it is consulted before the
default policy; returning ``None`` hands the call on to it unchanged.

It never speaks for a tool that needs a person's yes whatever the policy says: a project tool
of a project that is not trusted, or a tool with ``requires_approval``. The core would turn its
``allow`` into a prompt anyway; saying nothing keeps the default policy's reason for asking.
"""

from __future__ import annotations

import re
from pathlib import Path

from tooldrop import Decision, ToolCall, ToolHost, hookimpl

__all__ = ["load_allowlist", "tooldrop_approve"]

FILE_NAME = "allowlist.txt"


def load_allowlist(path: Path) -> list[re.Pattern[str]]:
    """The compiled entries of an allow-list file; a missing file allows nothing."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
    patterns = []
    for line in lines:
        entry = line.strip()
        if entry and not entry.startswith("#"):
            patterns.append(re.compile(entry))
    return patterns


@hookimpl(tryfirst=True)
def tooldrop_approve(call: ToolCall, host: ToolHost) -> Decision | None:
    spec = call.spec
    if not spec.read_only or spec.requires_approval or call.script is None:
        return None
    if not host.is_trusted(spec):  # an untrusted project's tool: a person decides
        return None
    for pattern in load_allowlist(host.config_dir / FILE_NAME):
        if pattern.fullmatch(call.script):
            return Decision.allow(f"script matches allow-list entry {pattern.pattern!r}")
    return None
