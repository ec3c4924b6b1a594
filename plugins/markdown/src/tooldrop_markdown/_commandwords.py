"""A command's words as bash reads them, for the allow-list (:mod:`._placement`): which
words are a command's arguments (tree-sitter-bash files those after a redirection in the
middle of a command as more targets of it), a word's value when the text fixes it (not when
bash makes other words of it: a glob, braces, ``$'…'``), and where printf reads options.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._bashtree import literal, node_text, walk
from ._bashwords import BUILTIN_PREFIXES

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = [
    "arguments", "chosen_when_run", "command_name", "destinations", "glued_before", "glued_prefix",
    "in_printf_options", "may_vanish", "redirect_owner", "stray_words", "word_value",
]  # fmt: skip


def stray_words(command: Node) -> list[Node]:
    """Words of ``command`` that tree-sitter-bash files under a redirection in the middle of
    it, as more destinations (``read <f NAME``, ``declare 2>/dev/null -i k``): bash reads them
    as the command's arguments. The redirections may hang on a ``redirected_statement``
    around the command, or around a pipeline that ends with it."""
    found: list[Node] = []
    node, outer = command, command.parent
    # A command's own redirections hold one destination each; a command under a
    # redirected_statement is always its body (tree-sitter-bash's grammar).
    while outer is not None and (
        outer.type == "redirected_statement"
        or (outer.type == "pipeline" and outer.named_children[-1] == node)
    ):
        node, outer = outer, outer.parent
        if node.type == "redirected_statement":
            for redirect in node.children:
                if redirect.type == "file_redirect":
                    found.extend(destinations(redirect)[1:])
    return sorted(found, key=lambda w: w.start_byte)


def destinations(redirect: Node) -> list[Node]:
    return [
        child
        for index, child in enumerate(redirect.children)
        if redirect.field_name_for_child(index) == "destination"
    ]


def redirect_owner(redirect: Node) -> Node | None:
    """The command a redirection in a ``redirected_statement`` (or in the command) belongs
    to: the statement's body, or the last command of a pipeline that is its body."""
    node: Node | None = redirect.parent
    while node is not None and node.type in ("redirected_statement", "pipeline"):
        node = (
            node.child_by_field_name("body")
            if node.type == "redirected_statement"
            else (node.named_children[-1] if node.named_children else None)
        )
    return node


#: Nodes through which the script chooses a word when it runs, not the text.
_EXPANSIONS = frozenset({
    "simple_expansion", "expansion", "command_substitution", "arithmetic_expansion",
})  # fmt: skip
#: What bash makes other words of, unquoted: a glob (``*``, ``?``, ``[…]``), braces
#: (``{a,b}``, ``{1..3}``). Escaped with a backslash too: the checks stay wary.
_EXPANDS = re.compile(r"[*?]|\[.*\]|\{.*(,|\.\.).*\}")


def word_value(node: Node | None) -> str | None:
    """A word's value when the text fixes it and the checks can read it: a literal with no
    unquoted glob or braces (``None`` for ``$'…'``, ``re{a,}d``, ``rea?``, expansions)."""
    if node is None:
        return None
    value = literal(node)
    if value is None:
        return None
    # The word with its quoted parts as a plain letter: what bash may expand.
    if node.type == "command_name":  # always one named child: the name's word
        node = node.named_children[0]
    parts = node.children if node.type == "concatenation" else [node]
    bare = "".join(node_text(p) if p.type == "word" else "q" for p in parts)
    return None if _EXPANDS.search(bare) else value


#: Unquoted, these expand to no word at all when empty (arithmetic always gives a number).
_VANISHING = frozenset({"simple_expansion", "expansion", "command_substitution"})
#: Expansions that always give a word: a length, a default or an error for an unset or
#: empty variable (``${EDITOR:-vi}``, ``${v:?}``), when the default is plain text.
_STAYS = re.compile(r"\$\{(?:#\w+|\w+:?[-=?][^$`}]+|\w+:\?)\}")


def may_vanish(node: Node) -> bool:
    """Whether bash may make no word at all of ``node``: only unquoted expansions
    (``$v``, ``${v}``, ``$(…)``, ```…```), or ``"$@"`` and ``"${a[@]}"``, which vanish even
    quoted when they hold no element."""
    if node.type == "command_name":  # always one named child: the name's word
        node = node.named_children[0]
    parts = node.children if node.type == "concatenation" else [node]
    if all(part.type in _VANISHING and not _STAYS.fullmatch(node_text(part)) for part in parts):
        return True
    inner = node.named_children if node.type == "string" else []
    return (
        len(inner) == 1
        and inner[0].type in ("simple_expansion", "expansion")
        and "@" in node_text(inner[0])
    )


def chosen_when_run(node: Node) -> bool:
    """Whether an expansion in the word chooses it when the script runs (``$cmd``)."""
    return any(part.type in _EXPANSIONS for part in walk(node))


def in_printf_options(rest: list[Node], holes: set[int]) -> bool:
    """Whether printf may still read options where the value stands: no ``--`` and no
    format before it (``-v NAME`` takes the word after it; a value may be an option; an
    unquoted expansion may vanish; a quoted expansion is one word, the script's own)."""
    index = 0
    while index < len(rest):
        word = rest[index]
        value = None if word.start_byte in holes else word_value(word)
        if value is None:
            if word.start_byte not in holes and word.type == "string":
                return False
        elif value == "--" or not value.startswith("-"):
            return False
        elif value == "-v":
            index += 1  # its name
        index += 1
    return True


def glued_before(word: Node, at: int) -> list[Node]:
    """The parts of the placeholder's word before it (``-v`` in ``-v{{ x }}``)."""
    if word.type != "concatenation":
        return []
    return [child for child in word.children if child.end_byte <= at]


def glued_prefix(word: Node, at: int) -> str:
    """The text glued before the placeholder; a value there reads as nothing."""
    return "".join(word_value(part) or "" for part in glued_before(word, at))


def arguments(command: Node) -> list[Node]:
    words = [
        child
        for index, child in enumerate(command.children)
        if command.field_name_for_child(index) == "argument"
    ]
    return sorted([*words, *stray_words(command)], key=lambda w: w.start_byte)


def command_name(command: Node, words: list[Node]) -> tuple[Node | None, str | None, list[Node]]:
    """The command bash runs and the words it gets, past ``command``, ``builtin`` and
    ``time`` and their options: its name's node, its value (``None`` when the checks cannot
    read it) and the words after it (of ``words``, the command's arguments or some)."""
    name_node = command.child_by_field_name("name")
    name = word_value(name_node)
    rest = words
    while name in BUILTIN_PREFIXES and rest:
        while rest and node_text(rest[0]).startswith("-"):
            rest = rest[1:]
        if not rest:
            break
        name_node, name = rest[0], word_value(rest[0])
        rest = rest[1:]
    return name_node, name, rest
