"""``sandboxUntrustedReadOnly``: an untrusted project's tool runs confined, unasked, only when
every condition holds; break any one and the model reads the untrusted-project denial.

A stand-in sandbox answers ``tooldrop_confinement`` as each case needs, so each condition of
``runs_confined_instead`` is flipped alone, in the core's own tests.
"""

from __future__ import annotations

import pytest

from tooldrop import Confinement, hookimpl

CONFINED = "not trusted, but read-only and confined by the sandbox (sandboxUntrustedReadOnly)"
UNTRUSTED = (
    'Tool call denied: "p" needs approval and there is no one to ask (mode: normal): '
    "this project's tools are not trusted yet, so each call asks first "
    "(run `tooldrop trust` once you have read them)"
)


class Sandbox:
    def __init__(self, answer: Confinement | None) -> None:
        self.answer = answer

    @hookimpl
    def tooldrop_confinement(self, spec, host):
        return self.answer


TIGHT = Confinement(by="test")
TOOL = {"approval": "never", "read_only": True}


def _host(make_host, tool_writer, project, tool, confinement, opted_in=True):
    tool_writer(project / ".tooldrop" / "tools", "p.json", name="p", **tool)
    return make_host(Sandbox(confinement), sandbox_untrusted_read_only=opted_in)


def test_every_condition_met_runs_confined_unasked(make_host, tool_writer, project, echo):
    host = _host(make_host, tool_writer, project, TOOL, TIGHT)
    pending = host.prepare("p", {})
    assert (pending.needs_approval, pending.reason) == (False, CONFINED)
    assert host.call("p", {}).text == "p: {}"
    assert [c.name for c in echo.calls] == ["p"]
    assert [s.name for s in host.tools()] == ["p"]


@pytest.mark.parametrize(
    ("tool", "confinement", "opted_in"),
    [
        (TOOL, TIGHT, False),  # the person did not opt in
        ({**TOOL, "read_only": False}, TIGHT, True),
        ({**TOOL, "approval": "destructive"}, TIGHT, True),
        ({**TOOL, "network": True}, TIGHT, True),
        ({**TOOL, "writable": ["."]}, TIGHT, True),
        ({**TOOL, "requires_approval": True}, TIGHT, True),
        (TOOL, None, True),  # no sandbox would confine it
        (TOOL, Confinement(by="test", writable=["/tmp/x"]), True),
        (TOOL, Confinement(by="test", network=True), True),
    ],
)
def test_any_condition_broken_asks_and_says_so(
    make_host, tool_writer, project, echo, tool, confinement, opted_in
):
    host = _host(make_host, tool_writer, project, tool, confinement, opted_in)
    result = host.call("p", {})
    if tool.get("requires_approval"):
        assert result.text.endswith("this tool asks for approval on every call, in every mode")
    else:
        assert result.text == UNTRUSTED
    assert echo.calls == []
