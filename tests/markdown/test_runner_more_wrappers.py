"""The run-again warnings for util-linux's script, flock and runuser, shadow's sg, chroot and
the container wrappers (``docker exec``, ``podman exec``, ``kubectl exec … --``).

``script -c``, ``flock FILE -c``, ``runuser me -c`` and ``sg GROUP`` run the value with the
shell: each claim is shown with the real program where it is installed (the value
``touch …/PWNED`` makes the file). ``runuser -u me``, ``chroot DIR`` and the container wrappers
run a command: the value chooses the program. The value where those programs read a file, a
user, a group, a new root or a container is data, and stays quiet.
"""

from __future__ import annotations

import grp
import os
import shutil
from pathlib import Path

import pytest

from .conftest import SHELL_CODE, TELL, WRAPPER, bash_runs, warnings

PARAMS = "  x:\n    type: string\n"


def run_again(load, body: str) -> list[str]:
    """The warnings of ``body``, which must load."""
    return warnings(load, body, PARAMS)


def shell_code(program: str) -> str:
    return f"{{{{ x }}}} is given to {program}, {SHELL_CODE}. {TELL}"


SHELL_CODE_ROWS = [
    ("script -c {{ x }}", "script"),
    ("script --command {{ x }}", "script"),
    ("script -qc {{ x }} /dev/null", "script"),  # -q takes no value: -c is in the bundle
    ("script -qefc {{ x }} /dev/null", "script"),
    ("script -ac {{ x }} /dev/null", "script"),
    ("script -c{{ x }} /dev/null", "script"),
    ("script -q --command={{ x }} /dev/null", "script"),
    ("script out.log -c {{ x }}", "script"),  # getopt reads options after the file too
    ("script -c $unset {{ x }} /dev/null", "script"),  # $unset may vanish
    ("flock lk -c {{ x }}", "flock"),
    ("flock lk --command {{ x }}", "flock"),
    ("flock -w 5 lk -c {{ x }}", "flock"),
    ("flock -n -E 3 lk -c {{ x }}", "flock"),
    ("flock lk -c $unset {{ x }}", "flock"),
    ("runuser root -c {{ x }}", "runuser"),  # without -u, runuser is su
    ("runuser - root -c {{ x }}", "runuser"),
    ("runuser -l root -c {{ x }}", "runuser"),
    ("runuser -s /bin/sh root -c {{ x }}", "runuser"),
    ("runuser root --command {{ x }}", "runuser"),
    ("sg GROUP {{ x }}", "sg"),  # sg runs its command with /bin/sh -c
    ("sg GROUP -c {{ x }}", "sg"),
    ("sg - GROUP {{ x }}", "sg"),
    ("sg - GROUP -c {{ x }}", "sg"),
    ("sg GROUP $(true) {{ x }}", "sg"),  # $(true) vanishes: the value is the command
]


@pytest.mark.parametrize(("body", "program"), SHELL_CODE_ROWS)
def test_the_value_run_with_the_shell_warns(load, body: str, program: str) -> None:
    assert run_again(load, body) == [shell_code(program)]


def test_sg_with_a_group_that_may_vanish_warns(load) -> None:
    # sg $g {{ x }}: when $g gives a word (it mostly does), that word is the group and the
    # value the command
    assert run_again(load, "sg $g {{ x }}") == [shell_code("sg")]


def _group() -> str:
    return grp.getgrgid(os.getgid()).gr_name


def _real(body: str) -> str:
    """``body`` with this machine's group for GROUP and user for root (runuser needs root)."""
    return body.replace("GROUP", _group())


def _needs(program: str) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed here: the claim is not shown with it")
    if program == "runuser" and os.geteuid() != 0:
        pytest.skip("runuser runs only as root: the claim is not shown with it")


@pytest.mark.parametrize(
    ("body", "program"),
    [row for row in SHELL_CODE_ROWS if "$unset" not in row[0] and "out.log" not in row[0]],
)
def test_the_real_program_runs_the_value_as_shell_code(tmp_path: Path, body, program) -> None:
    # the warning is warranted: the quoted value `touch …/PWNED` makes the file (an absolute
    # path, as runuser -l starts the shell in root's home)
    _needs(program)
    assert bash_runs(tmp_path, _real(body), f"touch {tmp_path}/PWNED")


@pytest.mark.parametrize(
    ("body", "program"),
    [
        ("script -c ls {{ x }}", "script"),  # the value is the typescript file
        ("script -c -q {{ x }}", "script"),  # getopt gives -c the value -q
        ("flock lk -c ls {{ x }}", "flock"),  # flock -c takes exactly one command word
        ("flock lk -c -n {{ x }}", "flock"),
        ("flock -c {{ x }}", "flock"),  # -c before the file is no option of flock
        ("flock {{ x }}", "flock"),  # the value is the lock file
        ("runuser root {{ x }}", "runuser"),  # the value is an argument of the shell: a file
        ("runuser -u root ls -c {{ x }}", "runuser"),  # ls is the program
        ("sg {{ x }}", "sg"),  # the value is the group
        ("sg - {{ x }}", "sg"),
        ("sg GROUP ls {{ x }}", "sg"),  # ls is the command; sg takes one command word
        ("sg GROUP -c ls {{ x }}", "sg"),
    ],
)
def test_the_value_as_data_of_those_programs_is_quiet_and_not_run(
    load, tmp_path: Path, body: str, program: str
) -> None:
    assert run_again(load, body) == []
    _needs(program)
    assert not bash_runs(tmp_path, _real(body), f"touch {tmp_path}/PWNED")


@pytest.mark.parametrize(
    "body",
    [
        "script {{ x }}",  # the typescript file
        "script -tc {{ x }}",  # -t takes "c" as its timing file: the value is the typescript
        "script -E {{ x }}",
        "runuser {{ x }}",  # the user
        "runuser -u {{ x }}",
        "runuser -u{{ x }}",
        "runuser --user={{ x }}",
        "chroot {{ x }}",  # the new root
        "chroot --userspec {{ x }}",
        "chroot --skip-chdir {{ x }}",
        "docker exec {{ x }}",  # the container
        "docker exec -it -u me {{ x }}",
        "podman exec {{ x }}",
        "docker exec c ls {{ x }}",
        "docker run c {{ x }}",  # docker run is not read: too many options take a value
        "docker {{ x }}",
        "kubectl exec p {{ x }}",  # no --: kubectl's command is not guessed
        "kubectl exec {{ x }}",
        "kubectl exec p -- ls {{ x }}",
        "kubectl get -- {{ x }}",
    ],
)
def test_the_value_where_those_programs_read_data_is_quiet(load, body: str) -> None:
    assert run_again(load, body) == []


@pytest.mark.parametrize(
    "body",
    [
        "flock lk {{ x }}",  # without -c, flock runs a command
        "flock -n lk {{ x }}",
        "runuser -u me {{ x }}",
        "runuser -u me -- {{ x }}",
        "chroot /srv {{ x }}",
        "chroot --userspec me:me --groups wheel --skip-chdir /srv {{ x }}",
        "docker exec c {{ x }}",
        "docker exec -it -e A=1 c {{ x }}",
        "podman exec -u me c {{ x }}",
        "kubectl exec p -- {{ x }}",
        "kubectl exec -it p -c box -- {{ x }}",
        "kubectl -n ns exec p -- {{ x }}",
    ],
)
def test_the_value_as_the_command_of_those_wrappers_warns(load, body: str) -> None:
    assert run_again(load, body) == [WRAPPER]


@pytest.mark.parametrize(
    "body",
    [
        "flock lk sh -c {{ x }}",
        "chroot /srv sh -c {{ x }}",
        "runuser -u me -- sh -c {{ x }}",
        "docker exec c sh -c {{ x }}",
        "podman exec -i c sh -c {{ x }}",
        "kubectl exec p -- sh -c {{ x }}",
        "kubectl exec p -- sudo sh -c {{ x }}",
    ],
)
def test_a_shell_run_by_those_wrappers_warns_about_the_shell(load, body: str) -> None:
    assert run_again(load, body) == [shell_code("sh")]


def test_flock_runs_the_value_with_sh_for_real(tmp_path: Path) -> None:
    # flock FILE CMD runs CMD as a program; flock FILE -c CMD runs it with sh -c
    _needs("flock")
    assert not bash_runs(tmp_path, "flock lk {{ x }}", f"touch {tmp_path}/PWNED")
    assert bash_runs(tmp_path, "flock lk -c {{ x }}", f"touch {tmp_path}/PWNED")
