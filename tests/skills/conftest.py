"""Skill-bundle trees like the reference's examples (nanocoder-skill-bundles.md §7), on disk.

``P`` is the project root and ``C`` the personal config dir, as in the reference; hosts are
built with the installed plugins (the real markdown loader, shell backend and policy).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tooldrop import ToolHost


def t(
    name: str,
    approval: str = "never",
    params: tuple[str, ...] = (),
    body: str = "echo ok",
    extra: str = "",
) -> str:
    """A valid tool file, the reference's ``t(<name>[, approval][, params])``."""
    text = f"---\nname: {name}\ndescription: The {name} tool.\napproval: {approval}\n{extra}"
    if params:
        text += "parameters:\n" + "".join(
            f"  {p}:\n    type: string\n    description: {p}\n" for p in params
        )
    return text + f"---\n{body}\n"


def a(name: str, extra: str = "") -> str:
    """A valid agent file, the reference's ``a(<name>[, extra frontmatter])``."""
    return f"---\nname: {name}\ndescription: The {name} agent.\n{extra}---\nYou are {name}.\n"


class Tree:
    def __init__(self, root: Path, app: str = "nanocoder") -> None:
        self.root = root
        self.app = app
        self.P = root / "P"
        self.C = root / "C"
        self.P.mkdir()
        self.C.mkdir()
        self.hosts: list[ToolHost] = []

    @property
    def project_skills(self) -> Path:
        return self.P / f".{self.app}" / "skills"

    @property
    def personal_skills(self) -> Path:
        return self.C / "skills"

    def write(self, path: Path, text: str) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if text.startswith("\n") else text)
        return path

    def bundle(
        self,
        directory: str,
        manifest: str | None,
        *,
        personal: bool = False,
        tools: dict[str, str] | None = None,
        agents: dict[str, str] | None = None,
        commands: dict[str, str] | None = None,
    ) -> Path:
        """A bundle; ``manifest`` is the text of ``skill.yaml`` (``None``: no manifest)."""
        root = (self.personal_skills if personal else self.project_skills) / directory
        root.mkdir(parents=True, exist_ok=True)
        if manifest is not None:
            self.write(root / "skill.yaml", textwrap.dedent(manifest).lstrip("\n"))
        for folder, files in (("tools", tools), ("agents", agents), ("commands", commands)):
            for name, text in (files or {}).items():
                self.write(root / folder / name, text)
        return root

    def flat_tool(self, file_name: str, text: str, *, personal: bool = False) -> Path:
        base = self.C if personal else self.P / f".{self.app}"
        return self.write(base / "tools" / file_name, text)

    def host(self, **kwargs: Any) -> ToolHost:
        kwargs.setdefault("app", self.app)
        kwargs.setdefault("cache", False)
        host = ToolHost(project_dir=self.P, user_dir=self.C, **kwargs)
        self.hosts.append(host)
        return host

    def trusted_host(self, **kwargs: Any) -> ToolHost:
        host = self.host(**kwargs)
        host.trust()
        return host


@pytest.fixture
def tree(tmp_path: Path) -> Iterator[Tree]:
    made = Tree(tmp_path)
    yield made
    for host in made.hosts:
        host.close()


def names(specs: Any) -> list[str]:
    return sorted(spec.name for spec in specs)


def messages(host: ToolHost, severity: str | None = None) -> list[str]:
    return [p.message for p in host.problems() if severity is None or p.severity == severity]
