"""The run-again warnings find the command past what does not change it: reserved words,
assignments, and wrappers that run their arguments as a command (``sudo -u me``, ``env``,
``timeout 5``, ``xargs``, ``find … -exec``).

Each wrapper option that takes a value is shown twice: ``sudo -u me sh -c {{ x }}`` warns
about sh (``me`` is the option's value, not the command), and ``sudo -u {{ x }}`` is quiet
(the value is the user, not a program). The tables are written out by hand.
"""

from __future__ import annotations

import pytest

from .conftest import SHELL_CODE, WRAPPER, frontmatter

PARAMS = "  x:\n    type: string\n"


def run_again(load, body: str) -> list[str]:
    """The run-again warnings of ``body`` (other problems left out)."""
    result = load(frontmatter(body, PARAMS))
    return [p.message for p in result.problems if p.severity == "warning"]


# (wrapper, an option with its value): the option's value is skipped
OPTIONS = [
    ("exec", "-a name"),
    ("doas", "-u me"), ("doas", "-C doas.conf"),
    ("sudo", "-u me"), ("sudo", "-g wheel"), ("sudo", "-h host"), ("sudo", "-p prompt"),
    ("sudo", "-C 3"), ("sudo", "-D /tmp"), ("sudo", "-r role"), ("sudo", "-t type"),
    ("sudo", "-U me"), ("sudo", "-T 60"), ("sudo", "--user me"), ("sudo", "--group wheel"),
    ("sudo", "--host host"), ("sudo", "--prompt prompt"), ("sudo", "--chdir /tmp"),
    ("env", "-u A"), ("env", "-C /tmp"), ("env", "--unset A"), ("env", "--chdir /tmp"),
    ("nice", "-n 5"), ("nice", "--adjustment 5"),
    ("timeout", "-s KILL"), ("timeout", "-k 1"), ("timeout", "--signal KILL"),
    ("timeout", "--kill-after 1"),
    ("xargs", "-I {}"), ("xargs", "-n 1"), ("xargs", "-P 2"), ("xargs", "-L 1"),
    ("xargs", "-s 100"), ("xargs", "-d ,"), ("xargs", "-E end"), ("xargs", "-a list"),
    ("xargs", "--max-args 1"), ("xargs", "--max-procs 2"), ("xargs", "--delimiter ,"),
    ("xargs", "--arg-file list"),
    ("stdbuf", "-i 0"), ("stdbuf", "-o L"), ("stdbuf", "-e 0"),
    ("ionice", "-c 3"), ("ionice", "-n 7"), ("ionice", "-p 1"),
    ("flock", "-w 5"), ("flock", "-E 3"), ("flock", "--timeout 5"), ("flock", "--wait 5"),
    ("flock", "--conflict-exit-code 3"),
    ("chroot", "--userspec me:me"), ("chroot", "--groups wheel"),
    ("runuser", "-u me"), ("runuser", "--user me"), ("runuser", "-g wheel"),
    ("runuser", "--group wheel"), ("runuser", "-G wheel"), ("runuser", "--supp-group wheel"),
    ("runuser", "-s /bin/bash"), ("runuser", "--shell /bin/bash"),  # not sh: told apart
    ("runuser", "-w PATH"),
    ("runuser", "--whitelist-environment PATH"),
    ("docker exec", "-e A=1"), ("docker exec", "--env A=1"), ("docker exec", "--env-file f"),
    ("docker exec", "-u me"), ("docker exec", "--user me"), ("docker exec", "-w /tmp"),
    ("docker exec", "--workdir /tmp"), ("docker exec", "--detach-keys ctrl-x"),
    ("podman exec", "-e A=1"), ("podman exec", "--user me"),
    ("strace", "-o trace.log"), ("strace", "-e trace=execve"),
]  # fmt: skip
# Wrappers that take operands before the command
# (and runuser's -u, without which it is su, not a wrapper)
OPERANDS = {
    "timeout": "5", "chrt": "5", "taskset": "0x1", "flock": "/tmp/lock", "chroot": "/srv",
    "docker exec": "c", "podman exec": "c", "runuser": "-u me",
}  # fmt: skip


def _ids(rows: list[tuple[str, str]]) -> list[str]:
    return [f"{wrapper} {option}" for wrapper, option in rows]


@pytest.mark.parametrize(("wrapper", "option"), OPTIONS, ids=_ids(OPTIONS))
def test_a_wrapper_option_value_is_skipped_to_find_the_command(
    load, wrapper: str, option: str
) -> None:
    operand = OPERANDS.get(wrapper, "")
    body = f"{wrapper} {option} {operand} sh -c {{{{ x }}}}".replace("  ", " ")
    (message,) = run_again(load, body)
    assert message.startswith(f"{{{{ x }}}} is given to sh, {SHELL_CODE}")


@pytest.mark.parametrize(("wrapper", "option"), OPTIONS, ids=_ids(OPTIONS))
def test_the_value_of_a_wrapper_option_is_not_the_command(load, wrapper, option) -> None:
    name = option.split()[0]
    assert run_again(load, f"{wrapper} {name} {{{{ x }}}}") == []


WRAPPERS = [
    "command", "builtin", "exec", "nohup", "setsid", "doas", "sudo", "env", "nice", "xargs",
    "stdbuf", "ionice", "unbuffer", "caffeinate", "strace", "ltrace", "nsenter", "unshare",
    "timeout 5", "chrt 5", "taskset 0x1", "flock /tmp/lock", "sudo -E", "env -i A=1 B=2",
    "nice -5", "xargs --replace=R", "time command", "A=1 sudo", "sudo A=1", "time",
    "time -p", "! time", "A=1 time", "chroot /srv", "chroot --skip-chdir /srv",
    "chroot --userspec=me:me /srv", "runuser -u me", "runuser -u me --", "runuser --user me",
    "runuser --user=me", "runuser -ume", "runuser -m -u me", "docker exec c",
    "docker exec -it c", "podman exec c", "sudo docker exec c", "kubectl exec p --",
    "kubectl exec -it p -c box --", "kubectl -n ns exec p --",
]  # fmt: skip


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_the_command_after_a_wrapper_is_found(load, wrapper: str) -> None:
    (message,) = run_again(load, f"{wrapper} sh -c {{{{ x }}}}")
    assert message.startswith(f"{{{{ x }}}} is given to sh, {SHELL_CODE}")


@pytest.mark.parametrize("wrapper", [*WRAPPERS, "xargs --replace", "env -S", "sudo -u me"])
def test_the_value_as_the_command_of_a_wrapper_warns(load, wrapper: str) -> None:
    # xargs's --replace takes its value only glued (--replace=R): the word after it is the
    # command; env -S splits the value into a command line
    assert run_again(load, f"{wrapper} {{{{ x }}}}") == [WRAPPER]


@pytest.mark.parametrize(
    "body",
    ["timeout {{ x }}", "chrt {{ x }}", "taskset {{ x }}", "flock {{ x }}", "flock -w 5 {{ x }}"],
)
def test_the_value_as_the_operand_of_a_wrapper_is_data(load, body: str) -> None:
    # a duration, a priority, a CPU mask, a lock file: the wrapper runs no program named by it
    assert run_again(load, body) == []


@pytest.mark.parametrize(
    "body",
    [
        "find . -exec sh -c {{ x }} \\;",
        "find . -execdir sh -c {{ x }} \\;",
        "find . -ok sh -c {{ x }} \\;",
        "find . -okdir sh -c {{ x }} \\;",
        "find . -name '*.sh' -exec sudo sh -c {{ x }} \\;",
        "A=1 sh -c {{ x }}",
        "a[1]=2 sh -c {{ x }}",
        "A+=1 B=2 sh -c {{ x }}",
    ],
)
def test_find_exec_and_assignments_lead_to_the_command(load, body: str) -> None:
    (message,) = run_again(load, body)
    assert message.startswith(f"{{{{ x }}}} is given to sh, {SHELL_CODE}")


def test_env_reads_no_option_after_an_assignment(load) -> None:
    # GNU env stops at the first NAME=VALUE: `env A=1 -i true` runs a program named -i
    assert run_again(load, "env A=1 -i sh -c {{ x }}") == []


@pytest.mark.parametrize(
    "body",
    ["find . -name {{ x }}", "find . -exec grep -e {{ x }} {} \\;", "find . -exec {{ x }} \\;"],
)
def test_find_without_a_program_that_runs_code_is_quiet(load, body: str) -> None:
    assert not any("sh, which" in m for m in run_again(load, body))


# ---------------------------------------------------------------- reserved words
@pytest.mark.parametrize(
    "body",
    [
        "if sh -c {{ x }}; then :; fi",
        "if true; then sh -c {{ x }}; fi",
        "if true; then :; else sh -c {{ x }}; fi",
        "if false; then :; elif sh -c {{ x }}; then :; fi",
        "for i in 1; do sh -c {{ x }}; done",
        "while sh -c {{ x }}; do :; done",
        "until sh -c {{ x }}; do :; done",
        "! sh -c {{ x }}",
        "{ sh -c {{ x }}; }",
        "time sh -c {{ x }}",
        "! time sh -c {{ x }}",
    ],
)
def test_the_command_after_a_reserved_word_is_found(load, body: str) -> None:
    (message,) = run_again(load, body)
    assert message.startswith(f"{{{{ x }}}} is given to sh, {SHELL_CODE}")


@pytest.mark.parametrize(
    "body",
    [
        "if {{ x }}; then :; fi",
        "if true; then {{ x }}; fi",
        "if true; then :; else {{ x }}; fi",
        "if false; then :; elif {{ x }}; then :; fi",
        "for i in 1; do {{ x }}; done",
        "while {{ x }}; do :; done",
        "until {{ x }}; do :; done",
        "! {{ x }}",
        "{ {{ x }}; }",
    ],
)
def test_the_value_as_the_command_after_a_reserved_word_is_refused_not_warned(
    load, body: str
) -> None:
    # a reserved word is not a wrapper: the value as the command name is a load error
    result = load(frontmatter(body, PARAMS))
    assert not result.tools
    assert "stands where the command name goes" in result.problems[0].message
    assert run_again(load, body) == []


@pytest.mark.parametrize("word", ["if", "then", "else", "elif", "do", "while", "until", "!", "{"])
def test_after_an_assignment_a_reserved_word_is_a_plain_command_name(load, word: str) -> None:
    # bash: `A=1 if true` says "if: command not found"; the value is that program's argument
    assert run_again(load, f"A=1 {word} {{{{ x }}}}") == []
    assert run_again(load, f"A=1 {word} sh -c {{{{ x }}}}") == []  # runs {word}, not sh


def test_after_an_assignment_time_is_the_time_program_which_runs_the_value(load) -> None:
    # bash: `A=1 time echo hi` runs /usr/bin/time, which runs echo: the value picks the program
    assert run_again(load, "A=1 time {{ x }}") == [WRAPPER]
    (message,) = run_again(load, "A=1 time sh -c {{ x }}")
    assert message.startswith(f"{{{{ x }}}} is given to sh, {SHELL_CODE}")
