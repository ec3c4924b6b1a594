"""Approval for Python tools: ``always`` by default, grants bound to the file's bytes."""

from __future__ import annotations

import json

from tooldrop import Decision

TOOL = """
from pathlib import Path

def execute(args):
    counter = Path({counter!r})
    counter.write_text(str(int(counter.read_text() or 0) + 1) if counter.exists() else "1")
    return "ran {version}"

default = {{"name": "touch", "description": "Count calls", "execute": execute{extra}}}
"""


class Asker:
    """An ``ask`` callback that records each prompt and answers with ``answer``."""

    def __init__(self, answer):
        self.answer = answer
        self.asked = []

    def __call__(self, call):
        self.asked.append(call.name)
        return self.answer


def write_tool(dirs, version="v1", extra=""):
    counter = dirs.root / "count"
    path = dirs.personal(
        "touch.py", TOOL.format(counter=str(counter), version=version, extra=extra)
    )
    return path, counter


def test_every_call_asks_by_default_and_a_no_runs_nothing(dirs, host):
    _, counter = write_tool(dirs)
    spec = host.get("custom__touch")
    assert (spec.approval, spec.read_only, spec.requires_approval) == ("always", False, False)
    no = Asker(False)
    result = host.call("custom__touch", {}, ask=no)
    assert result.denied and result.is_error
    assert not counter.exists()
    yes = Asker(True)
    assert host.call("custom__touch", {}, ask=yes).text == "ran v1"
    assert host.call("custom__touch", {}, ask=yes).text == "ran v1"
    assert yes.asked == ["custom__touch", "custom__touch"]  # a plain yes is not remembered


def test_with_no_one_to_ask_the_call_is_denied(dirs, host):
    _, counter = write_tool(dirs)
    result = host.call("custom__touch", {})
    assert result.denied
    assert "needs approval and there is no one to ask" in result.text
    assert not counter.exists()


def test_always_allow_is_remembered_for_this_version_of_the_file(dirs, make_host):
    path, counter = write_tool(dirs)
    host = make_host()
    always = Asker(Decision.allow(remember=True))
    assert host.call("custom__touch", {}, ask=always).text == "ran v1"
    grants = json.loads((dirs.user / "grants.json").read_text())
    [grant] = grants["grants"]
    assert (grant["name"], grant["scope"], grant["place"]) == (
        "custom__touch",
        "personal",
        str(dirs.user.resolve()),
    )
    assert grant["hash"] == host.get("custom__touch").origin.content_hash

    never_asked = Asker(False)
    assert host.call("custom__touch", {}, ask=never_asked).text == "ran v1"
    assert make_host().call("custom__touch", {}, ask=never_asked).text == "ran v1"  # persisted
    assert never_asked.asked == []

    # Editing the file voids the grant: the next call asks again.
    write_tool(dirs, version="v2")
    host.reload()
    asked = Asker(True)
    assert host.call("custom__touch", {}, ask=asked).text == "ran v2"
    assert asked.asked == ["custom__touch"]
    assert counter.read_text() == "4"
    assert path.exists()


def test_requires_approval_always_asks_and_is_never_remembered(dirs, host):
    write_tool(dirs, extra=', "requiresApproval": True')
    always = Asker(Decision.allow(remember=True))
    for _ in range(3):
        assert host.call("custom__touch", {}, ask=always).text == "ran v1"
    assert always.asked == ["custom__touch"] * 3
    assert not (dirs.user / "grants.json").exists()


def test_requires_approval_asks_even_in_yolo_mode_and_when_always_allowed(dirs, make_host):
    write_tool(dirs, extra=', "requires_approval": True, "approval": "never"')
    for host in (make_host(mode="yolo"), make_host(always_allow=["custom__touch"])):
        asker = Asker(True)
        assert host.call("custom__touch", {}, ask=asker).text == "ran v1"
        assert asker.asked == ["custom__touch"]


def test_approval_never_runs_without_asking_and_headless_hides_always(dirs, make_host):
    dirs.personal(
        "pair.py",
        """
        default = [
            {"name": "quiet", "description": "d", "execute": lambda a: "q", "approval": "never"},
            {"name": "loud", "description": "d", "execute": lambda a: "l"},
        ]
        """,
    )
    host = make_host()
    asker = Asker(False)
    assert host.call("custom__quiet", {}, ask=asker).text == "q"
    assert asker.asked == []
    headless = make_host(mode="headless")
    assert [t.name for t in headless.tools()] == ["custom__quiet"]
    assert headless.call("custom__loud", {}).is_error


def test_always_allow_by_exposed_name(dirs, make_host):
    write_tool(dirs)
    asker = Asker(False)
    host = make_host(always_allow=["custom__touch"])
    assert host.call("custom__touch", {}, ask=asker).text == "ran v1"
    assert asker.asked == []
