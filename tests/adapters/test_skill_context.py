"""Every adapter takes the agent context of a skill bundle: ``skill="k8s"`` offers that
bundle's agent's tools and calls in its context; without it, scoped tools do not exist."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooldrop.approval
import tooldrop_markdown.plugin
import tooldrop_shell.plugin
from tooldrop import ToolHost
from tooldrop_adapters._common import Source


def _tool(name: str) -> str:
    return f"---\nname: {name}\ndescription: The {name} tool.\napproval: never\n---\necho {name}\n"


@pytest.fixture
def host(tmp_path: Path) -> ToolHost:
    skills = tmp_path / "user" / "skills"  # personal: no project trust involved
    files = {
        "k8s/skill.yaml": "name: k8s\ndescription: Kubernetes\n",
        "k8s/agents/a.md": "---\nname: k8s-agent\ndescription: d\n---\nHi\n",
        "k8s/tools/pods.md": _tool("k8s_pods"),
    }
    for relative, text in files.items():
        (skills / relative).parent.mkdir(parents=True, exist_ok=True)
        (skills / relative).write_text(text)
    (tmp_path / "user" / "tools").mkdir()
    (tmp_path / "user" / "tools" / "flat.md").write_text(_tool("flat_tool"))
    plugins = [tooldrop.approval, tooldrop_markdown.plugin, tooldrop_shell.plugin]
    return ToolHost(tmp_path, user_dir=tmp_path / "user", plugins=plugins, cache=False)


def test_source_offers_and_calls_in_the_skills_context(host: ToolHost) -> None:
    main, k8s = Source(host), Source(host, skill="k8s")
    assert [v.name for v in main.views()] == ["flat_tool"]
    assert sorted(v.name for v in k8s.views()) == ["flat_tool", "k8s_pods"]
    refused = main.prepare("k8s_pods", {})
    assert refused.result is not None
    assert refused.result.text == 'Unknown tool "k8s_pods". Available tools: flat_tool'
    assert k8s.prepare("k8s_pods", {}).run().text == "EXIT_CODE: 0\nk8s_pods"


def test_a_tool_left_out_by_tools_is_unknown_with_suggestions_among_the_offered(
    host: ToolHost,
) -> None:
    offered = Source(host, skill="k8s", tools=["flat_tool"])
    mistyped = offered.prepare("flat_tol", {})
    assert mistyped.result is not None
    assert mistyped.result.text == (
        'Unknown tool "flat_tol". Available tools: flat_tool. Did you mean "flat_tool"?'
    )
    # A loaded tool the adapter does not offer is neither named nor suggested.
    left_out = offered.prepare("k8s_pod", {})
    assert left_out.result is not None
    assert left_out.result.text == 'Unknown tool "k8s_pod". Available tools: flat_tool'


def test_openai_agents_tools_take_the_skill(host: ToolHost) -> None:
    pytest.importorskip("agents")
    from tooldrop_adapters.openai_agents import tooldrop_tools

    assert [t.name for t in tooldrop_tools(host=host)] == ["flat_tool"]
    assert sorted(t.name for t in tooldrop_tools(host=host, skill="k8s")) == [
        "flat_tool", "k8s_pods",
    ]  # fmt: skip
