"""Helpers for the documentation tests: the pages, and the fenced code blocks in them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

_FENCE = re.compile(
    r"(?:<!-- (?P<note>[^>]*?) -->\n)?^```(?P<lang>\w*)\n(?P<body>.*?)^```$", re.S | re.M
)


class Block(NamedTuple):
    page: Path
    line: int
    lang: str
    body: str
    #: The HTML comment right above the fence (``fails: <message>``), if any.
    note: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def pages() -> list[Path]:
    """Every page the site builds, plus the READMEs users read on PyPI and GitHub."""
    found = sorted(DOCS.glob("*.md"))
    found += sorted(DOCS.glob("examples/*/README.md"))
    found += [
        ROOT / "README.md",
        *sorted(ROOT.glob("plugins/*/README.md")),
        ROOT / "core/README.md",
    ]
    return found


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    return [
        Block(
            page=page,
            line=text.count("\n", 0, m.start("body")) + 1,
            lang=m.group("lang"),
            body=m.group("body"),
            note=m.group("note") or "",
        )
        for m in _FENCE.finditer(text)
    ]


def all_blocks() -> list[Block]:
    return [block for page in pages() for block in blocks(page)]
