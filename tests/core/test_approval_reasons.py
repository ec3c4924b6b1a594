"""Every reason the default policy gives, as the model and the person read it.

An *ask* with nobody to ask becomes the denial the model sees; an *allow* carries its reason
on the prepared call (what hooks and logs show). Each row is one rule of ``approval.py``.
"""

from __future__ import annotations

import pytest

from tooldrop.approval import effective_approval

ASKS = [
    # (spec overrides, host options, the reason the model reads)
    (
        {"requires_approval": True, "approval": "never"},
        {"mode": "yolo", "always_allow": ["t"]},
        "this tool asks for approval on every call, in every mode",
    ),
    (
        {"approval": "destructive", "read_only": False},
        {},
        "its approval is destructive: approve it at a prompt, run in auto-accept mode, "
        "or add it to alwaysAllow",
    ),
    (
        {"approval": "always"},
        {"mode": "auto-accept"},
        "its approval is always: approve it at a prompt, run in yolo mode, or add it to "
        "alwaysAllow",
    ),
]


@pytest.mark.parametrize(("overrides", "options", "reason"), ASKS)
def test_an_ask_with_nobody_to_ask_tells_the_model_why_and_what_to_do(
    make_host, tool_pack, spec_factory, echo, overrides, options, reason
):
    host = make_host(tool_pack(spec_factory("t", **overrides)), **options)
    result = host.call("t", {})
    mode = options.get("mode", "normal")
    assert result.denied is True
    assert result.text == (
        f'Tool call denied: "t" needs approval and there is no one to ask (mode: {mode}): {reason}'
    )
    assert echo.calls == []
    assert host.prepare("t", {}).reason == reason


ALLOWS = [
    ({"approval": "always"}, {"always_allow": ["t"]}, "in alwaysAllow"),
    ({"approval": "always"}, {"mode": "yolo"}, "yolo mode"),
    ({"approval": "never"}, {}, "approval: never"),
    (
        {"approval": "destructive"},
        {"mode": "auto-accept"},
        "approval: destructive, auto-accept mode",
    ),
    ({"approval": "destructive"}, {"mode": "architect"}, "approval: destructive, architect mode"),
]


@pytest.mark.parametrize(("overrides", "options", "reason"), ALLOWS)
def test_an_allow_says_which_rule_allowed_it(
    make_host, tool_pack, spec_factory, echo, overrides, options, reason
):
    host = make_host(tool_pack(spec_factory("t", **overrides)), **options)
    pending = host.prepare("t", {})
    assert (pending.needs_approval, pending.reason) == (False, reason)
    assert host.call("t", {}).text.startswith("t: ")
    assert len(echo.calls) == 1


def test_a_remembered_grant_is_the_reason_it_runs_unasked(make_host, tool_pack, spec_factory):
    from tooldrop import Decision

    host = make_host(tool_pack(spec_factory("t", approval="always")))
    result = host.call("t", {}, ask=lambda call: Decision.allow(remember=True))
    assert result.text == "t: {}"
    pending = host.prepare("t", {})
    assert (pending.needs_approval, pending.reason) == (
        False,
        "always allowed earlier (this version of the tool)",
    )


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"approval": "never"}, "never"),
        ({"approval": "destructive"}, "destructive"),
        ({"approval": "always"}, "always"),
        ({"approval": "never", "requires_approval": True}, "always"),
    ],
)  # fmt: skip
def test_effective_approval_is_the_tools_own_unless_it_must_ask(
    make_host, tool_pack, spec_factory, overrides, expected
):
    spec = spec_factory("t", **overrides)
    host = make_host(tool_pack(spec))
    assert effective_approval(spec, host) == expected


def test_an_untrusted_project_tool_tells_the_model_to_run_tooldrop_trust(
    make_host, tool_writer, project, echo
):
    tool_writer(project / ".tooldrop" / "tools", "p.json", name="p", approval="never")
    host = make_host(mode="yolo", always_allow={"p"})
    result = host.call("p", {})
    assert result.text == (
        'Tool call denied: "p" needs approval and there is no one to ask (mode: yolo): '
        "this project's tools are not trusted yet, so each call asks first "
        "(run `tooldrop trust` once you have read them)"
    )
    assert echo.calls == []
    spec = host.get("p")
    assert spec is not None
    assert effective_approval(spec, host) == "always"
    host.trust()
    assert effective_approval(spec, host) == "never"
    assert host.call("p", {}).text == "p: {}"
