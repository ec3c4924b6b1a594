"""The CLI on skill bundles: list (grouped, --skill, --json), show, check, new, call, render."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import Tree, a, t

TOOLDROP = str(Path(sys.executable).parent / "tooldrop")


def run(tree: Tree, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120"}
    return subprocess.run(
        [TOOLDROP, "--project", str(tree.P), "--user-dir", str(tree.C), "--app", tree.app, *args],
        capture_output=True, text=True, env=env, cwd=tree.P, check=False, timeout=60,
        input=stdin,
    )  # fmt: skip


@pytest.fixture
def k8s(tree: Tree) -> Tree:
    tree.bundle(
        "k8s", "name: k8s\ndescription: Kubernetes\n",
        agents={"a.md": a("k8s-agent")}, tools={"pods.md": t("k8s_pods", params=("ns",))},
    )  # fmt: skip
    tree.bundle(
        "gh", "name: gh\ndescription: d\ntools_visibility: global\n",
        tools={"pr.md": t("gh_pr")},
    )  # fmt: skip
    tree.flat_tool("flat.md", t("flat_tool"))
    return tree


def test_list_groups_by_bundle_and_marks_scoped_tools(k8s: Tree) -> None:
    done = run(k8s, "list")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    header = "skill k8s · project  .nanocoder/skills/k8s  (tools scoped to its agent k8s-agent)"
    assert header in out
    assert "skill gh · project  .nanocoder/skills/gh  (tools global)" in out
    assert "markdown · project  .nanocoder/tools" in out
    (pods,) = [line for line in out.splitlines() if line.startswith("  k8s_pods")]
    assert pods.rstrip().endswith("scoped · never · read-only")
    (pr,) = [line for line in out.splitlines() if line.startswith("  gh_pr")]
    assert "scoped" not in pr


def test_list_skill_shows_what_its_agent_sees(k8s: Tree) -> None:
    done = run(k8s, "list", "--skill", "k8s")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "Tools (3) · normal mode · as skill k8s's agent k8s-agent"
    listed = [line.split()[0] for line in done.stdout.splitlines() if line.startswith("  ")]
    assert sorted(listed) == ["flat_tool", "gh_pr", "k8s_pods"]
    done = run(k8s, "list", "--skill", "nope")
    assert done.returncode == 1
    assert done.stderr == 'tooldrop: no skill bundle named "nope" (skills: gh, k8s)\n'
    done = run(k8s, "list", "--skill", "k8")
    assert done.returncode == 1
    assert done.stderr.endswith('(skills: gh, k8s); did you mean "k8s"?\n')


def test_list_json_gives_skill_and_visibility(k8s: Tree) -> None:
    data = json.loads(run(k8s, "list", "--json").stdout)
    tools = {d["name"]: (d["skill"], d["visibility"]) for d in data["tools"]}
    assert tools == {
        "k8s_pods": ("k8s", "scoped"),
        "gh_pr": ("gh", "global"),
        "flat_tool": (None, None),
    }
    skills = {s["name"]: s for s in data["skills"]}
    assert skills["k8s"]["agent"]["name"] == "k8s-agent"
    assert skills["k8s"]["tools"] == ["k8s_pods"]
    assert skills["gh"]["agent"] is None
    data = json.loads(run(k8s, "list", "--json", "--skill", "gh").stdout)
    assert sorted(d["name"] for d in data["tools"]) == ["flat_tool", "gh_pr"]


def test_show_says_which_agent_a_scoped_tool_is_offered_to(k8s: Tree) -> None:
    out = run(k8s, "show", "k8s_pods").stdout
    assert "  source     markdown (project, skill k8s, scoped)" in out
    assert "  skill      k8s (scoped: offered to only skill k8s's agent k8s-agent)" in out


def test_call_and_render_refuse_a_scoped_tool_outside_its_skill(k8s: Tree) -> None:
    run(k8s, "trust", stdin="y\n")
    done = run(k8s, "call", "k8s_pods", "ns=x", "--yes")
    assert done.returncode == 1
    assert done.stdout.startswith('Unknown tool "k8s_pods". Available tools: ')
    assert "k8s_pods" not in done.stdout.partition("Available tools:")[2]
    done = run(k8s, "call", "k8s_pods", "ns=x", "--yes", "--skill", "k8s")
    assert (done.returncode, done.stdout) == (0, "EXIT_CODE: 0\nok")
    assert run(k8s, "render", "k8s_pods", "ns=x").returncode == 1
    done = run(k8s, "render", "k8s_pods", "ns=x", "--skill", "k8s")
    assert (done.returncode, done.stdout) == (0, "echo ok")


def test_check_reports_bundle_problems_and_checks_one_bundle_by_path(tree: Tree) -> None:
    tree.bundle("orphan", "name: orphan\ndescription: d\n", tools={"o.md": t("orphan_tool")})
    tree.bundle("bad", "name: Bad\ndescription: d\n")
    nomanifest = tree.bundle("nomanifest", None)
    done = run(tree, "check")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert (
        '.nanocoder/skills/bad/skill.yaml:1: name: Invalid or missing "name" - must match '
        "/^[a-z][a-z0-9-]*$/ (kebab-case starting with a letter)"
    ) in lines
    assert any(
        line.startswith(".nanocoder/skills/orphan/skill.yaml: Tools are scoped (the default)")
        and line.endswith("[warning]")
        for line in lines
    )
    done = run(tree, "check", str(nomanifest))
    assert done.returncode == 1
    assert done.stdout.endswith(
        "No skill.yaml found - a bundle must contain a skill.yaml manifest at its root.\n"
    )
    done = run(tree, "check", str(tree.project_skills / "orphan"))
    assert done.returncode == 1
    assert "Tools are scoped (the default) but the bundle has no agent" in done.stdout


def test_new_skill_scaffolds_a_bundle_then_tools_in_it(tree: Tree) -> None:
    done = run(tree, "new", "--skill", "deploy")
    assert done.returncode == 0, done.stderr
    bundle = tree.project_skills / "deploy"
    assert done.stdout == ".nanocoder/skills/deploy\n"
    assert sorted(p.name for p in bundle.iterdir()) == ["agents", "commands", "skill.yaml", "tools"]
    done = run(tree, "new", "release-notes", "--skill", "deploy")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ".nanocoder/skills/deploy/tools/release-notes.md\n"
    assert run(tree, "new", "--skill", "deploy").returncode == 1  # never overwritten
    assert run(tree, "new", "--skill", "Bad_Name").returncode == 1
    check = run(tree, "check")
    # The scaffold checks clean but for the placeholder description it asks you to replace.
    problems = [line for line in check.stdout.splitlines() if line]
    assert len(problems) == 1
    assert "Description is still the scaffold placeholder" in problems[0]
    listed = json.loads(run(tree, "list", "--json", "--skill", "deploy").stdout)["tools"]
    assert [(d["name"], d["visibility"]) for d in listed] == [("release_notes", "scoped")]
    done = run(tree, "new", "mine", "--skill", "solo", "--personal")
    assert done.returncode == 0, done.stderr
    assert (tree.C / "skills" / "solo" / "tools" / "mine.md").exists()


def test_unknown_tool_suggests_and_names_a_broken_file_but_never_a_scoped_one(k8s: Tree) -> None:
    k8s.flat_tool("git-recent.md", "---\nname: git_recent\n---\n")  # no description: refused
    k8s.bundle("sec", "name: sec\ndescription: d\n", tools={"secret.md": "---\nname: secret\n"})
    run(k8s, "trust", stdin="y\n")
    done = run(k8s, "call", "flat_tol", "--yes")
    assert done.returncode == 1
    assert done.stdout.endswith('Did you mean "flat_tool"?')
    listed = done.stdout.partition("Available tools: ")[2].partition(". Did")[0].split(", ")
    assert listed == sorted(listed) and "flat_tool" in listed
    done = run(k8s, "call", "git_recent", "--yes")
    assert done.returncode == 1
    assert done.stdout.startswith('Tool "git_recent" failed to load (git-recent.md:')
    assert str(k8s.P) not in done.stdout
    assert done.stdout.endswith("see `tooldrop check`")
    # A scoped tool that failed, and a scoped name one letter off: neither is told.
    for name in ("secret", "k8s_pod"):
        done = run(k8s, "call", name, "--yes")
        assert done.stdout.startswith(f'Unknown tool "{name}". Available tools: ')
        assert "secret" not in done.stdout.replace(f'"{name}"', "")
        assert "k8s_pods" not in done.stdout and "Did you mean" not in done.stdout
