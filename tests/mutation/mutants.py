"""Mutants of one Python module: small, semantic edits of its source, each with a stable id.

Each mutant replaces the source text of one expression or simple statement (found with
:mod:`ast`, positions in UTF-8 bytes as ``ast`` gives them) and leaves every other byte as it
was, so line numbers stay put for the lines around it. The operators are the classic ones:
comparisons and boolean operators swapped, ``not`` dropped, conditions negated, constants
changed, arithmetic swapped, return values replaced by ``None`` and call statements removed.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Mutant", "mutants_of"]

_SWAP_COMPARE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.LtE: ast.Gt,
    ast.Gt: ast.LtE,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_SWAP_BINOP: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
}


@dataclass(frozen=True)
class Mutant:
    path: str  # relative to the repository root
    line: int
    what: str  # ``old`` → ``new``, for people
    source: str  # the whole mutated module
    key: str  # stable across unrelated edits: the operator and the text it changed

    @property
    def id(self) -> str:
        return f"{self.path}::{self.key}"


def _skipped_lines(tree: ast.Module) -> set[int]:
    """Lines where a mutant means nothing: docstrings, ``__all__``, type-checking imports,
    annotations-only statements, type aliases and ``# pragma: no mutate`` lines are left
    alone."""
    skip: set[int] = set()

    def span(node: ast.AST) -> range:
        return range(node.lineno, (node.end_lineno or node.lineno) + 1)  # type: ignore[attr-defined]

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and _is_text(first.value):  # a docstring
            skip.update(span(first))
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(span(node))
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            skip.update(span(node))
        if isinstance(node, ast.AnnAssign) and node.value is None:
            skip.update(span(node))
        if isinstance(node, ast.AnnAssign) and "TypeAlias" in ast.unparse(node.annotation):
            skip.update(span(node))  # a type alias: for type checkers only
    return skip


class _Finder(ast.NodeVisitor):
    """Collects ``(node, replacement expression text, what)`` for every mutation."""

    def __init__(self) -> None:
        self.found: list[tuple[ast.AST, str, str]] = []
        self._in_annotation = 0

    def _add(self, node: ast.AST, new: str, what: str) -> None:
        self.found.append((node, new, what))

    def generic_visit(self, node: ast.AST) -> None:
        for name, value in ast.iter_fields(node):
            if name in ("annotation", "returns") or name == "decorator_list":
                continue  # types and decorators: not behaviour the tests can see
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        self.visit(item)
            elif isinstance(value, ast.AST):
                self.visit(value)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        for value in node.values:  # the literal parts of an f-string are not Constant mutants
            if isinstance(value, ast.FormattedValue):
                self.visit(value.value)

    def visit_Compare(self, node: ast.Compare) -> None:
        for index, op in enumerate(node.ops):
            swapped = _SWAP_COMPARE.get(type(op))
            if swapped is not None:
                ops = list(node.ops)
                ops[index] = swapped()
                new = ast.Compare(left=node.left, ops=ops, comparators=node.comparators)
                self._add(node, ast.unparse(new), f"{_op(op)} → {_op(swapped())}")
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        new = ast.BoolOp(op=other, values=node.values)
        self._add(node, ast.unparse(new), f"{_op(node.op)} → {_op(other)}")
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not):
            self._add(node, ast.unparse(node.operand), "not x → x")
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        swapped = _SWAP_BINOP.get(type(node.op))
        if swapped is not None and not _is_stringish(node):
            new = ast.BinOp(left=node.left, op=swapped(), right=node.right)
            self._add(node, ast.unparse(new), f"{_op(node.op)} → {_op(swapped())}")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        value = node.value
        if value is True or value is False:
            self._add(node, repr(not value), f"{value} → {not value}")
        elif isinstance(value, int) and not isinstance(value, bool):
            self._add(node, repr(value + 1), f"{value} → {value + 1}")
        elif isinstance(value, str) and value:
            self._add(node, repr(f"XX{value}XX"), f"{_short(value)!r} → 'XX…XX'")

    def _negate_test(self, test: ast.expr) -> None:
        self._add(test, f"not ({ast.unparse(test)})", "condition negated")

    def visit_If(self, node: ast.If) -> None:
        self._negate_test(node.test)
        self.generic_visit(node)

    def visit_While(self, node: ast.While) -> None:
        self._negate_test(node.test)
        self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self._negate_test(node.test)
        self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> None:
        value = node.value
        if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
            self._add(node, "return None", "return value → None")
        self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Call | ast.Await):
            self._add(node, "pass", "call removed")
        self.generic_visit(node)


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _is_stringish(node: ast.BinOp) -> bool:
    return any(
        isinstance(side, ast.Constant | ast.JoinedStr)
        and isinstance(getattr(side, "value", ""), str)
        for side in (node.left, node.right)
    )


def _op(op: ast.AST) -> str:
    symbols = {
        ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
        ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.And: "and",
        ast.Or: "or", ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//",
        ast.BitOr: "|", ast.BitAnd: "&",
    }  # fmt: skip
    return symbols.get(type(op), type(op).__name__)


def _short(text: str) -> str:
    return text if len(text) <= 30 else text[:27] + "..."


def _replace(lines: list[bytes], node: ast.AST, new: str) -> str:
    """The module with ``node``'s source replaced by ``new`` (parenthesised if an expression)."""
    start, end = node.lineno - 1, node.end_lineno - 1  # type: ignore[attr-defined]
    col, end_col = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
    text = new if isinstance(node, ast.stmt) else f"({new})"
    head, tail = lines[start][:col], lines[end][end_col:]
    mutated = [*lines[:start], head + text.encode() + tail, *lines[end + 1 :]]
    return b"".join(mutated).decode()


def mutants_of(path: str, source: str) -> Iterator[Mutant]:
    """Every mutant of ``source`` (the text of ``path``) that still compiles."""
    tree = ast.parse(source)
    skip = _skipped_lines(tree)
    lines = source.encode().splitlines(keepends=True)
    text_lines = source.splitlines()
    finder = _Finder()
    finder.visit(tree)
    seen: dict[str, int] = {}
    for node, new, what in finder.found:
        line = node.lineno  # type: ignore[attr-defined]
        if line in skip or "pragma: no mutate" in text_lines[line - 1]:
            continue
        mutated = _replace(lines, node, new)
        try:
            compile(mutated, path, "exec")
        except SyntaxError:
            continue
        old = ast.get_source_segment(source, node) or ""
        digest = hashlib.sha1(f"{what}\n{old}\n{new}".encode()).hexdigest()[:10]
        count = seen[digest] = seen.get(digest, 0) + 1
        key = digest if count == 1 else f"{digest}-{count}"
        yield Mutant(path=path, line=line, what=what, source=mutated, key=key)
