"""Personal and project tools through a real host: precedence, duplicates, broken files,
modes, and Nanocoder projects read as they are."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldrop import ToolHost


def tool(name: str, description: str = "d", extra: str = "", body: str = "echo hi") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n{body}\n"


def put(folder: Path, file: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file
    path.write_text(text)
    return path


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path, Path]:
    project = tmp_path / "project"
    user = tmp_path / "user"
    return project, project / ".tooldrop" / "tools", user / "tools"


def host_for(project: Path, **kwargs: object) -> ToolHost:
    kwargs.setdefault("user_dir", project.parent / "user")
    return ToolHost(project_dir=project, **kwargs)  # type: ignore[arg-type]


def test_personal_and_project_tools_both_load(dirs) -> None:  # L1
    project, project_tools, personal_tools = dirs
    put(personal_tools, "a.md", tool("personal_a"))
    put(project_tools, "b.md", tool("project_b"))
    with host_for(project) as host:
        assert {t.name: t.origin.scope for t in host.tools()} == {
            "personal_a": "personal",
            "project_b": "project",
        }
        assert host.problems() == []


def test_a_project_tool_overrides_a_personal_one(dirs) -> None:  # L2
    project, project_tools, personal_tools = dirs
    put(personal_tools, "same.md", tool("same_name", "personal"))
    path = put(project_tools, "same.md", tool("same_name", "project"))
    with host_for(project) as host:
        (spec,) = host.tools()
        assert (spec.description, spec.origin.scope, spec.origin.path) == (
            "project",
            "project",
            path,
        )
        (note,) = host.problems()
        assert note.severity == "info"
        assert "overrides personal tool" in note.message


def test_a_broken_project_file_does_not_shadow_the_personal_tool(dirs) -> None:
    project, project_tools, personal_tools = dirs
    put(personal_tools, "same.md", tool("same_name", "personal"))
    bad = put(project_tools, "same.md", tool("same_name", "project", extra="timeout_ms: 0\n"))
    with host_for(project) as host:
        (spec,) = host.tools()
        assert spec.description == "personal"
        assert [(p.path, p.field) for p in host.problems()] == [(bad, "timeout_ms")]


def test_same_name_twice_in_one_dir_keeps_the_first(dirs) -> None:  # L3
    project, project_tools, _ = dirs
    first = put(project_tools, "first.md", tool("dup", "first"))
    second = put(project_tools, "second.md", tool("dup", "second"))
    with host_for(project) as host:
        (spec,) = host.tools()
        assert spec.description == "first"
        (problem,) = host.problems()
        assert problem.severity == "error"
        assert 'Duplicate tool name "dup"' in problem.message
        assert problem.path == second
        assert f"keeping the first ({first.name})" in problem.message  # beside it: by name


def test_a_malformed_file_among_good_ones(dirs) -> None:  # L4
    project, project_tools, _ = dirs
    put(project_tools, "a.md", tool("alpha"))
    bad = put(project_tools, "b.md", "no frontmatter here\n")
    put(project_tools, "c.md", tool("gamma"))
    with host_for(project) as host:
        assert [t.name for t in host.tools()] == ["alpha", "gamma"]
        (problem,) = host.problems()
        assert problem.path == bad
        assert problem.message.startswith("Missing YAML frontmatter")


def test_only_top_level_md_files_load(dirs) -> None:  # L5
    project, project_tools, _ = dirs
    put(project_tools, "tool.md", tool("real_tool"))
    put(project_tools, "tool.ts", "export default {}")
    put(project_tools, "UPPER.MD", tool("upper"))
    put(project_tools / "sub", "nested.md", tool("nested"))
    link = project_tools / "link.md"
    target = put(project.parent / "elsewhere", "linked.md", tool("linked"))
    link.symlink_to(target)
    with host_for(project) as host:
        assert sorted(t.name for t in host.tools()) == ["linked", "real_tool"]
        assert host.problems() == []


def test_a_name_reserved_by_the_host_is_refused(dirs) -> None:  # E2
    project, project_tools, _ = dirs
    put(project_tools, "r.md", tool("read_file"))
    with host_for(project, reserved_names=["read_file"]) as host:
        assert host.tools() == []
        (problem,) = host.problems()
        assert "collides with a built-in" in problem.message


def test_modes_offer_what_the_approval_allows(dirs) -> None:  # E3, E4, E6
    project, project_tools, _ = dirs
    put(project_tools, "a.md", tool("reader", extra="approval: never\n"))
    put(project_tools, "b.md", tool("writer", extra="approval: never\nread_only: false\n"))
    put(project_tools, "c.md", tool("asker"))
    put(project_tools, "d.md", tool("careful", extra="approval: destructive\n"))

    def names(**kwargs: object) -> list[str]:
        with host_for(project, **kwargs) as host:
            host.trust()  # untrusted project tools all count as approval: always (§7.3)
            return sorted(t.name for t in host.tools())

    assert names() == ["asker", "careful", "reader", "writer"]
    assert names(mode="plan") == ["reader"]
    assert names(mode="headless") == ["reader", "writer"]
    assert names(disabled_tools=["asker"]) == ["careful", "reader", "writer"]


def test_a_call_runs_the_rendered_script(dirs) -> None:  # E5
    project, project_tools, _ = dirs
    params = "parameters:\n  msg:\n    type: string\n    required: true\napproval: never\n"
    put(project_tools, "echo.md", tool("echo_msg", extra=params, body="echo {{ msg }}"))
    with host_for(project) as host:
        host.trust()
        result = host.call("echo_msg", {"msg": "hello-subagent"})
        assert (result.text, result.is_error) == ("EXIT_CODE: 0\nhello-subagent", False)
        refused = host.call("echo_msg", {})
        assert refused.is_error
        assert refused.text == "⚒ Missing required parameter: msg"


def test_app_nanocoder_reads_a_nanocoder_project_as_it_is(tmp_path, monkeypatch) -> None:
    project = tmp_path / "repo"
    config = tmp_path / "nanocoder-config"
    monkeypatch.setenv("NANOCODER_CONFIG_DIR", str(config))
    put(project / ".nanocoder" / "tools", "k8s-pods.md", (
        "---\nname: k8s_pods\ndescription: List pods in a Kubernetes namespace.\n"
        "parameters:\n  namespace:\n    type: string\n    required: true\n"
        "    pattern: '^[a-z0-9-]+$'\n    maxLength: 63\n  selector:\n    type: string\n"
        "approval: never\nread_only: true\n---\n\n"
        "kubectl get pods -n {{ namespace }} {{# selector }}-l {{ selector }}{{/ selector }}\n"
    ))  # fmt: skip
    put(config / "tools", "mine.md", tool("mine"))
    put(project / ".tooldrop" / "tools", "other.md", tool("not_read"))
    with ToolHost(project_dir=project, app="nanocoder") as host:
        assert sorted(t.name for t in host.tools()) == ["k8s_pods", "mine"]
        assert host.problems() == []
        assert host.render("k8s_pods", {"namespace": "default", "selector": "app=api"}) == (
            "kubectl get pods -n 'default' -l 'app=api'"
        )
        assert host.render("k8s_pods", {"namespace": "default"}) == "kubectl get pods -n 'default' "


def test_the_reference_docs_quoted_example_is_refused_on_purpose(dirs) -> None:
    # Nanocoder's docs show -l "{{ selector }}"; its own test expects -l "'app=api'" (the
    # quotes reach kubectl). Here the file fails to load and says how to fix it (§5.6).
    project, project_tools, _ = dirs
    params = "parameters:\n  selector:\n    type: string\n"
    body = 'kubectl get pods{{# selector }} -l "{{ selector }}"{{/ selector }}'
    path = put(project_tools, "k.md", tool("k8s_pods", extra=params, body=body))
    with host_for(project) as host:
        assert host.tools() == []
        (problem,) = host.problems()
        assert (problem.path, problem.line, problem.field) == (path, 8, "body")
        assert "remove the quotes around it" in problem.message


def test_this_repositorys_own_tools_load(tmp_path) -> None:
    repo = Path(__file__).resolve().parents[2]
    with ToolHost(project_dir=repo, user_dir=tmp_path / "user") as host:
        assert [p.format() for p in host.problems()] == []
        assert len([t for t in host.tools() if t.origin.source == "markdown"]) >= 4
