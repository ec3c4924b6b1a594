"""What the whole script says about its variables, for the allow-list (:mod:`._placement`):
the names it gives an attribute that makes bash evaluate an assignment (``declare -i k``,
then ``k=a[$(…)]`` runs the ``$(…)``), the variables a value is written into by the command
it stands in (:func:`written_into`: ``for k in``, ``read k <<<``, ``printf -v k``…), and
where ``$'…'`` first appears.

A declaration is found however bash would run it: the ``declare`` keyword, a command whose
name bash reads as one (``\\declare``, ``"declare"``, ``command declare``, ``2>/dev/null
declare``, ``y=1 declare``), the text ``eval`` runs and what an alias stands for. Words the
checks cannot read keep it on the safe side: an option such as ``"$opt"`` may be ``-i``, and a
name such as ``"$v"`` may be any variable. A command whose name the script chooses when it
runs (``$d -i k``) may be ``declare``, so its plain names count as declared.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property
from typing import TYPE_CHECKING

from ._bashtree import node_text, parser, snippet, walk
from ._bashwords import BUILTIN_PREFIXES
from ._commandwords import (
    arguments,
    chosen_when_run,
    command_name,
    redirect_owner,
    stray_words,
    word_value,
)

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["ScriptFacts", "written_into"]

#: Builtins that give variables attributes (``export`` and ``readonly`` give none that
#: matter: ``export -n`` unexports, and a read-only variable refuses any later assignment).
DECLARING = frozenset({"declare", "typeset", "local"})
#: The attributes whose variables bash evaluates on assignment: integer (arithmetic), name
#: reference (the value names a variable), indexed and associative array (subscripts).
_ATTRIBUTES = frozenset("inaA")
_DECLARING_WORD = re.compile(r"\b(?:declare|typeset|local)\b")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?=\[|\+?=)")
#: Builtins that write their input into the variables they name.
_READERS = frozenset({"read", "mapfile", "readarray"})
#: How deep text run again (eval's, an alias's) is read for declarations in it.
_DEPTH = 3


class ScriptFacts:
    """What the whole script says about its variables: names declared integer, nameref or
    array (an assignment to them is evaluated), the variables its readers write and the
    functions it defines, and whether it holds ``$'…'``. Each is read on first use."""

    def __init__(self, root: Node, script: bytes, holes: Iterable[int] = ()) -> None:
        self.root = root
        #: Where the placeholders stand (byte offsets): a word there is a value.
        self.holes = set(holes)
        #: Where the first ``$'…'`` starts, if any.
        self.ansi_at: int | None = None
        if b"$'" in script:  # walking the tree costs more than parsing it
            found = [n.start_byte for n in walk(root) if n.type == "ansi_c_string"]
            self.ansi_at = min(found, default=None)

    @cached_property
    def _reading(self) -> _Reading:
        # Read once, on the first placeholder that asks (an assignment, a here-string…).
        reading = _Reading()
        reading.script(self.root, _DEPTH)
        return reading

    @property
    def read_into(self) -> frozenset[str]:
        """Every variable a ``read``, ``mapfile`` or ``readarray`` of the script writes."""
        return frozenset(self._reading.read)

    @property
    def functions(self) -> frozenset[str]:
        """The names of the functions the script defines."""
        return frozenset(self._reading.functions)

    @property
    def evaluated(self) -> frozenset[str]:
        """Names an assignment to which bash evaluates."""
        return frozenset(self._reading.names)

    @property
    def unreadable(self) -> str | None:
        """A declaration whose names the checks cannot read (``declare -i "$v"``): then any
        variable may be evaluated on assignment. Its text, quoted for the message."""
        return self._reading.unknown


class _Reading:
    """One walk over the script (and the text it runs again): its declarations, its
    readers' variables, its functions."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.unknown: str | None = None
        self.aliases: dict[str, str] = {}
        self.read: set[str] = set()
        self.functions: set[str] = set()

    def script(self, root: Node, depth: int) -> None:
        nodes = []
        for node in walk(root):
            if node.type in ("command", "declaration_command"):
                nodes.append(node)
            elif node.type == "function_definition":
                self.functions.update(_text_of(node.child_by_field_name("name")))
        plain = {n.id: _plain_name(n) for n in nodes}
        # Most commands plainly run another program (ls): their words need no reading.
        commands = [_read(n) for n in nodes if plain[n.id] is None]
        for _, (_, name, rest) in commands:
            if name == "alias":
                for value in map(word_value, rest):
                    alias, equals, text = (value or "").partition("=")
                    if equals:
                        self.aliases[alias] = text
        # bash expands an alias wherever it is used (with expand_aliases)
        commands += [_read(n) for n in nodes if plain[n.id] in self.aliases]
        for node, (name_node, name, rest) in commands:
            if node.type == "declaration_command":
                if node.children[0].type in DECLARING:
                    self.declaration(node, [*node.children[1:], *stray_words(node)])
            elif name in DECLARING:
                self.declaration(node, rest)
            elif name in _READERS:
                self.read.update(_names_read(name, rest))
            elif name in self.aliases or name == "eval":  # bash expands an alias named eval
                self.again(node, self.aliases.get(name, ""), rest, depth)
            elif name is None and name_node is not None and not chosen_when_run(name_node):
                self.declaration(node, rest)  # $'declare', re{a,}d: bash reads the name
            elif name is None:
                # Chosen when the script runs: it may be declare, given these words.
                self.names.update(n for n in map(_name_in, map(word_value, rest)) if n)

    def declaration(self, node: Node, words: list[Node]) -> None:
        """A declaration's words: its options, its names and assignments."""
        names: list[str] = []
        flagged = unreadable = False
        for word in words:
            assigned = _ASSIGNED.match(node_text(word))
            if assigned is not None:  # k=…, k[…]=… (an assignment): no glob expands there
                names.append(assigned.group(1))
                continue
            value = word_value(word) if word.type != "variable_name" else node_text(word)
            if value is None:
                unreadable = True  # "$opt" may be -i; "$v" may name any variable
            elif value[:1] in "-+":
                flagged = flagged or bool(set(value[1:]) & _ATTRIBUTES)
            elif (name := _name_in(value)) is not None:
                names.append(name)
        if unreadable and self.unknown is None:
            self.unknown = snippet(node)
        if flagged or unreadable:
            self.names.update(names)

    def again(self, node: Node, prefix: str, rest: list[Node], depth: int) -> None:
        """Text bash reads as a script again: eval's words, an alias and what follows it."""
        values = [word_value(word) for word in rest]
        if None in values:
            # Not known until it runs ("eval "$(ssh-agent)""): wary only of a declaration.
            if _DECLARING_WORD.search(node_text(node)) and self.unknown is None:
                self.unknown = snippet(node)
            return
        if depth == 0:
            if self.unknown is None:
                self.unknown = snippet(node)
            return
        text = " ".join([prefix, *values])  # type: ignore[list-item]
        self.script(parser().parse(text.encode()).root_node, depth - 1)


#: A command name that is plainly some program: no quotes, escapes or expansions.
_PLAIN = re.compile(r"[A-Za-z0-9_./:+-]+")
_LOOKED_AT = DECLARING | BUILTIN_PREFIXES | _READERS | {"eval", "alias"}


def _plain_name(command: Node) -> str | None:
    """The name of a command that plainly runs a program declaring nothing (``ls``), seen
    without reading its words; ``None`` for any other."""
    name = command.child_by_field_name("name") if command.type == "command" else None
    text = node_text(name) if name is not None else ""
    return text if _PLAIN.fullmatch(text) and text not in _LOOKED_AT else None


def _read(command: Node) -> tuple[Node, tuple[Node | None, str | None, list[Node]]]:
    return command, command_name(command, arguments(command))


def _name_in(value: str | None) -> str | None:
    """The variable a declaration's word names (``k``, ``k=1``, ``k[2]``, ``k+=1``)."""
    match = _NAME.match(value or "")
    return match.group() if match else None


def written_into(parent: Node, word: Node, facts: ScriptFacts) -> list[str]:
    """The variables a value standing at ``word`` (under ``parent``) is written into by the
    command it stands in, besides a plain assignment: a ``for``/``select`` variable, an
    array's elements (``k=(… {{ x }})``), what ``printf -v k`` prints, and what reads a
    here-string: ``read``/``mapfile`` (every name they are given, and the words that may be
    an option's value too), or, for a loop, a group or a function the script defines, every
    name any reader of the script is given. ``""`` stands for a name the checks cannot read."""
    kind = parent.type
    if kind == "for_statement":  # (a value as its variable does not parse)
        return _text_of(parent.child_by_field_name("variable"))
    if kind == "array" and parent.parent is not None:
        return _text_of(parent.parent.child_by_field_name("name"))
    if kind == "herestring_redirect":
        owner = redirect_owner(parent)
        if owner is None:
            return []
        if owner.type != "command":
            return sorted(facts.read_into)  # while read k; do …; done <<< {{ x }}
        _, name, rest = command_name(owner, arguments(owner))
        if name in _READERS:
            return _names_read(name, rest)
        if name is None or name in facts.functions:  # f <<< {{ x }}, $cmd <<< {{ x }}
            return sorted(facts.read_into)
        return []
    if kind == "command":
        _, name, rest = command_name(parent, arguments(parent))
        if name != "printf":
            return []
        values = [word_value(w) or "" for w in rest if w.start_byte < word.start_byte]
        for index, value in enumerate(values):
            if value == "-v" and index + 1 < len(values):
                return [values[index + 1].split("[")[0]]
            if value.startswith("-v") and len(value) > 2:
                return [value[2:].split("[")[0]]
    return []


def _names_read(name: str, rest: list[Node]) -> list[str]:
    """The variables ``read`` or ``mapfile`` given ``rest`` writes: ``""`` for a name the
    checks cannot read (``"$n"``), which may be any variable."""
    names = [v or "" for v in map(word_value, rest) if not (v or "").startswith("-")]
    return names or ["REPLY" if name == "read" else "MAPFILE"]


def _text_of(node: Node | None) -> list[str]:
    return [node_text(node)] if node is not None else []
