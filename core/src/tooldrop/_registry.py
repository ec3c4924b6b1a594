"""One tool per name: the precedence and collision rules (DESIGN §3.4)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from attrs import evolve

from ._model import SCOPES, Problem, ToolSpec

if TYPE_CHECKING:
    from .skills._skills import Skill

__all__ = ["Registry"]

_RANK = {scope: rank for rank, scope in enumerate(SCOPES)}


def _where(spec: ToolSpec, beside: ToolSpec | None = None) -> str:
    """Where ``spec`` is, for a message about ``beside``: a file in the same folder by its
    name, one under the working directory relative to it (as problems' own paths are shown)."""
    path = spec.origin.path
    if path is None:
        return spec.origin.source
    other = beside.origin.path if beside is not None else None
    if other is not None and other.parent == path.parent:
        return path.name
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class Registry:
    """Tools by exposed name, in load order, with the problems adding them raised.

    Tools must be added scope by scope (plugin, personal, project). A tool of a later scope
    replaces one of an earlier scope in place (so the order of a listing stays stable); a
    second tool of the same name within one scope is refused and the first kept.
    """

    def __init__(
        self,
        *,
        reserved: Iterable[str] = (),
        disabled: Iterable[str] = (),
        prefixes: Mapping[str, str] | None = None,
    ) -> None:
        self.reserved = frozenset(reserved)
        self.disabled = frozenset(disabled)
        self.prefixes = dict(prefixes or {})
        self._tools: dict[str, ToolSpec] = {}
        self.problems: list[Problem] = []
        #: The skill bundles that loaded, by name (the winner of each name).
        self.skills: dict[str, Skill] = {}

    def exposed_name(self, spec: ToolSpec) -> str:
        return self.prefixes.get(spec.origin.source, "") + spec.name

    def add(self, spec: ToolSpec) -> None:
        """Add ``spec`` under its exposed name, or record in :attr:`problems` why not."""
        name = self.exposed_name(spec)
        if name != spec.name:
            spec = evolve(spec, name=name)
        if name in self.disabled:
            return
        if name in self.reserved:
            self._problem(
                spec, f'Tool name "{name}" collides with a built-in or MCP tool — skipping'
            )
            return
        current = self._tools.get(name)
        if current is None:
            self._tools[name] = spec
            return
        new_rank, old_rank = _RANK[spec.origin.scope], _RANK[current.origin.scope]
        if new_rank == old_rank:
            self._problem(
                spec,
                f'Duplicate tool name "{name}" in {spec.origin.scope} tools — keeping the first '
                f"({_where(current, spec)})",
            )
            return
        if new_rank < old_rank:
            self._problem(
                spec,
                f'"{name}" is also defined by a {current.origin.scope} tool, which takes '
                f"precedence ({_where(current)})",
                severity="info",
            )
            return
        self._tools[name] = spec
        self._problem(
            spec,
            f'overrides {current.origin.scope} tool "{name}" ({_where(current)})',
            severity="info",
        )

    def _problem(self, spec: ToolSpec, message: str, severity: str = "error") -> None:
        self.problems.append(
            Problem(
                path=spec.origin.path,
                line=spec.origin.line,
                field="name",
                message=message,
                severity=severity,  # type: ignore[arg-type]  # one of the Severity literals
            )
        )

    def get(self, name: str) -> ToolSpec | None:
        return self._tools.get(name)

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)
