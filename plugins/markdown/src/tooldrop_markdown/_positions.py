"""Where a placeholder may stand: an allow-list, judged on a real parse of the script.

The lexer of :mod:`._shell` knows the quotes, substitutions, comments and heredocs a value
must stay out of. This module asks the positive question, on the syntax tree that
`tree-sitter-bash <https://github.com/tree-sitter/tree-sitter-bash>`_ builds: does the
placeholder stand where both shells pass a value on to a program as data? Each placeholder
is replaced by a quoted word (what it renders as), the script is parsed, and the word must be

- an argument of a simple command, whole or part of a word, whose command name is a literal
  word and does not read its arguments as variable names or arithmetic (``read``, ``let``,
  ``printf -v``, ``test -v``, ``unset``, ``compgen``...);
- the value of an assignment (``V={{ x }}``, ``V={{ x }} cmd``, ``local V={{ x }}``), unless
  the variable is one whose assignment bash evaluates (``RANDOM``, a ``declare -i`` name...)
  or one a tool may not set (:func:`tooldrop.is_forbidden_env`);
- a redirection target other than ``>&`` and ``<&`` (bash expands the word after those again);
- a ``case`` subject or pattern, a ``for … in`` word, an element of a bash array ``( … )``;
- an operand of ``[[ … ]]`` other than ``-v``/``-R`` and the arithmetic comparisons.

Everything else is refused, and so is every placeholder of a script that does not parse
(bash skips the rest of a broken line and goes on with the next, which may come from a value
with a newline). Array placeholders are accepted only as whole words, where each element
becomes one word. Integer and number parameters, whose values cannot hold code, may also
stand where a number is read (arithmetic, ``>&``, name-taking builtins).

Dialects: the tree is bash's. A body that may run under ``sh`` (``shell: sh``, or no
``shell``: bash when present, else sh) is also refused bash-only constructs around its
placeholders (``[[ ]]``, arrays, ``<<<``, ``<( )``), and any placeholder after a ``$'…'``,
which dash reads as ``$`` and an ordinary quote, so its quotes pair differently.

A script is parsed once with every section in, and once more with each section left out,
so a placeholder is judged in every shape the script can take.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from tooldrop import is_forbidden_env

from ._fields import Param
from ._shell import BodyProblem
from ._template import Token

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

__all__ = ["NAME_TAKING", "SPECIAL_ASSIGN", "check_positions", "shapes"]

#: Builtins that read (some of) their arguments as variable names, array subscripts or
#: arithmetic, where bash evaluates ``a[$(…)]``, as code (``compgen -W``, ``bind -x``,
#: ``mapfile -C``) or as the program a name runs (``hash -p``).
NAME_TAKING = frozenset({
    "read", "mapfile", "readarray", "let", "declare", "typeset", "local", "export",
    "readonly", "unset", "getopts", "wait", "compgen", "complete", "compopt", "alias",
    "bind", "enable", "hash", "printf", "test", "[",
})  # fmt: skip
# printf and test only with these options.
_NAME_OPTIONS = {"printf": ("-v",), "test": ("-v", "-R"), "[": ("-v", "-R")}
# Words in front of a command that leave the builtin it runs unchanged.
_BUILTIN_PREFIXES = frozenset({"command", "builtin", "time"})
#: Variables whose assignment bash evaluates as arithmetic, or that change what runs next.
SPECIAL_ASSIGN = frozenset({"RANDOM", "SRANDOM", "OPTIND", "HISTCMD", "PATH", "BASH_ARGV0"})
_NUMERIC = frozenset({"integer", "number"})
_ARITH_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
# Nodes a placeholder's word may sit in, on its way up to the script.
_CONTAINERS = frozenset({
    "program", "list", "pipeline", "redirected_statement", "subshell", "compound_statement",
    "if_statement", "elif_clause", "else_clause", "while_statement", "do_group",
    "for_statement", "c_style_for_statement", "case_statement", "case_item",
    "function_definition", "negated_command", "command", "variable_assignment",
    "variable_assignments", "declaration_command", "heredoc_redirect", "herestring_redirect",
    "file_redirect", "test_command", "process_substitution", "array",
})  # fmt: skip
_EXPRESSIONS = frozenset({"binary_expression", "unary_expression", "parenthesized_expression"})
_BASH_ONLY = {
    "test_command": "[[ … ]]",
    "array": "an array ( … )",
    "herestring_redirect": "a here-string <<<",
    "process_substitution": "a process substitution <( … )",
}
_WHERE = {
    "arithmetic_expansion": "inside arithmetic",
    "command_substitution": "inside $( … )",
    "expansion": "inside ${ … }",
    "subscript": "in an array subscript",
    "string": "inside double quotes",
    "comment": "in a # comment",
    "heredoc_body": "inside a heredoc body",
    "ansi_c_string": "inside $'…' quotes",
}

_DECLARES = re.compile(rb"declare|typeset|local|export|readonly")
_local = threading.local()


def _parser() -> Parser:
    # Imported on first use: most bodies are plain enough for the lexer's shortcut. One
    # parser per thread, as a tree-sitter parser is not meant to be shared.
    parser: Parser | None = getattr(_local, "parser", None)
    if parser is None:
        import tree_sitter
        import tree_sitter_bash

        parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
        _local.parser = parser
    return parser


def section_spans(tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """Each section's (open, close) token indices, innermost first; at most 16 (a tool has a
    handful: this bounds the work for odd files)."""
    stack: list[int] = []
    spans: list[tuple[int, int]] = []
    for index, token in enumerate(tokens):
        if token.kind in ("open", "invert"):
            stack.append(index)
        elif token.kind == "close" and stack:
            spans.append((stack.pop(), index))
    return spans[:16]


def shapes(tokens: Sequence[Token]) -> Iterator[list[Token]]:
    """The tokens with every section in, then with each section left out in turn."""
    yield list(tokens)
    for start, end in section_spans(tokens):
        yield [*tokens[:start], *tokens[end + 1 :]]


def _script(tokens: Sequence[Token]) -> tuple[bytes, dict[int, Token], dict[int, int]]:
    """The script with each placeholder as the quoted word ``'v'``, where each placeholder
    stands, and where each section tag would be (token index → byte offset)."""
    parts: list[bytes] = []
    where: dict[int, Token] = {}
    tags: dict[int, int] = {}
    position = 0
    for index, token in enumerate(tokens):
        if token.kind == "text":
            data = token.value.encode("utf-8", "surrogatepass")
            parts.append(data)
            position += len(data)
        elif token.kind == "var":
            where[position] = token
            parts.append(b"'v'")
            position += 3
        else:
            tags[index] = position
    return b"".join(parts), where, tags


# A section made of whole plain words (placeholders included) and the blanks between them.
_PLAIN_WORDS = re.compile(rb"[ \t]*(?:(?:[A-Za-z0-9_./:=,@%+-]|'v')+[ \t]*)*")


def _drops_arguments(root: Node, script: bytes, start: int, end: int) -> bool:
    """Whether leaving out the section at ``start:end`` of ``script`` only drops whole
    arguments of one command that is neither a name-taking builtin nor one that runs a
    builtin: then no other placeholder stands anywhere else without it."""
    inner = script[start:end]
    if not inner.strip() or not _PLAIN_WORDS.fullmatch(inner):
        return False
    if not (inner[:1] in (b" ", b"\t") or (start > 0 and script[start - 1] in b" \t")):
        return False  # glued to the word before it
    if not (inner[-1:] in (b" ", b"\t") or end == len(script) or script[end] in b" \t\n;|&"):
        return False  # glued to the word after it
    first = start + len(inner) - len(inner.lstrip())
    last = end - (len(inner) - len(inner.rstrip()))
    node = root.descendant_for_byte_range(first, last)
    while node is not None and node.type != "command":
        if node.type not in ("word", "raw_string", "concatenation", "number"):
            return False
        node = node.parent
    if node is None:
        return False
    name = node.child_by_field_name("name")
    if name is None or name.end_byte > first:
        return False
    command = _literal(name)
    return command is not None and command not in NAME_TAKING and command not in _BUILTIN_PREFIXES


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _literal(node: Node | None) -> str | None:
    """A word's text as the shell reads it, when it holds no expansion (else ``None``)."""
    if node is None:
        return None
    if node.type == "command_name" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type == "word":
        return _text(node).replace("\\", "")
    if node.type == "raw_string":
        return _text(node)[1:-1]
    if node.type == "string" and all(c.type == "string_content" for c in node.named_children):
        return _text(node)[1:-1]
    if node.type == "concatenation":
        parts = [_literal(child) for child in node.children]
        return None if None in parts else "".join(parts)  # type: ignore[arg-type]
    return None


class _Facts:
    """What the whole script says about its variables: names declared integer, nameref or
    array (an assignment to them is evaluated), and whether it holds ``$'…'``."""

    def __init__(self, root: Node, script: bytes) -> None:
        self.evaluated: set[str] = set()
        self.ansi_at: int | None = None
        # Walking the tree costs more than parsing it: only when the text calls for it.
        if b"$'" not in script and not _DECLARES.search(script):
            return
        stack = [root]
        while stack:
            node = stack.pop()
            kind = node.type
            if kind == "declaration_command":
                self.declaration(node)
            elif kind == "ansi_c_string":
                at = node.start_byte
                self.ansi_at = at if self.ansi_at is None else min(self.ansi_at, at)
            stack.extend(node.children)

    def declaration(self, node: Node) -> None:
        words = [_text(child) for child in node.children[1:]]
        if not any(w[:1] in "-+" and set(w[1:]) & set("inaA") for w in words):
            return
        for child in node.children[1:]:
            if child.type == "variable_name":
                self.evaluated.add(_text(child))
            elif child.type == "variable_assignment":
                name = child.child_by_field_name("name")
                if name is not None:
                    self.evaluated.add(_text(name).split("[")[0])


def check_positions(
    tokens: Sequence[Token],
    params: Mapping[str, Param] | None,
    dialect: str,
    skip: set[int],
) -> list[BodyProblem]:
    """Every placeholder that stands outside the allow-list; placeholders at offsets in
    ``skip`` are already reported.

    :param dialect: ``"bash"`` (``shell: bash``), ``"sh"`` (``shell: sh``: dash, or bash as
        sh) or ``"either"`` (no ``shell``: bash when present, else sh).
    """
    if not any(t.kind == "var" and t.start not in skip for t in tokens):
        return []
    found: dict[int, BodyProblem] = {}
    parser = _parser()
    everything: tuple[Node, bytes, dict[int, int]] | None = None
    for shape in [None, *section_spans(tokens)]:
        if shape is None:
            chosen = list(tokens)
        else:
            start, end = shape
            if everything is not None:
                all_in, all_script, tags = everything
                if _drops_arguments(all_in, all_script, tags[start], tags[end]):
                    continue  # the same tree less some plain arguments: nothing new
            chosen = [*tokens[:start], *tokens[end + 1 :]]
        script, where, section_tags = _script(chosen)
        root = parser.parse(script).root_node
        if shape is None and not root.has_error:
            everything = (root, script, section_tags)
        if not where:
            continue
        if root.has_error:
            _broken(root, script, where, skip, found)
            continue
        facts = _Facts(root, script)
        for offset, token in where.items():
            if token.start in skip or token.start in found:
                continue
            param = None if params is None else params.get(token.value)
            message = _judge(root, offset, token, param, dialect, facts)
            if message is not None:
                found[token.start] = (token.start, message, "error")
    return list(found.values())


def _broken(
    root: Node,
    script: bytes,
    where: dict[int, Token],
    skip: set[int],
    found: dict[int, BodyProblem],
) -> None:
    error = _first_error(root)
    line = script.count(b"\n", 0, error.start_byte if error else 0) + 1
    for token in where.values():
        if token.start in skip or token.start in found:
            continue
        found[token.start] = (token.start, (
            f"placeholder {{{{ {token.value} }}}} stands in a script that the checks cannot "
            f"parse (near line {line} of the body: {_snippet(error)}); bash skips the rest "
            "of a broken line and runs the next, which may come from a value with a newline. "
            "Fix the syntax, or write that line in a simpler form (two heredocs on one line "
            "are not read)"
        ), "error")  # fmt: skip


def _first_error(root: Node) -> Node | None:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            return node
        if node.has_error:
            stack.extend(reversed(node.children))
    return None


def _snippet(node: Node | None) -> str:
    if node is None:
        return "unknown"
    if node.is_missing:
        return f"a missing {node.type}"
    text = " ".join(_text(node).split())
    return repr(text[:30] + ("…" if len(text) > 30 else ""))


def _judge(
    root: Node,
    offset: int,
    token: Token,
    param: Param | None,
    dialect: str,
    facts: _Facts,
) -> str | None:
    """Why the placeholder at ``offset`` may not stand there, or ``None`` when it may."""
    tag = f"{{{{ {token.value} }}}}"
    node = root.descendant_for_byte_range(offset, offset + 3)
    if node is None or node.type != "raw_string" or node.start_byte != offset:
        where = _WHERE.get(node.type if node else "", "where the shell reads it as code")
        return (
            f"placeholder {tag} stands {where}, not as a word of its own; values are "
            "already single-quoted, so put it where a plain word goes"
        )
    numeric = param is not None and param.type in _NUMERIC
    array = param is not None and param.type == "array"
    if dialect != "bash" and facts.ansi_at is not None and facts.ansi_at < offset:
        return (
            f"placeholder {tag} comes after a $'…' string, which sh (dash) reads as $ and "
            "an ordinary quote: the quotes pair differently and the value can end up "
            "outside them. Write shell: bash, or write the $'…' string another way"
        )
    word = node
    parent = node.parent
    if parent is not None and parent.type == "concatenation":
        word, parent = parent, parent.parent
        if array:
            return (
                f"array placeholder {tag} is glued to other text; an array is one word per "
                "element, so it may only stand as a whole word of a command's arguments"
            )
    if parent is None:
        return None
    message = _position(parent, word, tag, numeric, array, facts)
    if message is not None:
        return message
    return _ancestors(parent, tag, dialect == "sh")


def _field(parent: Node, child: Node) -> str | None:
    for index, sibling in enumerate(parent.children):
        if sibling.start_byte == child.start_byte and sibling.end_byte == child.end_byte:
            name = parent.field_name_for_child(index)
            if sibling.type == child.type:
                return name
    return None


def _position(
    parent: Node, word: Node, tag: str, numeric: bool, array: bool, facts: _Facts
) -> str | None:
    kind = parent.type
    field = _field(parent, word)
    if kind == "command" and field == "argument":
        return _argument(parent, word, tag, numeric)
    if kind == "command_name":
        return (
            f"placeholder {tag} stands where the command name goes, so the value would "
            "choose the program that runs; name the program in the file and pass the value "
            "as an argument"
        )
    if kind == "variable_assignment" and field == "value":
        return _assignment(parent, tag, numeric, array, facts)
    if array and kind not in ("for_statement", "array"):
        return (
            f"array placeholder {tag} stands {_describe(kind)}; an array is one word per "
            "element, so it may only stand as a whole word of a command's arguments"
        )
    if kind == "file_redirect" and field == "destination":
        operator = next((c.type for c in parent.children if c.type != "file_descriptor"), "")
        if operator in (">&", "<&") and not numeric:
            return (
                f"placeholder {tag} stands after {operator}, where bash reads the word again "
                "as a file descriptor or a file name; write > or < before it (2>&1 and the "
                "like stay literal)"
            )
        return None
    if kind in ("herestring_redirect", "array") or (
        kind in ("case_statement", "case_item", "for_statement") and field == "value"
    ):
        return None
    if kind in _EXPRESSIONS or kind == "test_command":
        return _test(parent, word, tag, numeric)
    if kind in ("declaration_command", "unset_command") and not numeric:
        command = _text(parent.children[0])
        return _name_taking(command, tag)
    if numeric and kind in ("declaration_command", "unset_command"):
        return None
    return (
        f"placeholder {tag} stands {_describe(kind)}, which is not one of the places where "
        "bash and sh pass a value on as data (a command's argument, an assignment's value, "
        "a redirection target, a case or for word); assign it to a variable first "
        f'({_var(tag)}={tag} on a line of its own) and use "${_var(tag)}" there'
    )


def _var(tag: str) -> str:
    return tag.strip("{} ")


def _describe(kind: str) -> str:
    return _WHERE.get(kind, f"in a {kind.replace('_', ' ')}")


def _name_taking(command: str, tag: str) -> str:
    name = _var(tag)
    return (
        f"placeholder {tag} is given to {command}, which reads its arguments as variable "
        "names, where bash evaluates a subscript such as a[$(…)] as code; make "
        f"{name} an integer parameter, or assign the value with a plain {name}={tag} line "
        f'and pass "${name}"'
    )


def _argument(command: Node, word: Node, tag: str, numeric: bool) -> str | None:
    words = _arguments(command)
    name = _literal(command.child_by_field_name("name"))
    rest = [w for w in words if w.start_byte < word.start_byte]
    while name in _BUILTIN_PREFIXES and rest:
        while rest and _text(rest[0]).startswith("-"):
            rest = rest[1:]
        if not rest:
            break
        name = _literal(rest[0])
        rest = rest[1:]
    if name is None:
        return None  # a command chosen when it runs; the run-again check warns
    if name not in NAME_TAKING or numeric:
        return None
    options = _NAME_OPTIONS.get(name)
    if options is not None:
        # printf -v NAME, test -v NAME: only the word after the option is a name.
        texts = [_text(w) for w in words]
        index = next(i for i, w in enumerate(words) if w.start_byte == word.start_byte)
        before = texts[index - 1] if index > 0 else ""
        option = next((o for o in options if before == o or texts[index].startswith(o)), None)
        if option is None:
            return None
        name = f"{name} {option}"
    return _name_taking(name, tag)


def _arguments(command: Node) -> list[Node]:
    return [
        child
        for index, child in enumerate(command.children)
        if command.field_name_for_child(index) == "argument"
    ]


def _assignment(
    assignment: Node, tag: str, numeric: bool, array: bool, facts: _Facts
) -> str | None:
    name_node = assignment.child_by_field_name("name")
    variable = _text(name_node).split("[")[0] if name_node is not None else ""
    if array:
        operator = "+=" if b"+=" in (assignment.text or b"") else "="
        return (
            f"array placeholder {tag} right after {variable}{operator} assigns the first "
            f"element and runs the others as a command; write {variable}=({tag}) "
            "for a bash array, or pass it as arguments"
        )
    if numeric:
        return None
    if variable in SPECIAL_ASSIGN or variable in facts.evaluated:
        return (
            f"placeholder {tag} is assigned to {variable}, whose assignments bash evaluates "
            "(arithmetic, a name reference or a command search path); make the parameter an "
            "integer, or assign the value to another variable"
        )
    if is_forbidden_env(variable):
        return (
            f"placeholder {tag} is assigned to {variable}, which makes the shell or the "
            "programs it starts run code; a value may not set it"
        )
    outer = assignment.parent
    if outer is not None and outer.type == "declaration_command":
        words = [_text(c) for c in outer.children[1:] if c.type == "word"]
        if any(w[:1] in "-+" and set(w[1:]) & set("inaA") for w in words):
            return _name_taking(_text(outer.children[0]) + " " + " ".join(words), tag)
    return None


def _test(expression: Node, word: Node, tag: str, numeric: bool) -> str | None:
    operator = ""
    if expression.type in ("binary_expression", "unary_expression"):
        op = expression.child_by_field_name("operator")
        operator = _text(op) if op is not None else ""
    node: Node | None = expression
    while node is not None and node.type in _EXPRESSIONS:
        node = node.parent
    if node is None or node.type != "test_command":
        if numeric:
            return None
        return (
            f"placeholder {tag} stands inside arithmetic (( … )), where the shell evaluates "
            f"the value as an expression; make {_var(tag)} an integer parameter"
        )
    if numeric:
        return None
    double = _text(node.children[0]) == "[["
    if operator in ("-v", "-R") or (
        not double and any(_text(c) in ("-v", "-R") for c in _walk(node))
    ):
        return _name_taking(f"{'[[' if double else '['} -v", tag)
    if double and operator in _ARITH_TESTS:
        return (
            f"placeholder {tag} is compared with {operator} in [[ … ]], which evaluates "
            "both sides as arithmetic (a[$(…)] runs); make the parameter an integer, or "
            f"compare with [ … {operator} … ], which only reads numbers"
        )
    return None


def _walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.children)


def _ancestors(parent: Node, tag: str, sh: bool) -> str | None:
    node: Node | None = parent
    while node is not None:
        kind = node.type
        if kind == "compound_statement" and node.children and node.children[0].type == "((":
            return f"placeholder {tag} stands inside arithmetic (( … ))"
        if (
            sh
            and kind in _BASH_ONLY
            and not (kind == "test_command" and _text(node.children[0]) == "[")
        ):
            return (
                f"placeholder {tag} stands in {_BASH_ONLY[kind]}, which sh (dash) does not "
                "have; write shell: bash in the frontmatter, or use a POSIX form"
            )
        if kind not in _CONTAINERS and kind not in _EXPRESSIONS:
            return (
                f"placeholder {tag} stands {_describe(kind)}; values stay out of it: assign "
                f"it to a variable first ({_var(tag)}={tag} on a line of its own) and use "
                f'"${_var(tag)}" there'
            )
        node = node.parent
    return None
