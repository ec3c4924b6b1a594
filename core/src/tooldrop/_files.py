"""Reading a file tooldrop depends on: a regular file, bounded in size, never blocking.

A cloned repository decides what its ``.tooldrop/config.yaml`` is. Were it a FIFO, a plain
``open()`` would wait forever for a writer and ``tooldrop list`` and ``serve`` would hang;
were it ``/dev/zero`` (through a symlink), a plain ``read()`` would never end. So every file
tooldrop reads (config, trust, grants, tool files) is opened with ``O_NONBLOCK`` (opening a
FIFO then returns at once, and the flag means nothing for a regular file), checked with
``fstat`` to be a regular file, and read up to a limit: the decision is made on the open
file, so a swap after a ``stat`` cannot slip a FIFO past it.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = [
    "MAX_CONFIG_BYTES",
    "MAX_STATE_BYTES",
    "NOT_REGULAR",
    "FileRefused",
    "read_regular_file",
    "read_regular_text",
]

#: Bytes a ``config.yaml`` may hold: it is two short lists.
MAX_CONFIG_BYTES = 1024 * 1024
#: Bytes ``trust.json`` or ``grants.json`` may hold (thousands of entries).
MAX_STATE_BYTES = 16 * 1024 * 1024
#: What a refused special file is called in messages.
NOT_REGULAR = "not a regular file"

_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)  # POSIX: opening a FIFO does not wait for a writer
    | getattr(os, "O_NOCTTY", 0)  # a terminal device never becomes our controlling one
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)  # Windows
)


class FileRefused(OSError):
    """The path exists but is not a regular file, or is larger than the limit.

    An :class:`OSError` (``strerror`` says why), so callers that report read errors report
    these the same way.
    """


def _read_up_to(fd: int, count: int) -> bytes:
    chunks: list[bytes] = []
    have = 0
    while have < count:
        chunk = os.read(fd, count - have)
        if not chunk:
            break
        chunks.append(chunk)
        have += len(chunk)
    return b"".join(chunks)


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path`` (symlinks followed), at most ``limit`` of them.

    :raises FileNotFoundError: (and other :class:`OSError`) as :func:`open` would.
    :raises FileRefused: ``path`` is a FIFO, a device, a socket or a directory, or holds more
        than ``limit`` bytes (also when it grew past it while being read).
    """
    fd = os.open(path, _FLAGS)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused(errno.EINVAL, NOT_REGULAR, os.fspath(path))
        if st.st_size > limit:
            raise FileRefused(errno.EFBIG, f"larger than {_size(limit)}", os.fspath(path))
        data = _read_up_to(fd, limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileRefused(errno.EFBIG, f"larger than {_size(limit)}", os.fspath(path))
    return data


def _size(limit: int) -> str:
    if limit >= 1024 * 1024 and limit % (1024 * 1024) == 0:
        return f"{limit // (1024 * 1024)} MiB"
    if limit >= 1024 and limit % 1024 == 0:
        return f"{limit // 1024} KiB"
    return f"{limit} bytes"


def read_regular_text(path: Path, limit: int) -> str:
    """:func:`read_regular_file`, decoded as UTF-8 (:class:`UnicodeDecodeError` when not)."""
    return read_regular_file(path, limit).decode("utf-8")
