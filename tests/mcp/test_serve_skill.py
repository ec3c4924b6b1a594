"""``tooldrop serve --skill NAME``: one agent context over MCP, through the real SDK client."""

from __future__ import annotations

import subprocess

import pytest

from .conftest import TIMEOUT, TOOLDROP, Workspace

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


def tool(name: str, approval: str = "never") -> str:
    return (
        f"---\nname: {name}\ndescription: The {name} tool.\napproval: {approval}\n"
        f"read_only: true\n---\necho {name} ran\n"
    )


@pytest.fixture
def bundles(workspace: Workspace) -> Workspace:
    """Personal bundles (no project trust involved): k8s scoped with an agent that lists
    two tools, gh global, and a flat tool."""
    skills = workspace.config / "skills"
    files = {
        "k8s/skill.yaml": "name: k8s\ndescription: Kubernetes\n",
        "k8s/agents/agent.md": (
            "---\nname: k8s-agent\ndescription: d\ntools: [k8s_pods, flat_tool, gh_pr]\n---\nHi\n"
        ),
        "k8s/tools/pods.md": tool("k8s_pods"),
        "k8s/tools/logs.md": tool("k8s_logs"),  # scoped, but not on its agent's list
        "other/skill.yaml": "name: other\ndescription: d\n",
        "other/agents/a.md": "---\nname: other-agent\ndescription: d\n---\nHi\n",
        "other/tools/o.md": tool("other_secret"),
        "gh/skill.yaml": "name: gh\ndescription: d\ntools_visibility: global\n",
        "gh/tools/pr.md": tool("gh_pr"),
    }
    for relative, text in files.items():
        path = skills / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    workspace.markdown_tool("flat.md", tool("flat_tool"))
    return workspace


async def test_serve_skill_lists_exactly_the_agents_tools(connect, text_of, bundles) -> None:
    async with connect(bundles, "--skill", "k8s") as server:
        listed = sorted(t.name for t in (await server.session.list_tools()).tools)
        ran = await server.session.call_tool("k8s_pods", {})
        refused = await server.session.call_tool("k8s_logs", {})
        other = await server.session.call_tool("other_secret", {})
    assert listed == ["flat_tool", "gh_pr", "k8s_pods"]
    assert (ran.is_error, text_of(ran)) == (False, "EXIT_CODE: 0\nk8s_pods ran")
    assert refused.is_error is True
    assert text_of(refused).startswith('Unknown tool "k8s_logs". Available tools: ')
    assert other.is_error is True
    assert "other_secret" not in text_of(other).partition("Available tools:")[2]


async def test_plain_serve_offers_no_scoped_tool_and_refuses_calls_to_one(
    connect, text_of, bundles
) -> None:
    async with connect(bundles) as server:
        listed = sorted(t.name for t in (await server.session.list_tools()).tools)
        refused = await server.session.call_tool("k8s_pods", {})
    assert listed == ["flat_tool", "gh_pr"]
    assert refused.is_error is True
    text = text_of(refused)
    assert text == 'Unknown tool "k8s_pods". Available tools: flat_tool, gh_pr'


def test_serve_an_unknown_skill_exits_1_before_serving(bundles: Workspace) -> None:
    done = subprocess.run(
        [TOOLDROP, "--project", str(bundles.project), "serve", "--skill", "nope"],
        capture_output=True, text=True, env=bundles.env(), timeout=TIMEOUT, check=False,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stdout == ""
    assert 'no skill bundle named "nope" (skills: gh, k8s, other)' in done.stderr


async def test_a_bundle_edit_changes_the_served_context(connect, bundles) -> None:
    from .test_list_changed import ChangeWatcher, names

    changes = ChangeWatcher()
    skills = bundles.config / "skills"
    async with connect(
        bundles, "--skill", "k8s", "--poll-interval", "0.2", message_handler=changes
    ) as server:
        assert await names(server.session) == ["flat_tool", "gh_pr", "k8s_pods"]
        # The agent's allow-list names one more tool: a file in agents/ changed.
        (skills / "k8s" / "agents" / "agent.md").write_text(
            "---\nname: k8s-agent\ndescription: d\ntools: [k8s_pods, k8s_logs]\n---\nHi\n"
        )
        await changes.wait()
        assert await names(server.session) == ["k8s_logs", "k8s_pods"]
        # The other bundle turns global: its skill.yaml changed.
        (skills / "other" / "skill.yaml").write_text(
            "name: other\ndescription: d\ntools_visibility: global\n"
        )
        (skills / "k8s" / "agents" / "agent.md").write_text(
            "---\nname: k8s-agent\ndescription: d\n---\nHi\n"
        )
        await changes.wait()
        listed = await names(server.session)
        assert "other_secret" in listed and "k8s_logs" in listed
