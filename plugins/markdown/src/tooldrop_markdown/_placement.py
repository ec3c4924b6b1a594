"""The allow-list itself: whether one placeholder's word, found in the parse tree, stands
where bash and sh pass a value on as data, and if not, a message that says how to fix it.

:mod:`._positions` renders and parses the script; :func:`judge` is asked about each
placeholder of a tree that parsed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tooldrop import is_forbidden_env

from ._bashtree import field_of, node_text, snippet, walk
from ._bashwords import NAME_OPTIONS, NAME_TAKING, SPECIAL_ASSIGN
from ._commandwords import (
    arguments,
    chosen_when_run,
    command_name,
    destinations,
    glued_before,
    glued_prefix,
    in_printf_options,
    may_vanish,
    redirect_owner,
    word_value,
)
from ._fields import Param
from ._scriptfacts import ScriptFacts, written_into
from ._template import Token

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["judge"]

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
    # tree-sitter-bash's smallest node around a quoted word inside "…" is the text in them
    "string_content": "inside double quotes",
    "comment": "in a # comment",
    "heredoc_body": "inside a heredoc body",
    "ansi_c_string": "inside $'…' quotes",
}


def judge(
    root: Node,
    offset: int,
    token: Token,
    param: Param | None,
    dialect: str,
    facts: ScriptFacts,
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
    message = _position(parent, word, offset, tag, numeric, array, facts)
    if message is not None:
        return message
    return _ancestors(parent, tag, dialect == "sh")


def _position(
    parent: Node, word: Node, at: int, tag: str, numeric: bool, array: bool, facts: ScriptFacts
) -> str | None:
    kind = parent.type
    field = field_of(parent, word)
    for target in [] if numeric else written_into(parent, word, facts):
        why = _written(target, facts)
        if why is not None:
            return (
                f"placeholder {tag} is written into {why}; make the parameter an integer, or "
                "write the value into another variable"
            )
    if kind == "command" and field == "argument":
        return _argument(parent, word, at, tag, numeric, facts)
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
    if kind == "file_redirect" and field == "destination" and word != destinations(parent)[0]:
        return _stray(parent, word, at, tag, numeric, facts)
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
        return _test(parent, tag, numeric)
    if kind in ("declaration_command", "unset_command") and not numeric:
        command = node_text(parent.children[0])
        return _name_taking(command, tag)
    if numeric and kind in ("declaration_command", "unset_command"):
        return None
    return (
        f"placeholder {tag} stands {_describe(kind)}, which is not one of the places where "
        "bash and sh pass a value on as data (a command's argument, an assignment's value, "
        "a redirection target, a case or for word); assign it to a variable first "
        f'({_var(tag)}={tag} on a line of its own) and use "${_var(tag)}" there'
    )


def _written(variable: str, facts: ScriptFacts) -> str | None:
    """What a value written into ``variable`` meets, when bash may evaluate it (``""``: a
    name the checks cannot read, which may be any declared one)."""
    evaluated = "whose assignments bash evaluates (declared integer, name reference or array)"
    if not variable and facts.evaluated:
        return (
            f"a variable whose name the checks cannot read, which may be "
            f"{min(facts.evaluated)}, {evaluated}"
        )
    if variable in facts.evaluated:
        return f"{variable}, {evaluated}"
    if facts.unreadable is not None:
        return (
            f"{variable or 'a variable'}, and the script declares names the checks cannot "
            f"read {facts.unreadable}, which may give it an attribute whose assignments bash "
            "evaluates"
        )
    return None


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


def _argument(
    command: Node, word: Node, at: int, tag: str, numeric: bool, facts: ScriptFacts
) -> str | None:
    earlier = [w for w in arguments(command) if w.start_byte < word.start_byte]
    name_node, name, rest = command_name(command, earlier)
    if name_node is not None and all(may_vanish(w) for w in [name_node, *rest]):
        text = node_text(name_node)
        quote = "" if text.startswith('"') else f'quote it ("{text}" stays one word) or '
        return (
            f"placeholder {tag} follows only {snippet(name_node)[1:-1]}, which may expand to "
            "nothing (unset, empty, or no words): then the value is the command name and "
            f"chooses the program; {quote}name the program in the file"
        )
    if numeric:
        return None
    if name is None:
        if name_node is not None and not chosen_when_run(name_node):
            return (
                f"placeholder {tag} is given to a command whose name bash works out from "
                f"the text when it runs ({node_text(name_node)}: $'…' or $\"…\" quotes, "
                "braces or a glob), which the checks do not follow, so they cannot tell "
                "whether it takes names or code (read, declare, eval…); write the name plainly"
            )
        return None  # a command the script chooses when it runs (from $VAR or $( … ))
    if name not in NAME_TAKING:
        return None
    options = NAME_OPTIONS.get(name)
    if options is not None:
        # printf -v NAME, test -v NAME: only the word after the option, or glued to it, is
        # a name. What stands before must be read as bash reads it.
        before = word_value(rest[-1]) if rest else ""
        own = glued_prefix(word, at)
        option = next((o for o in options if before == o or own.startswith(o)), None)
        if option is None:
            why = _option_risk(name, options[0], rest, word, at, facts)
            if why is None:
                return None
            return (
                f"placeholder {tag} is given to {name} {why}: then {name} reads a value as "
                "a variable name, where bash evaluates a subscript such as a[$(…)] as code; "
                + _OPTION_FIX[name]
            )
        name = f"{name} {option}"
    return _name_taking(name, tag)


_OPTION_FIX = {
    "printf": "put the format first (printf %s {{ x }}), or -- before the value",
    "test": "write the operator in the file (test -n {{ x }}, test {{ x }} = {{ y }})",
    "[": "write the operator in the file ([ -n {{ x }} ], [ {{ x }} = {{ y }} ])",
}


def _option_risk(
    name: str, option: str, rest: list[Node], word: Node, at: int, facts: ScriptFacts
) -> str | None:
    """Why a value given to printf or test may be read as a name: after words the checks
    cannot read, where printf reads its options, or right after a value that may be -v."""
    holes = facts.holes
    for before in [*rest, *glued_before(word, at)]:
        unread = word_value(before) is None and not chosen_when_run(before)
        if unread and before.start_byte not in holes:
            return (
                f"after {node_text(before)}, which bash works out from the text when it "
                f"runs (braces, a glob, $'…' quotes) and which may spell {option}"
            )
    if name == "printf" and in_printf_options(rest, holes):
        return (
            "where it reads its options (no format or -- before the value), so a value "
            f"such as {option}NAME names a variable"
        )
    if name != "printf" and rest and rest[-1].start_byte in holes:
        return f"right after another value, which may be {option}"
    return None


def _stray(
    redirect: Node, word: Node, at: int, tag: str, numeric: bool, facts: ScriptFacts
) -> str | None:
    """A word after a redirection's target (``read <f {{ x }}``): an argument of the command
    the redirection belongs to, judged as one."""
    owner = redirect_owner(redirect)
    kind = owner.type if owner is not None else ""
    if owner is not None and kind == "command":
        return _argument(owner, word, at, tag, numeric, facts)
    if owner is not None and kind in ("declaration_command", "unset_command"):
        return None if numeric else _name_taking(node_text(owner.children[0]), tag)
    return (
        f"placeholder {tag} stands after a redirection's target, where the checks cannot "
        f"tell what reads it; assign it to a variable first ({_var(tag)}={tag} on a line of "
        f'its own) and use "${_var(tag)}" there'
    )


def _assignment(
    assignment: Node, tag: str, numeric: bool, array: bool, facts: ScriptFacts
) -> str | None:
    name_node = assignment.child_by_field_name("name")
    variable = node_text(name_node).split("[")[0] if name_node is not None else ""
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
    if facts.unreadable is not None:
        return (
            f"placeholder {tag} is assigned to {variable}, and the script declares names the "
            f"checks cannot read {facts.unreadable}, which may give {variable} "
            "an attribute whose assignments bash evaluates (integer, name reference); write "
            "the declared names plainly, or make the parameter an integer"
        )
    if is_forbidden_env(variable):
        return (
            f"placeholder {tag} is assigned to {variable}, which makes the shell or the "
            "programs it starts run code; a value may not set it"
        )
    # ``declare -i k={{ x }}`` needs no check here: ScriptFacts has marked k evaluated.
    return None


def _test(expression: Node, tag: str, numeric: bool) -> str | None:
    # The operators of the expressions around the value, innermost first: -'v' -eq 1 and
    # ~'v' -eq 1 compare a unary expression holding it, evaluated as arithmetic too.
    operators: list[str] = []
    node: Node | None = expression
    while node is not None and node.type in _EXPRESSIONS:
        op = node.child_by_field_name("operator")
        operators.append(node_text(op) if op is not None else "")
        node = node.parent
    operator = operators[0] if operators else ""
    compared = next((o for o in operators if o in _ARITH_TESTS), None)
    if node is None or node.type != "test_command":
        if numeric:
            return None
        return (
            f"placeholder {tag} stands inside arithmetic (( … )), where the shell evaluates "
            f"the value as an expression; make {_var(tag)} an integer parameter"
        )
    if numeric:
        return None
    double = node_text(node.children[0]) == "[["
    if operator in ("-v", "-R") or (
        not double and any(node_text(c) in ("-v", "-R") for c in walk(node))
    ):
        return _name_taking(f"{'[[' if double else '['} -v", tag)
    if double and compared is not None:
        return (
            f"placeholder {tag} is compared with {compared} in [[ … ]], which evaluates "
            "both sides as arithmetic (a[$(…)] runs); make the parameter an integer, or "
            f"compare with [ … {compared} … ], which only reads numbers"
        )
    return None


def _ancestors(parent: Node, tag: str, sh: bool) -> str | None:
    node: Node | None = parent
    while node is not None:
        kind = node.type
        if kind == "compound_statement" and node.children and node.children[0].type == "((":
            return f"placeholder {tag} stands inside arithmetic (( … ))"
        if (
            sh
            and kind in _BASH_ONLY
            and not (kind == "test_command" and node_text(node.children[0]) == "[")
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
