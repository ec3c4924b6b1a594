"""A seccomp filter for tools without the network: no UNIX sockets, no io_uring.

``--unshare-net`` cuts every IP route and the abstract UNIX socket namespace, but a socket
*file* is reached through the filesystem, and connecting to one needs no write access to the
mount: a read-only bind of ``/`` still leads to ``/var/run/docker.sock`` (root on the host), an
ssh-agent, the session D-Bus. So for a tool without ``network: true`` the sandbox refuses
``socket(AF_UNIX, …)`` with ``EAFNOSUPPORT`` (as a kernel without UNIX sockets would), and
``io_uring_setup`` with ``ENOSYS`` (io_uring can open sockets without the ``socket`` system
call). ``socketpair`` stays allowed: it connects nothing outside.

The program is classic BPF, written out by hand (eleven instructions; no libseccomp), for
x86-64 and AArch64. System calls of another architecture (32-bit binaries on x86-64, the
x32 ABI) fail with ``ENOSYS``: the filter could not tell a ``socket`` call among them.
"""

from __future__ import annotations

import functools
import platform
import struct

__all__ = ["unix_socket_filter"]

_LD_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_RET = 0x06  # BPF_RET | BPF_K
_ALLOW = 0x7FFF0000  # SECCOMP_RET_ALLOW
_ERRNO = 0x00050000  # SECCOMP_RET_ERRNO | errno
_EAFNOSUPPORT, _ENOSYS = 97, 38
_AF_UNIX = 1
_X32_BIT = 0x40000000
_IO_URING_SETUP = 425  # the same on every architecture (added after the tables were unified)
# offsetof(struct seccomp_data, ...): nr, arch, args[0] (its low 32 bits, little-endian)
_NR, _ARCH, _ARG0 = 0, 4, 16

#: machine → (AUDIT_ARCH_*, __NR_socket)
_ARCHES = {
    "x86_64": (0xC000003E, 41),
    "amd64": (0xC000003E, 41),
    "aarch64": (0xC00000B7, 198),
    "arm64": (0xC00000B7, 198),
}


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


@functools.cache
def unix_socket_filter(machine: str | None = None) -> bytes | None:
    """The compiled filter for this machine, or ``None`` where it has not been written."""
    known = _ARCHES.get((machine or platform.machine()).lower())
    if known is None:
        return None
    arch, socket_nr = known
    # A jump of k from instruction i lands on i + 1 + k: ALLOW is 8, EAFNOSUPPORT 9, ENOSYS 10.
    program = [
        _insn(_LD_ABS, _ARCH),  # 0
        _insn(_JEQ, arch, 0, 8),  # 1: another architecture → ENOSYS
        _insn(_LD_ABS, _NR),  # 2
        _insn(_JGE, _X32_BIT, 6, 0),  # 3: the x32 ABI → ENOSYS
        _insn(_JEQ, _IO_URING_SETUP, 5, 0),  # 4: io_uring → ENOSYS
        _insn(_JEQ, socket_nr, 0, 2),  # 5: not socket() → ALLOW
        _insn(_LD_ABS, _ARG0),  # 6: the address family
        _insn(_JEQ, _AF_UNIX, 1, 0),  # 7: AF_UNIX → EAFNOSUPPORT, else ALLOW
        _insn(_RET, _ALLOW),  # 8
        _insn(_RET, _ERRNO | _EAFNOSUPPORT),  # 9
        _insn(_RET, _ERRNO | _ENOSYS),  # 10
    ]
    return b"".join(program)
