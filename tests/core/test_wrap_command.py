"""The core's one sandbox rule (tooldrop.wrap_command): a call that must run confined and that
no plugin confined is refused with a message for the model, and the descriptors it would have
handed to its process are closed (issue 21's survivors)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tooldrop import Command, Confinement, SandboxError, ToolCall, hookimpl, wrap_command


def closed(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


@pytest.fixture
def passed() -> Iterator[int]:
    """A descriptor a command would hand to its process (the read end of a pipe)."""
    read, write = os.pipe()
    yield read
    os.close(write)
    if not closed(read):
        os.close(read)


def test_required_and_unconfined_is_refused_by_name_and_its_descriptors_closed(
    make_host, tool_pack, spec_factory, passed
):
    host = make_host(tool_pack(spec_factory("t")), sandbox="required")
    command = Command(argv=("true",), cwd="/", pass_fds=(passed,))
    with pytest.raises(SandboxError) as info:
        wrap_command(ToolCall(spec=host.get("t"), args={}), command, host)
    assert str(info.value) == (
        "⚒ Refused to run t: the sandbox is required (sandbox: required), but nothing "
        "could confine it (no sandbox plugin confined the command; install "
        "tooldrop-sandbox and bubblewrap). Nothing ran."
    )
    assert closed(passed)


def test_a_plugin_that_raises_has_the_descriptors_closed_too(
    make_host, tool_pack, spec_factory, passed
):
    class Broken:
        @hookimpl
        def tooldrop_wrap_command(self, command):
            raise SandboxError("⚒ the sandbox broke")

    host = make_host(tool_pack(spec_factory("t")), Broken())
    command = Command(argv=("true",), cwd="/", pass_fds=(passed,))
    with pytest.raises(SandboxError, match="the sandbox broke"):
        wrap_command(ToolCall(spec=host.get("t"), args={}), command, host)
    assert closed(passed)


def test_off_and_unconfined_runs_as_it_is(make_host, tool_pack, spec_factory, passed):
    host = make_host(tool_pack(spec_factory("t")), sandbox="off")
    command = Command(argv=("true",), cwd="/", pass_fds=(passed,))
    assert wrap_command(ToolCall(spec=host.get("t"), args={}), command, host) == command
    assert not closed(passed)


def test_an_untrusted_tool_let_through_to_run_confined_is_refused_if_nothing_confines_it(
    make_host, tool_writer, project
):
    """The sandbox said it would confine the tool (so it was let through unasked), then
    confined nothing: the core refuses, and says why."""

    class SaysButDoesNot:
        @hookimpl
        def tooldrop_confinement(self, spec, host):
            return Confinement(by="test")

    tool_writer(
        project / ".tooldrop" / "tools", "p.json", name="p", approval="never", read_only=True
    )
    host = make_host(SaysButDoesNot(), sandbox_untrusted_read_only=True)
    with pytest.raises(SandboxError) as info:
        wrap_command(ToolCall(spec=host.get("p"), args={}), Command(argv=("true",), cwd="/"), host)
    assert str(info.value).startswith(
        "⚒ Refused to run p: this project is not trusted and its read-only tools run only "
        "confined, but nothing could confine it"
    )
