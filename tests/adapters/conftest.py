"""One set of real tools for every framework's adapter test: markdown and Python tools loaded
by the real loaders, run by the real shell backend, with marker files that prove what ran."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import tooldrop.approval
import tooldrop_markdown.plugin
import tooldrop_python.plugin
import tooldrop_shell.plugin
from tooldrop import ToolHost

GREET = """---
name: greet
description: Greet someone.
approval: never
read_only: true
parameters:
  who:
    type: string
    required: true
    description: whom to greet
---
echo "Hello, "{{who}}
"""

# An optional parameter: tooldrop exports it non-strict, and no framework may make it required.
SHOUT = """---
name: shout
description: Shout a word, with optional punctuation.
approval: never
read_only: true
parameters:
  word:
    type: string
    required: true
  mark:
    type: string
    default: "!"
---
echo {{word}}{{mark}}
"""

DANGER = """---
name: danger
description: Write a word to a marker file.
approval: always
parameters:
  word:
    type: string
    required: true
---
printf '%s' {{{{word}}}} > {marker}
echo "wrote "{{{{word}}}}
"""

FAIL = """---
name: fail
description: Always fails.
approval: never
read_only: true
---
echo "disk on fire" >&2
exit 3
"""

COUNT = '''from tooldrop import tool


@tool(approval="never", read_only=True)
def count(text: str) -> int:
    """Count the words in a text.

    Args:
        text: The text to count.
    """
    return len(text.split())


default = count
'''

EXPLODE = '''from tooldrop import tool


@tool(approval="never", read_only=True)
def explode(reason: str) -> str:
    """Fail with the given reason.

    Args:
        reason: Why it fails.
    """
    raise RuntimeError(reason)


default = explode
'''

PLUGINS = [
    tooldrop.approval,
    tooldrop_markdown.plugin,
    tooldrop_python.plugin,
    tooldrop_shell.plugin,
]


class Place:
    """The project, the personal dir and the marker the ``danger`` tool writes."""

    def __init__(self, root: Path) -> None:
        self.project = root / "project"
        self.user = root / "user"
        self.marker = root / "danger.ran"
        tools = self.user / "tools"
        tools.mkdir(parents=True)
        (self.project / ".tooldrop" / "tools").mkdir(parents=True)
        (tools / "greet.md").write_text(GREET)
        (tools / "shout.md").write_text(SHOUT)
        (tools / "danger.md").write_text(DANGER.format(marker=self.marker))
        (tools / "fail.md").write_text(FAIL)
        (tools / "count.py").write_text(COUNT)
        (tools / "explode.py").write_text(EXPLODE)

    def host(self, **options: object) -> ToolHost:
        return ToolHost(project_dir=self.project, user_dir=self.user, plugins=PLUGINS, **options)  # type: ignore[arg-type]

    def danger_ran(self) -> str | None:
        return self.marker.read_text() if self.marker.exists() else None

    def edit_danger(self) -> None:
        """Swap the danger tool's file for another version (what a person saw is gone)."""
        path = self.user / "tools" / "danger.md"
        path.write_text(path.read_text().replace("wrote ", "WROTE "))


@pytest.fixture
def place(tmp_path: Path) -> Place:
    return Place(tmp_path)


@pytest.fixture
def host(place: Place) -> Iterator[ToolHost]:
    with place.host() as made:
        yield made


#: A word no shell may take apart: if it reached a shell unquoted, the marker would say so.
NASTY = "it's $(touch pwned) `id`; rm -rf ~"
