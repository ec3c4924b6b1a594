"""The default policy's rules beyond the mode table: requires_approval and remembered grants."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldrop import Decision, hookimpl

MODES = ("normal", "auto-accept", "architect", "yolo")


@pytest.mark.parametrize("mode", MODES)
def test_requires_approval_asks_in_every_mode_even_when_always_allowed(
    make_host, tool_pack, spec_factory, echo, mode
):
    spec = spec_factory("careful", requires_approval=True)
    host = make_host(tool_pack(spec), mode=mode, always_allow={"careful"})
    asked = []
    result = host.call("careful", {}, ask=lambda call: asked.append(call) or True)
    assert len(asked) == 1
    assert not result.is_error


@pytest.mark.parametrize("mode", ["plan", "headless"])
def test_requires_approval_tools_hide_where_no_one_can_answer(
    make_host, tool_pack, spec_factory, mode
):
    host = make_host(tool_pack(spec_factory("careful", requires_approval=True)), mode=mode)
    assert host.tools() == []


def test_always_allow_at_the_prompt_is_remembered_for_this_version(
    make_host, tool_pack, spec_factory, echo, user_dir
):
    spec = spec_factory("guarded", approval="always")
    host = make_host(tool_pack(spec))
    asked = []

    def ask(call):
        asked.append(call.name)
        return Decision.allow(remember=True)

    host.call("guarded", {}, ask=ask)
    host.call("guarded", {}, ask=ask)
    assert asked == ["guarded"]
    grants = json.loads((user_dir / "grants.json").read_text())
    [grant] = grants["grants"]
    assert grants["version"] == 2
    assert grant == {**grant, "name": "guarded", "hash": "hash-of-guarded", "scope": "plugin"}

    # The same name with other content (an edited file) is a different tool: asks again.
    from tooldrop import Origin

    edited = spec_factory(
        "guarded",
        approval="always",
        origin=Origin(source="test", scope="plugin", content_hash="v2"),
    )
    other = make_host(tool_pack(edited))
    other.call("guarded", {}, ask=ask)
    assert asked == ["guarded", "guarded"]


def test_requires_approval_is_never_remembered(make_host, tool_pack, spec_factory, user_dir):
    host = make_host(tool_pack(spec_factory("careful", requires_approval=True)))
    asked = []

    def ask(call):
        asked.append(1)
        return Decision.allow(remember=True)

    host.call("careful", {}, ask=ask)
    host.call("careful", {}, ask=ask)
    assert len(asked) == 2
    assert not (user_dir / "grants.json").exists()


ALWAYS = (
    'Tool call denied: "{}" needs approval and there is no one to ask (mode: normal): its '
    "approval is always: approve it at a prompt, run in yolo mode, or add it to alwaysAllow"
)


def test_a_corrupt_grants_file_grants_nothing(make_host, tool_pack, spec_factory, user_dir):
    (user_dir / "grants.json").write_text("{not json")
    host = make_host(tool_pack(spec_factory("guarded", approval="always")))
    assert host.call("guarded", {}).text == ALWAYS.format("guarded")
    host.call("guarded", {}, ask=lambda call: Decision.allow(remember=True))
    [grant] = json.loads((user_dir / "grants.json").read_text())["grants"]
    assert (grant["name"], grant["hash"]) == ("guarded", "hash-of-guarded")


def test_a_tool_without_a_content_hash_is_never_granted(
    make_host, tool_pack, spec_factory, user_dir
):
    from tooldrop import Origin

    spec = spec_factory("anon", approval="always", origin=Origin(source="test", scope="plugin"))
    host = make_host(tool_pack(spec))
    host.call("anon", {}, ask=lambda call: Decision.allow(remember=True))
    assert host.call("anon", {}).text == ALWAYS.format("anon")


class AllowEverything:
    """A careless third-party policy: allows every call before the default policy is asked."""

    @hookimpl(tryfirst=True)
    def tooldrop_approve(self, call):
        return Decision.allow("allowed by a careless policy", remember=True)


def test_no_policy_plugin_can_allow_a_requires_approval_tool_unasked(
    make_host, tool_pack, spec_factory, echo, user_dir
):
    host = make_host(tool_pack(spec_factory("careful", requires_approval=True)), AllowEverything())
    assert host.call("careful", {}).text == (
        'Tool call denied: "careful" needs approval and there is no one to ask (mode: normal): '
        "this tool asks for approval on every call, in every mode"
    )
    assert echo.calls == []
    asked = []
    assert not host.call("careful", {}, ask=lambda call: asked.append(1) or True).is_error
    assert asked == [1]
    assert not (user_dir / "grants.json").exists()


def test_no_policy_plugin_can_allow_an_untrusted_project_tool_unasked(
    make_host, tool_writer, project, echo
):
    tool_writer(project / ".tooldrop" / "tools", "p.json", name="p", approval="never")
    host = make_host(AllowEverything(), mode="yolo", always_allow={"p"})
    result = host.call("p", {})
    assert result.denied
    assert "not trusted yet" in result.text
    assert echo.calls == []
    host.trust()
    assert not host.call("p", {}).is_error


def test_a_policy_plugin_may_still_allow_what_needs_no_person(make_host, tool_pack, spec_factory):
    host = make_host(tool_pack(spec_factory("guarded", approval="always")), AllowEverything())
    assert host.call("guarded", {}).text == "guarded: {}"


def test_a_project_grant_holds_only_in_the_project_it_was_given(
    tmp_path, user_dir, core_plugins, tool_writer, echo
):
    from tooldrop import ToolHost

    hosts = []
    for name in ("a", "b"):
        root = tmp_path / name
        (root / ".tooldrop" / "tools").mkdir(parents=True)
        tool_writer(root / ".tooldrop" / "tools", "t.json", name="t", approval="always")
        host = ToolHost(project_dir=root, user_dir=user_dir, plugins=core_plugins)
        host.trust()
        hosts.append(host)
    a, b = hosts
    assert a.get("t").origin.content_hash == b.get("t").origin.content_hash  # the same bytes
    assert not a.call("t", {}, ask=lambda call: Decision.allow(remember=True)).is_error
    assert not a.call("t", {}).is_error  # the grant answers in a
    assert b.call("t", {}).text == ALWAYS.format("t")  # but not in b
    assert a.grants.is_granted(a.get("t")) and not b.grants.is_granted(b.get("t"))
    assert [g.place for g in b.grants.all()] == [str(a.project_dir)]


def test_a_personal_grant_holds_in_every_project(tmp_path, user_dir, core_plugins, tool_writer):
    from tooldrop import ToolHost

    tool_writer(user_dir / "tools", "mine.json", name="mine", approval="always")
    first = ToolHost(project_dir=tmp_path / "a", user_dir=user_dir, plugins=core_plugins)
    first.call("mine", {}, ask=lambda call: Decision.allow(remember=True))
    other = ToolHost(project_dir=tmp_path / "b", user_dir=user_dir, plugins=core_plugins)
    assert not other.call("mine", {}).is_error
    [grant] = other.grants.all()
    assert (grant.scope, grant.place) == ("personal", str(user_dir.resolve()))


def test_a_grant_file_of_another_shape_grants_nothing(make_host, tool_pack, spec_factory, user_dir):
    for data in (
        {"version": 2, "grants": {"guarded": ["hash-of-guarded"]}},
        {"version": 2, "grants": [{"name": "guarded", "hash": "hash-of-guarded"}]},
        {"version": 3, "grants": []},
        [],
    ):
        (user_dir / "grants.json").write_text(json.dumps(data))
        host = make_host(tool_pack(spec_factory("guarded", approval="always")))
        assert host.call("guarded", {}).text == ALWAYS.format("guarded"), data


_NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True)
_DIRS = st.lists(st.from_regex(r"[a-z]{1,6}", fullmatch=True), min_size=2, max_size=4, unique=True)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=_NAMES, digest=st.from_regex(r"[0-9a-f]{8}", fullmatch=True), dirs=_DIRS)
def test_a_grant_never_answers_in_another_place(tmp_path_factory, spec_factory, name, digest, dirs):
    """Generated: granted in the first project, the same tool is granted nowhere else."""
    from tooldrop import Origin
    from tooldrop.policy._grants import GrantStore

    root = tmp_path_factory.mktemp("grants")
    path = root / "grants.json"
    stores = [GrantStore(path, (root / d).resolve(), root / "config") for d in dirs]
    spec = spec_factory(name, origin=Origin(source="json", scope="project", content_hash=digest))
    stores[0].remember(spec)
    assert stores[0].is_granted(spec)
    assert not any(store.is_granted(spec) for store in stores[1:])
    other = spec_factory(
        name, origin=Origin(source="json", scope="project", content_hash="x" + digest)
    )
    assert not stores[0].is_granted(other)  # another version
    personal = spec_factory(
        name, origin=Origin(source="json", scope="personal", content_hash=digest)
    )
    assert not any(store.is_granted(personal) for store in stores)  # another scope


@pytest.mark.parametrize("mode", MODES)
def test_the_default_policy_answers_availability_so_a_later_plugin_is_not_asked(
    make_host, tool_pack, spec_factory, mode
):
    """Outside plan and headless the default policy offers every tool itself: a plugin that
    runs after it (``trylast``) cannot hide one; only a ``tryfirst`` plugin overrides it."""
    asked: list[str] = []

    class Late:
        @hookimpl(trylast=True)
        def tooldrop_available(self, spec):
            asked.append(spec.name)
            return False

    host = make_host(tool_pack(spec_factory("t", approval="always")), Late(), mode=mode)
    assert [spec.name for spec in host.tools()] == ["t"]
    assert asked == []
