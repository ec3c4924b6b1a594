"""Every file tooldrop reads is a regular file, read with a size bound and never waited on."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tooldrop._files import FileRefused, read_regular_file, read_regular_text
from tooldrop.policy._grants import read_json

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")


def test_a_regular_file_is_read_whole(tmp_path: Path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_regular_file(path, 100) == b"x" * 100
    assert read_regular_text(path, 100) == "x" * 100


def test_a_file_over_the_limit_is_refused_unread(tmp_path: Path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 101)
    with pytest.raises(FileRefused, match="larger than 100 bytes"):
        read_regular_file(path, 100)


def test_a_fifo_is_refused_at_once_with_no_writer(tmp_path: Path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    with pytest.raises(FileRefused, match="not a regular file") as info:
        read_regular_file(path, 100)
    assert info.value.filename == str(path)
    assert (info.value.errno, info.value.strerror) == (errno.EINVAL, "not a regular file")


def test_a_fifo_with_a_writer_that_never_ends_is_refused(tmp_path: Path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    # A writer holding the FIFO open: a plain read would wait for it to close, forever.
    writer = threading.Thread(target=lambda: os.close(os.open(path, os.O_WRONLY)), daemon=True)
    writer.start()
    with pytest.raises(FileRefused):
        read_regular_file(path, 100)
    writer.join(5)  # the open above let the writer's open return


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_a_symlink_to_a_device_is_refused(tmp_path: Path, device: str):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    path = tmp_path / "config.yaml"
    path.symlink_to(device)
    with pytest.raises(FileRefused, match="not a regular file"):
        read_regular_file(path, 1000)


def test_a_directory_is_refused(tmp_path: Path):
    with pytest.raises(OSError):  # noqa: PT011 - IsADirectoryError on some systems, ours on others
        read_regular_file(tmp_path, 1000)


def test_missing_is_file_not_found(tmp_path: Path):
    with pytest.raises(FileNotFoundError):
        read_regular_file(tmp_path / "nope", 1000)


def test_state_files_that_are_fifos_read_as_absent(tmp_path: Path):
    path = tmp_path / "grants.json"
    os.mkfifo(path)
    assert read_json(path) is None


def test_looking_at_a_terminal_never_makes_it_our_controlling_terminal(tmp_path: Path):
    """A config.yaml that links to a terminal is refused; opening it to look (O_NOCTTY) does
    not make it the controlling terminal of a session that has none, so the terminal's ^C
    and hang-up never reach tooldrop."""
    master, slave = os.openpty()
    try:
        link = tmp_path / "config.yaml"
        link.symlink_to(os.ttyname(slave))
        script = (
            "import os\n"
            "os.setsid()\n"
            "from tooldrop._files import FileRefused, read_regular_file\n"
            "try:\n"
            f"    read_regular_file({str(link)!r}, 100)\n"
            "except FileRefused as exc:\n"
            "    print(exc.strerror)\n"
            "try:\n"
            "    os.close(os.open('/dev/tty', os.O_RDWR))\n"
            "    print('a controlling terminal')\n"
            "except OSError:\n"
            "    print('no controlling terminal')\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
        )
    finally:
        os.close(master)
        os.close(slave)
    assert done.stdout.splitlines() == ["not a regular file", "no controlling terminal"]


def test_a_file_that_says_it_is_empty_but_holds_more_is_refused():
    # /proc files report a size of 0 and then hold more: only counting what is read sees it.
    status = Path("/proc/self/status")
    assert status.stat().st_size == 0
    with pytest.raises(FileRefused) as refused:
        read_regular_file(status, 10)
    assert refused.value.strerror == "larger than 10 bytes"
    assert read_regular_file(status, 1 << 20).startswith(b"Name:")


def test_reading_leaves_no_descriptor_open(tmp_path: Path):
    small, large = tmp_path / "small", tmp_path / "large"
    small.write_bytes(b"x")
    large.write_bytes(b"x" * 100)
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(50):
        read_regular_file(small, 10)
        for path in (large, tmp_path):  # refused for its size, and for its kind
            with pytest.raises(FileRefused):
                read_regular_file(path, 10)
    assert len(os.listdir("/proc/self/fd")) == before


@pytest.mark.parametrize(
    ("limit", "said"),
    [
        (1000, "1000 bytes"),
        (1024, "1 KiB"),
        (1536, "1536 bytes"),
        (2048, "2 KiB"),
        (1024 * 1024, "1 MiB"),
        (1024 * 1024 + 1024, "1025 KiB"),
        (3 * 1024 * 1024, "3 MiB"),
    ],
)
def test_the_limit_is_said_in_the_largest_unit_it_is_a_whole_number_of(
    tmp_path: Path, limit: int, said: str
):
    path = tmp_path / "big"
    path.write_bytes(b"x" * (limit + 1))
    with pytest.raises(FileRefused) as refused:
        read_regular_file(path, limit)
    assert refused.value.strerror == f"larger than {said}"
    assert refused.value.errno == errno.EFBIG
