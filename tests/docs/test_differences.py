"""Every known way a Nanocoder tool file behaves differently here is written down, with why,
in docs/markdown-tools.md's "Differences from Nanocoder" (not only in the plugin's README)."""

from __future__ import annotations

import pytest

from .conftest import DOCS


def differences() -> str:
    text = (DOCS / "markdown-tools.md").read_text(encoding="utf-8")
    start = text.index("## Differences from Nanocoder")
    end = text.index("\nSkill bundles (", start)
    return text[start:end]


@pytest.mark.parametrize(
    "topic",
    [
        "`cwd:` must stay inside the project",
        "integers beyond 2**53 keep their digits",
        "an argument the file does not declare is refused",
        "every argument problem is reported",
        "`⚒ Validation failed:`",
        "count code points",
        "a parameter key left empty",
        "`.nan` or `.inf`",
        "a file that is not UTF-8",
        "a file over 1 MiB is refused unread",
        "a YAML tag outside YAML 1.2's core schema",
        "without the `Error: `",
        "a byte-order mark before the first `---`",
    ],
)
def test_each_difference_is_listed(topic: str) -> None:
    assert topic in differences()
