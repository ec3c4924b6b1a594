"""A generator of shell bodies with placeholders anywhere, for the property test of issue 12.

Bodies come from a small grammar of shell constructs (quotes of every kind, ``$'…'``, ``$$``,
both arithmetics, ``[[ ]]``, redirections with ``>&``, heredocs, comments after line
continuations, assignments with prefixes, arrays, ``case``, ``for``, functions, subshells,
sections, redirections anywhere in a command, names spelled in quotes or braces, a
variable declared in any of the ways bash finds a declaration and then assigned), with
placeholders put in any word, and now and then a stray quote, bracket or
backslash dropped anywhere, so the loader also sees what no grammar would write.

Deterministic for a seed. The commands are harmless (no ``rm``, no ``cd``, no loops that
do not end) and none writes the marker: only a value that runs can create it.
"""

from __future__ import annotations

import random

MARKER = "PWNED"
TOUCH = f"touch {MARKER}"

#: Hostile values for the string parameter ``x``.
VALUES = [
    f"$({TOUCH})",
    f"`{TOUCH}`",
    f";{TOUCH};",
    f"\n{TOUCH} #",
    f"a\n{TOUCH} #",
    f"a[$({TOUCH})]",
    f"a[`{TOUCH}`]",
    f"x[$({TOUCH})]+1",
    f"';{TOUCH};'",
    f"'\n{TOUCH} #",
    f'";{TOUCH};"',
    f"\\';{TOUCH} #",
    f"\\\n{TOUCH} #",
    f")\n{TOUCH} #",
    f"))\n{TOUCH} #",
    f"]]\n{TOUCH} #",
    f"}}\n{TOUCH} #",
    f"EOF\n{TOUCH} #",
    f"$'\\x27;{TOUCH};'",
    f"*;{TOUCH}",
    f"-c\n{TOUCH}",
    "$(IFS=_;x=touch_PWNED;$x)",
    f"-va[$({TOUCH})]",
    f"1 ]] || {TOUCH} #",
    f"1 ) ; {TOUCH} #",
    "touch",  # as the program, with a PWNED word after it (the value chooses the program)
]

_COMMANDS = [
    "echo", "printf %s", "printf '%s\\n'", "cat", "true", ":", "test", "wc -c", "grep -q a",
    "read -r", "let", "declare", "declare -i", "export", "readonly", "printf -v v", "unset",
    "getopts a", "mapfile", "eval", "sh -c", "bash -c", "command", "builtin", "exec echo",
    "env A=1 echo", "compgen -W", "[", "test -v", "printf -v", "trap", "shift", "x=1 echo",
    "time echo", "alias", "source", "awk", "python3 -c", "sort", "ls", "printf", "read",
    # names and options spelled so that only bash's reading shows what they are
    "$'read'", '$"read"', "re{a,}d", "r''ead", "printf {-v,}", 'printf "-v"', "test {-v,}",
    # a command name that may expand to nothing: the next word takes its place
    "$v", "${v}", "$(true)", "`true`", '"$@"', "$v $w", "command $v",
]  # fmt: skip
#: Declarations of X, spelled as bash may find them; some give X an attribute whose
#: assignments bash evaluates, some do not, some only in another process.
_DECLARATIONS = [
    "declare -i X", "2>/dev/null declare -i X", "\\declare -i X", '"declare" -n X',
    "command declare -i X", "builtin typeset -i X", "Y=1 declare -i X", "eval 'declare -i X'",
    'eval "typeset -n X"', "$'declare' -i X", "d=declare; $d -i X", "o=-i; declare $o X",
    'v=X; declare -i "$v"', "declare >/dev/null -i X", "declare \"-i\" X", "de''clare -i X",
    "declare -{i,} X", "eval declare -i X", "eval typeset -n X",
    "shopt -s expand_aliases\nalias d='declare -i'\nd X",
    "echo | declare -i X", "bash -c 'declare -i X'", "declare X", "declare -x X",
    "export X", "readonly Y", "declare -l X", "local X", "f() { local -i X; }; f",
]  # fmt: skip
_NOISE = [
    "'", '"', "`", "\\", "$", "#", "(", ")", "{", "}", "[", "]", ";", "&", "|", "<", ">",
    "\n", "$'", "$(", "$((", "((", "))", "${", "$[", "<<", "\\\n", "=", "=(", " ",
]  # fmt: skip


class BodyGenerator:
    """``BodyGenerator(seed).body()``: one random body (a template, not yet checked)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def pick(self, items: list[str]) -> str:
        return items[self.rng.randrange(len(items))]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def placeholder(self) -> str:
        return self.pick(["{{ x }}", "{{ x }}", "{{ x }}", "{{ xs }}", "{{ n }}"])

    # -- words ----------------------------------------------------------------------------

    def word(self, depth: int) -> str:
        parts = [self.part(depth) for _ in range(self.rng.choice((1, 1, 1, 2, 3)))]
        return "".join(parts)

    def part(self, depth: int) -> str:
        r = self.rng.randrange(22)
        if r < 6:
            return self.placeholder()
        if r < 9:
            return self.pick(["a", "b1", "-n", "--", "x=1", "1", "0", "*.md", "{a,b}", "~"])
        if depth > 2:
            return "w"
        nested = {
            9: lambda: "'" + self.pick(["lit", "", "a b", self.placeholder()]) + "'",
            10: lambda: '"' + self.dq(depth) + '"',
            11: lambda: "$'" + self.pick(["\\'", "a\\n", self.placeholder(), "\\x27"]) + "'",
            12: lambda: self.pick(["$x", "$$", "$1", "$@", "$?", "$#", "${x}", "$$'"]),
            13: lambda: "${x:-" + self.word(depth + 1) + "}",
            14: lambda: "$(" + self.statement(depth + 1) + ")",
            15: lambda: "`" + self.simple(depth + 1) + "`",
            16: lambda: "$((" + self.arith(depth + 1) + "))",
            17: lambda: "$[" + self.arith(depth + 1) + "]",
            18: lambda: "\\" + self.pick(["'", '"', "$", "#", " ", "\\", "a", "\n"]),
            19: lambda: self.pick(["#", "a#", "=", "!", "@", "%"]),
            20: lambda: '$"' + self.pick(["t", self.placeholder()]) + '"',
            21: lambda: "${!" + self.pick(["x", self.placeholder()]) + "}",
        }
        return nested[r]()

    def dq(self, depth: int) -> str:
        pieces = ["text", " ", "$x", '\\"', "\\$", "'", self.placeholder()]
        if depth < 2:
            pieces += ["$(" + self.simple(depth + 1) + ")", "`" + self.simple(depth + 1) + "`"]
        return "".join(self.pick(pieces) for _ in range(self.rng.randrange(1, 4)))

    def arith(self, depth: int) -> str:
        r = self.rng.randrange(7)
        if r == 0 or depth > 3:
            return self.pick(["1", "x", "i", self.placeholder()])
        if r == 1:
            return f"{self.arith(depth + 1)} + {self.arith(depth + 1)}"
        if r == 2:
            return f"( {self.arith(depth + 1)} )"
        if r == 3:
            return f"a[{self.arith(depth + 1)}]"
        if r == 4:
            return f"1) {self.placeholder()} "
        return self.placeholder()

    # -- statements -------------------------------------------------------------------------

    def simple(self, depth: int) -> str:
        words: list[str] = []
        if self.chance(0.2):
            words.append(self.pick(["X=", "Y=a", "a[1]=", "RANDOM=", "PATH=", "OPTIND="])
                         + self.word(depth))  # fmt: skip
        if self.chance(0.9) or not words:
            if self.chance(0.08):
                words.append(self.placeholder())  # the value as the command
            else:
                words.append(self.pick(_COMMANDS))
        words += [self.word(depth) for _ in range(self.rng.randrange(0, 4))]
        for _ in range(self.rng.choice((0, 0, 0, 1, 2))):
            # anywhere after the first word: bash reads the words after it as arguments
            words.insert(self.rng.randrange(1, len(words) + 1), self.redirect(depth))
        return " ".join(words)

    def redirect(self, depth: int) -> str:
        operator = self.pick([">", ">>", "<", "2>", "&>", ">&", "<&", "2>&", ">|", "<>", "<<<"])
        target = (
            self.word(depth) if operator not in ("2>&",) else self.pick(["1", self.word(depth)])
        )
        if operator in ("<", "<>"):
            target = self.pick(["/dev/null", target])
        return f"{operator}{self.pick(['', ' '])}{target}"

    def statement(self, depth: int) -> str:
        r = self.rng.randrange(20 if depth < 2 else 4)
        w = lambda: self.word(depth + 1)  # noqa: E731
        s = lambda: self.statement(depth + 1)  # noqa: E731
        forms = {
            0: lambda: self.simple(depth),
            1: lambda: self.simple(depth),
            2: lambda: f"{self.simple(depth)} | {self.simple(depth)}",
            3: lambda: f"{self.simple(depth)} {self.pick([';', '&&', '||', '&'])} {s()}",
            4: lambda: f"( {s()} )",
            5: lambda: f"{{ {s()}; }}",
            6: lambda: f"if {s()}; then {s()}; else {s()}; fi",
            7: lambda: f"for v in {w()} {w()}; do {s()}; done",
            8: lambda: f"for (( i={self.arith(depth)}; i<1; i++ )); do {s()}; done",
            9: lambda: f"case {w()} in {w()}|b) {s()};; *) ;; esac",
            10: lambda: f"f() {{ local l={w()}; {s()}; }}; f {w()}",
            11: lambda: f"(( {self.arith(depth)} ))",
            12: lambda: f"[[ {w()} {self.pick(['==', '!=', '=~', '-gt', '-eq', '<'])} {w()} ]]",
            13: lambda: f"[[ {self.pick(['-v', '-n', '-z', '-f', '-R'])} {w()} ]]",
            14: lambda: self.heredoc(depth),
            15: lambda: f"{self.simple(depth)} # {w()}",
            16: lambda: f"echo \\\n{self.pick(['#', ' #', 'a'])}{w()}",
            17: lambda: f"{self.pick(['x', 'X', 'arr'])}=( {w()} {w()} )",
            18: lambda: f"{self.pick(['x', 'X'])}=(( {w()} ))",
            19: lambda: f"[ {self.pick(['-v', '-n', '-z'])} {w()} ] && {s()}",
        }
        return forms[r]()

    def heredoc(self, depth: int) -> str:
        delimiter = self.pick(["EOF", "'EOF'", '"EOF"', "-EOF", "\\EOF"])
        end = delimiter.strip("'\"-\\")
        line = self.pick(["text", "$x", self.placeholder(), "$(" + self.simple(depth + 1) + ")"])
        after = self.pick(["", " | cat", "; echo " + self.placeholder()])
        return f"cat <<{delimiter}{after}\n{line}\n{end}"

    def commands(self) -> str:
        """One or two simple commands, no stray characters and no sections: most of these
        load, so the checks of a command's words (names, options, redirections) are tried
        on many more bodies than whole scripts would give."""
        if self.chance(0.15):  # a first word that may vanish, the value after it
            first = self.pick(["$v", "${v}", "$(true)", "`true`", '"$@"', "$v $w", '"$v"',
                               "$v a", "command $v", "$((0))", '"$*"', "$v$w", "x=$v"])  # fmt: skip
            return f"{first} {self.placeholder()} {MARKER}"
        return "; ".join(self.simple(1) for _ in range(self.rng.choice((1, 1, 2))))

    def declared(self) -> str:
        """A declaration of X, then a value (or a word holding one) written into X: assigned,
        looped over, read from a here-string, printed into it, as array elements."""
        value = self.placeholder() if self.chance(0.7) else self.word(1)
        assignment = self.pick([
            "X=", "X+=", "X[1]=", "local X=", "Y=1 X=", "for X in a ", "read X <<< ",
            "read -r a X <<< ", "mapfile -t X <<< ", "printf -v X %s ", "X=(1 ", "X+=(",
            "while read X; do :; done <<< ", "g() { read -r X; }; g <<< ",
        ]) + value  # fmt: skip
        if assignment.startswith("for"):
            assignment += "; do :; done"
        elif assignment.startswith("X") and "(" in assignment:
            assignment += ")"
        if assignment.startswith("local"):
            return f"f() {{ {self.pick(_DECLARATIONS)}; {assignment}; }}; f"
        return f"{self.pick(_DECLARATIONS)}{self.pick(['; ', chr(10)])}{assignment}"

    def body(self) -> str:
        lines = [self.statement(0) for _ in range(self.rng.randrange(1, 4))]
        text = self.pick(["\n", "; ", "\n"]).join(lines)
        for _ in range(self.rng.choice((0, 0, 0, 1, 2))):  # stray characters anywhere
            at = self.rng.randrange(len(text) + 1)
            text = text[:at] + self.pick(_NOISE) + text[at:]
        if self.chance(0.25):  # a section around some of it
            a = self.rng.randrange(len(text) + 1)
            b = self.rng.randrange(a, len(text) + 1)
            sigil = self.pick(["#", "^"])
            text = f"{text[:a]}{{{{{sigil} b }}}}{text[a:b]}{{{{/ b }}}}{text[b:]}"
        return text
