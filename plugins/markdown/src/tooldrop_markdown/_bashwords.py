"""Bash builtins and variables that read a value as more than data: names, subscripts,
arithmetic or code. Both the parse-tree allow-list and the plain-body shortcut refuse a
placeholder given to them."""

from __future__ import annotations

__all__ = ["BUILTIN_PREFIXES", "NAME_OPTIONS", "NAME_TAKING", "SPECIAL_ASSIGN"]

#: Builtins that read (some of) their arguments as variable names, array subscripts or
#: arithmetic, where bash evaluates ``a[$(…)]``, as code (``compgen -W``, ``bind -x``,
#: ``mapfile -C``) or as the program a name runs (``hash -p``).
NAME_TAKING = frozenset({
    "read", "mapfile", "readarray", "let", "declare", "typeset", "local", "export",
    "readonly", "unset", "getopts", "wait", "compgen", "complete", "compopt", "alias",
    "bind", "enable", "hash", "printf", "test", "[",
})  # fmt: skip
#: printf and test take names only with these options.
NAME_OPTIONS = {"printf": ("-v",), "test": ("-v", "-R"), "[": ("-v", "-R")}
#: Words in front of a command that leave the builtin it runs unchanged.
BUILTIN_PREFIXES = frozenset({"command", "builtin", "time"})
#: Variables whose assignment bash evaluates as arithmetic, or that change what runs next.
SPECIAL_ASSIGN = frozenset({"RANDOM", "SRANDOM", "OPTIND", "HISTCMD", "PATH", "BASH_ARGV0"})
