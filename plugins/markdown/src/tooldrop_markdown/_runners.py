"""Warnings for values given to programs that run them as code.

``eval {{ x }}``, ``bash -c {{ x }}``, ``python -c {{ x }}``, ``ssh host {{ x }}``: the value
is one quoted word for *this* shell, and then read as code by the next program. That may be
the tool's purpose (a tool that runs a snippet), so it is a warning, not an error: the file
loads, ``tooldrop check`` shows it, and the tool should say so and keep ``approval: always``.

The command is found past what does not change it: reserved words (``if``, ``then``, ``!``,
``{``), a leading backslash or quotes (``\\eval``), prefix assignments, and wrappers that run
their arguments as a command (``sudo -u me``, ``env A=1``, ``timeout 5``, ``nice -n 5``,
``xargs``, ``exec``, ``command``, ``find … -exec``, ``flock FILE``, ``chroot DIR``,
``runuser -u me``, ``docker exec c``, ``podman exec c``, ``kubectl exec p --``).
"""

from __future__ import annotations

import re

from ._cmdline import command_words
from ._shapes import section_spans, shapes
from ._shell import BodyProblem
from ._template import Token

__all__ = ["run_again", "scan_run_again"]

# (alias is not here: a value given to alias is refused at load, as a name it reads)
_EVAL = frozenset({"eval", "trap", "source", "."})
_DASH_C = frozenset({"-c", "--command"})  # the shell's script, in shells and script -c
# (runuser without -u is su: `runuser me -c cmd` runs cmd with the shell)
_SHELLS = frozenset({
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "su", "fish", "csh", "tcsh",
    "runuser",
})  # fmt: skip
# Programs that join their arguments into a command line for a shell.
_JOINERS = frozenset({"ssh", "watch", "parallel"})
# Interpreters, and the options whose next word is a program.
_CODE_OPTIONS: dict[str, frozenset[str]] = {
    "perl": frozenset({"-e", "-E"}),
    "ruby": frozenset({"-e"}),
    "node": frozenset({"-e", "-p", "--eval", "--print"}),
    "nodejs": frozenset({"-e", "-p", "--eval", "--print"}),
    "bun": frozenset({"-e", "--eval", "-p", "--print"}),
    "deno": frozenset({"eval"}),
    "php": frozenset({"-r"}),
    "lua": frozenset({"-e"}),
    "luajit": frozenset({"-e"}),
    "Rscript": frozenset({"-e"}),
    "R": frozenset({"-e"}),
    "osascript": frozenset({"-e"}),
    "git": frozenset({"-c"}),  # git -c alias.x='!cmd' runs a command
    "sed": frozenset({"-e", "--expression"}),  # GNU sed's e command runs one
    "awk": frozenset({"-e", "--source"}),  # gawk's (and busybox's) program text
    "gawk": frozenset({"-e", "--source"}),
}
_PYTHON = re.compile(r"(python|pypy)[0-9.]*")
# A code option at the end of a bundle of options that take no value: sh -ec, perl -lne,
# ruby -ne, python3 -Ic (not perl -pie, where -i takes "e" as its backup suffix).
_BUNDLES = {
    "shell": re.compile(r"[-+][A-Za-z]*c[A-Za-z]*"),
    "perl": re.compile(r"-[0-9acflnpstuwTUWX]*[eE]"),
    "ruby": re.compile(r"-[0-9acdlnpsvw]*e"),
    "python": re.compile(r"-[bBdEhiIOPqsSuvVx]*c"),
    "script": re.compile(r"-[aefq]*c"),  # script -qc: its options that take no value
}
# Programs whose first operand is a program unless -f names a file.
_SCRIPTED = frozenset({"awk", "gawk", "mawk", "nawk", "sed"})
# The options of docker exec and podman exec that take a value.
_CONTAINER = frozenset({"-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir",
                        "--detach-keys"})  # fmt: skip
# Words that run what follows them as a command, with the options that take a value.
_WRAPPERS: dict[str, frozenset[str]] = {
    "if": frozenset(), "then": frozenset(), "else": frozenset(), "elif": frozenset(),
    "do": frozenset(), "while": frozenset(), "until": frozenset(), "!": frozenset(),
    "{": frozenset(), "time": frozenset(), "command": frozenset(), "builtin": frozenset(),
    "exec": frozenset({"-a"}), "nohup": frozenset(), "setsid": frozenset(),
    "doas": frozenset({"-u", "-C"}),
    "sudo": frozenset({"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user",
                       "--group", "--host", "--prompt", "--chdir"}),
    "env": frozenset({"-u", "-C", "--unset", "--chdir"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "timeout": frozenset({"-s", "-k", "--signal", "--kill-after"}),
    "xargs": frozenset({"-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a", "--max-args",
                        "--max-procs", "--delimiter", "--arg-file"}),  # --replace=R: glued
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    "ionice": frozenset({"-c", "-n", "-p"}),
    "chrt": frozenset(), "taskset": frozenset(),
    "flock": frozenset({"-w", "-E", "--timeout", "--wait", "--conflict-exit-code"}),
    "unbuffer": frozenset(), "caffeinate": frozenset(), "strace": frozenset({"-o", "-e"}),
    "ltrace": frozenset(), "nsenter": frozenset(), "unshare": frozenset(),
    "chroot": frozenset({"--userspec", "--groups"}),
    "runuser": frozenset({"-u", "--user", "-g", "--group", "-G", "--supp-group", "-s",
                          "--shell", "-w", "--whitelist-environment"}),
    # inside a container; docker run is left out: too many of its options take a value to
    # find its command reliably
    "docker exec": _CONTAINER, "podman exec": _CONTAINER,
}  # fmt: skip
# (time is a wrapper here: `time {{ x }}` times the program the value names, and after an
# assignment, `A=1 time cmd`, it is the time program)
_RESERVED = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{"})
# Wrappers that take operands before the command (a duration, a priority, a lock file, the
# new root, the container). The value as an operand is data: it picks no program.
_OPERANDS = {
    "timeout": 1, "chrt": 1, "taskset": 1, "flock": 1, "chroot": 1, "docker exec": 1,
    "podman exec": 1,
}  # fmt: skip
# Wrappers that, given one of these options right after their operands, run the one word
# after it with the shell instead of a command: flock FILE -c CMD runs sh -c CMD.
_THEN_SHELL = {"flock": _DASH_C}
# runuser is a wrapper only with -u (runuser -u me cmd); without it, it is su (see _SHELLS).
_RUNUSER_WRAPS = re.compile(r"-u[^\0]*|--user(?:=[^\0]*)?")
_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")
# A word made only of expansions that may expand to nothing and vanish, so the word after
# it may take its place (``sh -c $unset {{ x }}`` gives the value to -c): unquoted, or
# ``"$@"`` and ``"${a[@]}"``, which vanish even quoted when they hold no element.
_MAY_VANISH = re.compile(
    r"(?:\$[\w@*!]+|\$\{[^}]*\}|\$\([^)]*\)+|`[^`]*`|\"\$@\"|\"\$\{[^}]*@[^}]*\}\")+"
)
# Programs read by a function of their own (script -c, sg GROUP). docker exec, podman exec and
# kubectl exec need no word here: exec, a wrapper, is one.
_OWN = frozenset({"script", "sg"})


# Any of those programs named as a whole word (after a / or a backslash too), or the dot
# command: a body whose text has none needs no closer look.
_RUNS_AGAIN = re.compile(
    r"(?<![\w.-])(?:"
    + "|".join(
        sorted(
            {*_EVAL, *_SHELLS, *_JOINERS, *_CODE_OPTIONS, *_SCRIPTED, *_OWN, *_WRAPPERS}
            - _RESERVED
            - {".", "git"}
        )
    )
    + r"|python[0-9.]*|pypy[0-9.]*)(?![\w-])|(?:^|[\s;&|(])\.\s"
    # git only with -c: most tools run git, few give it configuration
    + r"|(?<![\w.-])git(?=[^;&|\n]*\s-c(?:\s|$))"
)
PLACEHOLDER = "\0"


def _name(word: str) -> str:
    """A command word as the shell finds the program: quotes and backslashes removed, and
    the directory dropped."""
    return word.replace("\\", "").replace("'", "").replace('"', "").rsplit("/", 1)[-1]


def _unwrap(words: list[str]) -> tuple[str | None, list[str], bool]:
    """The command that ``words`` run, past reserved words, assignments and wrappers, its
    arguments, and whether a wrapper program runs it."""
    index = 0
    wrapped = False
    assigned = False  # after an assignment a reserved word is a plain command name
    while index < len(words):
        word = words[index]
        name = _name(word)
        # An assignment's value may be a value (X={{ n }} sh -c …): the name before = is not
        if _ASSIGNMENT.match(word):
            index += 1
            assigned = True
            continue
        if name == "kubectl":
            start = _kubectl_command(words[index + 1 :])
            if start is None:
                return None, [], wrapped  # no command is guessed
            index += 1 + start
            wrapped = True
            continue
        if name in ("docker", "podman") and _name(words[index + 1]) == "exec":
            name = f"{name} exec"
            index += 1
        options = _WRAPPERS.get(name)
        if (
            options is None
            or (assigned and name in _RESERVED)
            or (name == "runuser" and not any(map(_RUNUSER_WRAPS.fullmatch, words[index:])))
        ):
            return name, words[index + 1 :], wrapped
        wrapped = wrapped or name not in _RESERVED
        index += 1
        operands = _OPERANDS.get(name, 0)
        while index < len(words):
            word = words[index]
            if not operands and word in _THEN_SHELL.get(name, ()):
                return name, words[index:], wrapped
            if word.startswith("-") and len(word) > 1 and PLACEHOLDER not in word:
                index += 2 if word in options else 1
            elif operands:  # the value as an operand (timeout {{ x }}) is data
                operands -= 1
                index += 1
            else:
                break
    return None, [], wrapped


def _kubectl_command(arguments: list[str]) -> int | None:
    """Where the command of ``kubectl exec … -- cmd`` starts in ``arguments`` (past the
    ``--``), or None: without ``--`` the command is not guessed (kubectl's options may come
    anywhere, and which take a value depends on its version)."""
    names = [_name(word) for word in arguments]
    if "--" not in names or "exec" not in names[: names.index("--")]:
        return None
    return names.index("--") + 1


def _program_operand(
    arguments: list[str], flags: frozenset[str], bundle: re.Pattern[str] | None
) -> bool:
    """Whether the last argument (the placeholder's word) is the program that a code option
    (``-c``, ``-e``...) takes: the first word after that option that is not an option."""
    after = None
    for index, word in enumerate(arguments):
        if PLACEHOLDER in word and after is None and any(word.startswith(f) for f in flags):
            return True  # glued: -e{{ x }}
        if word in flags or (bundle is not None and bundle.fullmatch(word)):
            after = index
    if after is None:
        return False
    rest = [
        w
        for w in arguments[after + 1 :]
        if not (w.startswith("-") and PLACEHOLDER not in w) and not _MAY_VANISH.fullmatch(w)
    ]
    return bool(rest) and PLACEHOLDER in rest[0]


def _option_value(
    arguments: list[str], flags: frozenset[str], bundle: re.Pattern[str] | None
) -> bool:
    """Whether the last argument (the placeholder's word) is the value of an option in
    ``flags``, read as getopt reads it: glued (``-c{{ x }}``), or the very next word, even one
    that starts with a dash (``script -c -q {{ x }}`` gives -c the value -q), past words that
    may vanish."""
    words = [w for w in arguments if not _MAY_VANISH.fullmatch(w)]
    if any(words[-1].startswith(f) for f in flags):
        return True
    before = words[-2] if len(words) > 1 else ""
    return before in flags or (bundle is not None and bundle.fullmatch(before) is not None)


def _sg_command(arguments: list[str]) -> bool:
    """sg [-] GROUP [-c] COMMAND (shadow's sg runs COMMAND with /bin/sh -c, and reads no other
    option): whether the placeholder's word is COMMAND, with the words that may vanish there
    or gone."""
    for words in (arguments, [w for w in arguments if not _MAY_VANISH.fullmatch(w)]):
        rest = words[1:] if words[:1] == ["-"] else words
        rest = rest[1:]  # the group
        if rest[:1] == ["-c"]:
            rest = rest[1:]
        if len(rest) == 1:  # the placeholder's word is the last
            return True
    return False


def _first_operand(arguments: list[str]) -> bool:
    """awk and sed: whether the placeholder is the program (the first operand), no -f/-e."""
    index = 0
    while index < len(arguments):
        word = arguments[index]
        if PLACEHOLDER in word:
            return True
        if word in ("--file", "-e", "--expression") or word.startswith("-f"):
            return False
        if word in ("-v", "-F"):
            index += 2
            continue
        if not word.startswith("-"):
            return False
        index += 1
    return False


def _why(words: list[str]) -> str | None:
    """Which program runs the last word (the placeholder's) as code, in a sentence."""
    command, arguments, wrapped = _unwrap(words)
    if command is None:
        return None
    if PLACEHOLDER in command:
        if not wrapped:
            return None  # the value as the command name: a load error (see _positions)
        return "a wrapper that runs its arguments as a command: the value chooses the program"
    if command == "find":
        for index, word in enumerate(arguments):
            if word in _EXEC:
                return _why(arguments[index + 1 :])
        return None
    if command in _EVAL:
        return f"{command}, which runs it as shell code"
    # script -c CMD and flock FILE -c CMD run CMD with the shell; sg GROUP [-c] CMD too
    if command == "script":
        shell = _option_value(arguments, _DASH_C, _BUNDLES["script"])
        return f"{command}, which runs it as shell code" if shell else None
    if command in _THEN_SHELL:
        shell = _option_value(arguments, _THEN_SHELL[command], None)
        return f"{command}, which runs it as shell code" if shell else None
    if command == "sg":
        return f"{command}, which runs it as shell code" if _sg_command(arguments) else None
    if command in _SHELLS:
        if _program_operand(arguments, _DASH_C, _BUNDLES["shell"]):
            return f"{command}, which runs it as shell code"
        return None
    if command in _JOINERS:
        return (
            f"{command}, which joins its arguments into a command line for a shell: the "
            "value would run there as code. Pass it on stdin, or quote it for that shell too"
        )
    bundle = _BUNDLES.get(command)
    if _PYTHON.fullmatch(command):
        flags = frozenset({"-c"})
        bundle = _BUNDLES["python"]
    elif command in _CODE_OPTIONS:
        flags = _CODE_OPTIONS[command]
    else:
        flags = frozenset()
    if flags and _program_operand(arguments, flags, bundle):
        return f"{command}, which runs it as a program"
    if command in _SCRIPTED and _first_operand(arguments):
        return f"{command}, which runs it as a program (a {command} program can run commands)"
    return None


def run_again(tokens: list[Token], at_top: set[int]) -> list[BodyProblem]:
    """Warnings for the placeholders (at ``at_top``: standing in plain words) given to
    programs that run them as code."""
    # A command is made of the text between tags (section tags add nothing to it), so a
    # body whose text names none of those programs anywhere needs no closer look.
    if not at_top:
        return []
    text = "".join(t.value for t in tokens if t.kind == "text")
    if not _RUNS_AGAIN.search(text.replace("\\", "").replace("'", "").replace('"', "")):
        return []  # quotes and backslashes go, as in a command name: e"va"l is eval
    # Every shape the script can take: awk {{# b }}'{ print }'{{/ b }} {{ x }} gives awk
    # the value as its program when b is false. Each shape is a scan of the whole body, so
    # a body with very many sections is read with none left out, and told so.
    found: dict[int, BodyProblem] = {}
    sections = len(section_spans(tokens))
    unread = sections * len(tokens) > SHAPE_BUDGET
    for shape in [tokens] if unread else shapes(tokens):
        for problem in scan_run_again(shape, at_top):
            found.setdefault(problem[0], problem)
    if unread:
        first = min(at_top)
        found.setdefault(first, (first, _too_many(sections), "warning"))
    return sorted(found.values())


#: How many tokens the run-again check reads over all shapes (sections × tokens): a body of
#: 1,000 tokens may have 200 sections, far beyond any tool written by hand.
SHAPE_BUDGET = 200_000


def _too_many(sections: int) -> str:
    return (
        f"this body has {sections} sections, too many for the check of values given to "
        "programs that run them as code (eval, sh -c, awk…) to read it with each section "
        "left out; it read the body with every section in. Use fewer sections, or split "
        "the tool"
    )


def scan_run_again(tokens: list[Token], at_top: set[int]) -> list[BodyProblem]:
    found: list[BodyProblem] = []
    line = ""  # the current simple command, placeholders as NUL
    for token in tokens:
        if token.kind == "text":
            line += token.value
        elif token.kind == "var":
            if token.start in at_top:
                words = command_words(line + PLACEHOLDER)
                # (the value as a redirection's target is a file name: data)
                why = _why(words) if words and PLACEHOLDER in words[-1] else None
                if why is not None:
                    tag = f"{{{{ {token.value} }}}}"
                    if why.startswith(("ssh", "watch", "parallel")):
                        message = f"{tag} is given to {why}"
                    elif why.startswith("a wrapper"):
                        message = f"{tag} is given to {why}; name the program in the file"
                    else:
                        message = (
                            f"{tag} is given to {why}: the quotes around the value do not "
                            "protect it there. If the tool is meant to run code, say so in "
                            "its description and keep approval: always"
                        )
                    found.append((token.start, message, "warning"))
            line += PLACEHOLDER
    return found
