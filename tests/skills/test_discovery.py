"""Finding bundles: layers, shadowing, member files and their errors (reference §1, §6, §7)."""

from __future__ import annotations

import pytest

from tooldrop import ToolHost

from .conftest import Tree, a, messages, names, t

K8S = "name: k8s\ndescription: Kubernetes helpers\nversion: 0.1.0\ntags: [k8s]\n"


def test_e1_a_scoped_bundle_tool_knows_its_bundle_and_only_its_agent_is_offered_it(
    tree: Tree,
) -> None:
    tree.bundle(
        "k8s",
        K8S,
        agents={"k8s-agent.md": a("k8s-agent")},
        tools={"pods.md": t("k8s_pods", params=("namespace",))},
    )
    host = tree.host()
    (skill,) = host.skills()
    assert (skill.name, skill.scope, skill.visibility, skill.version) == (
        "k8s", "project", "scoped", "0.1.0",
    )  # fmt: skip
    assert skill.agent is not None
    assert (skill.agent.name, skill.agent.description, skill.agent.prompt) == (
        "k8s-agent", "The k8s-agent agent.", "You are k8s-agent.",
    )  # fmt: skip
    assert skill.manifest.tags == ("k8s",)
    spec = host.get("k8s_pods")
    assert spec is not None
    assert (spec.origin.skill, spec.origin.visibility, spec.origin.scope) == (
        "k8s", "scoped", "project",
    )  # fmt: skip
    assert names(host.tools()) == []
    assert names(host.tools(skill="k8s")) == ["k8s_pods"]
    assert host.problems() == []


def test_the_app_names_the_project_folder(tree: Tree) -> None:
    tree.bundle("k8s", K8S, tools={"pods.md": t("k8s_pods")})
    assert [s.name for s in tree.host(app="nanocoder").skills()] == ["k8s"]
    assert tree.host(app="tooldrop").skills() == []  # .tooldrop/skills/ is empty
    tooldrop = Tree.__new__(Tree)
    tooldrop.__dict__.update(tree.__dict__, app="tooldrop")
    tooldrop.bundle("mine", "name: mine\ndescription: d\n", tools={"m.md": t("mine_x")})
    assert [s.name for s in tree.host(app="tooldrop").skills()] == ["mine"]


def test_e5_layers_shadowing_duplicates_hidden_dirs_and_skill_yml(tree: Tree) -> None:
    tree.bundle(
        "lint", "name: lint\ndescription: d\ntools_visibility: global\n", personal=True,
        tools={"run.md": t("lint_run")},
    )  # fmt: skip
    tree.bundle("mine", "name: mine\ndescription: d\n", personal=True, tools={"x.md": t("mine_x")})
    tree.bundle("linting", "name: lint\ndescription: d\n", tools={"c.md": t("lint_check")})
    tree.bundle("a-dup", "name: dup\ndescription: d\n", tools={"a.md": t("dup_a")})
    tree.bundle(
        "b-dup", "name: dup\ndescription: d\n",
        tools={"b.md": t("bad-name"), "ok.md": t("dup_b")},
    )  # fmt: skip
    tree.bundle(".hidden", "name: hidden\ndescription: d\n")
    nomanifest = tree.bundle("nomanifest", None)
    (nomanifest / "skill.yml").write_text("name: nomanifest\ndescription: d\n")
    (tree.project_skills / "loose-file.yaml").write_text("name: loose\n")
    host = tree.host()
    skills = {s.name: s for s in host.skills()}
    assert sorted(skills) == ["dup", "hidden", "lint", "mine"]
    assert skills["lint"].path.name == "linting"  # the project copy, whole
    assert skills["lint"].scope == "project"
    assert skills["lint"].visibility == "scoped"  # the personal copy's global is gone with it
    assert skills["dup"].path.name == "a-dup"
    assert names(host.all_tools()) == ["dup_a", "lint_check", "mine_x"]  # lint_run never loads
    errors = messages(host, "error")
    assert 'Duplicate skill name "dup" in project layer - keeping the first.' in errors
    assert any("bad-name" in str(p.path) or "name" in p.field for p in host.problems())
    bad = [p for p in host.problems() if p.path and p.path.name == "b.md"]
    assert bad and bad[0].severity == "error"  # the dropped bundle's member errors: reported
    shadow = [p for p in host.problems() if p.severity == "info"]
    assert len(shadow) == 1
    assert 'skill "lint" overrides the personal skill' in shadow[0].message


def test_e7_member_errors_never_drop_the_bundle(tree: Tree) -> None:
    tree.bundle(
        "db",
        "name: db\ndescription: Database\n",
        agents={
            "a-first.md": a("db-agent"),
            "b-second.md": a("db-other"),
            "notes.txt": "not an agent",
        },
        tools={
            "query.md": t("db_query"),
            "empty.md": "---\nname: db_empty\ndescription: d\n---\n",
            "nofm.md": "echo no frontmatter\n",
            "badapproval.md": t("db_bad", approval="sometimes"),
            "helper.sh": "echo helper\n",
            "nested/deep.md": t("db_deep"),
            "Upper.MD": t("db_upper"),
        },
        commands={"db.md": "Run the db.\n", "migrate.md": "Migrate.\n"},
    )
    host = tree.host()
    (skill,) = host.skills()
    assert skill.agent is not None and skill.agent.name == "db-agent"
    assert skill.commands == ("db", "db:migrate")
    assert skill.tool_names == ("db_query",)
    assert names(host.all_tools()) == ["db_query"]
    problems = host.problems()
    by_file = sorted({p.path.name for p in problems if p.path and p.severity == "error"})
    assert by_file == ["agents", "badapproval.md", "empty.md", "nofm.md"]  # 4, as Nanocoder
    multiple = [p for p in problems if p.path and p.path.name == "agents"]
    assert [p.message for p in multiple] == [
        "agents/ has multiple .md files (only one subagent per bundle is supported): "
        "ignoring b-second.md."
    ]
    texts = " ".join(p.message for p in problems)
    assert "Tool body (shell script) is empty" in texts
    assert "Missing YAML frontmatter — custom tools must declare metadata" in texts


def test_a_broken_agent_file_is_reported_and_the_next_one_is_used(tree: Tree) -> None:
    tree.bundle(
        "x", "name: x\ndescription: d\n",
        agents={"a.md": "no frontmatter\n", "b.md": "---\nname: x-agent\n---\n", "c.md": a("ok")},
        tools={"x.md": t("x_tool")},
    )  # fmt: skip
    host = tree.host()
    (skill,) = host.skills()
    assert skill.agent is not None and skill.agent.name == "ok"
    bad = {p.path.name: (p.field, p.message) for p in host.problems() if p.path}
    assert bad["a.md"][1].startswith("Missing YAML frontmatter")
    assert bad["b.md"] == ("description", 'Missing or empty "description"')


def test_a_bundle_without_agent_or_members_gets_the_checkers_warnings(tree: Tree) -> None:
    tree.bundle("orphan", "name: orphan\ndescription: d\n", tools={"o.md": t("orphan_tool")})
    tree.bundle("empty", "name: empty\ndescription: A brief description of what this skill does.\n")
    tree.bundle(
        "fine", "name: fine\ndescription: d\ntools_visibility: global\n",
        tools={"f.md": t("fine_tool")},
    )  # fmt: skip
    host = tree.host()
    found = {(p.path.parent.name, p.message.split(".")[0]) for p in host.problems() if p.path}
    assert found == {
        ("orphan", "Tools are scoped (the default) but the bundle has no agent"),
        ("empty", "Bundle has no members"),
        ("empty", "Description is still the scaffold placeholder"),
    }
    assert all(p.severity == "warning" for p in host.problems())


def test_e8_e9_subscriptions_that_name_no_member_or_repeat_are_reported(tree: Tree) -> None:
    tree.bundle(
        "lintme",
        """
        name: lint-me
        description: d
        tools_visibility: global
        include: {tools: ["extra/*.md"]}
        subscribe:
          - {kind: schedule.cron, target: tool:lm_a, cron: "0 * * * *"}
          - {kind: schedule.cron, target: tool:lm_a, cron: "5 * * * *"}
          - {kind: schedule.cron, target: tool:missing_tool, cron: "0 * * * *"}
        """,
        tools={"a.md": t("lm_a"), "extra/more.md": t("lm_more")},
    )
    host = tree.host()
    assert names(host.all_tools()) == ["lm_a"]  # include is validated and ignored
    assert sorted(messages(host)) == [
        "Duplicate subscription (kind=schedule.cron, target=tool:lm_a) - declared in both "
        "manifest and manifest.",
        'subscribe[2].target "tool:missing_tool" does not resolve to a member of this bundle.',
    ]


def test_personal_python_bundle_tools_import_and_project_ones_never_do(tree: Tree) -> None:
    source = (
        "import pathlib\n"
        "pathlib.Path(__file__).with_suffix('.ran').write_text('ran')\n"
        "from tooldrop import tool\n"
        "@tool\n"
        "def {name}() -> str:\n"
        "    '''Say hi.'''\n"
        "    return 'hi'\n"
        "default = {name}\n"
    )
    personal = tree.bundle(
        "py", "name: py\ndescription: d\ntools_visibility: global\n", personal=True,
        tools={"hi.py": source.format(name="hello")},
    )  # fmt: skip
    project = tree.bundle(
        "pyp", "name: pyp\ndescription: d\ntools_visibility: global\n",
        tools={"evil.py": source.format(name="evil")},
    )  # fmt: skip
    host = tree.host()
    assert names(host.tools()) == ["custom__hello"]
    assert (personal / "tools" / "hi.ran").exists()
    assert not (project / "tools" / "evil.ran").exists()
    (warning,) = [p for p in host.problems() if p.path and p.path.name == "evil.py"]
    assert "not imported" in warning.message
    assert host.call("custom__hello", ask=lambda call: True).text == "hi"


def test_a_third_party_loaders_files_work_in_bundles(tree: Tree) -> None:
    from tooldrop import LoadResult, Origin, ToolSpec, hookimpl

    class TxtLoader:
        @hookimpl
        def tooldrop_load_file(self, path, scope):  # type: ignore[no-untyped-def]
            if path.suffix != ".txt":
                return None
            spec = ToolSpec(
                name=path.stem, description="from txt", input_schema={"type": "object"},
                approval="never", read_only=True,
                origin=Origin(source="txt", scope=scope, path=path), runner="shell",
            )  # fmt: skip
            return LoadResult(tools=[spec])

    tree.bundle(
        "txt", "name: txt\ndescription: d\n", agents={"a.md": a("txt-agent")},
        tools={"txt_tool.txt": "x"},
    )  # fmt: skip
    host = tree.host()
    host.register(TxtLoader())
    assert names(host.tools()) == []
    (spec,) = host.tools(skill="txt")
    assert (spec.name, spec.origin.source, spec.origin.skill) == ("txt_tool", "txt", "txt")


@pytest.mark.parametrize("app", ["nanocoder", "tooldrop"])
def test_an_unreadable_root_is_one_problem(tree: Tree, app: str) -> None:
    tree.app = app
    tree.project_skills.parent.mkdir(parents=True, exist_ok=True)
    tree.project_skills.write_text("a file, not a folder")  # NotADirectory: skipped quietly
    host: ToolHost = tree.host()
    assert host.skills() == []
    assert host.problems() == []


def test_fifos_in_bundles_never_hang_discovery_or_trust(tree: Tree) -> None:
    import os

    fifo = tree.bundle("fifo", None)
    os.mkfifo(fifo / "skill.yaml")
    ok = tree.bundle(
        "ok", "name: ok\ndescription: d\n", agents={"a.md": a("ok-agent")},
        tools={"t.md": t("ok_tool")},
    )  # fmt: skip
    os.mkfifo(ok / "agents" / "b.md")
    os.mkfifo(ok / "pipe")
    host = tree.host()
    assert [s.name for s in host.skills()] == ["ok"]
    (refused,) = [p for p in host.problems() if p.path == fifo / "skill.yaml"]
    assert refused.message.startswith("skill.yaml is refused")
    assert host.trust()  # digests every file of the project's bundles; the FIFO is not read
    assert host.is_trusted()


def test_e10_a_personal_bundle_tool_runs_in_the_project_root(tree: Tree) -> None:
    where = tree.bundle(
        "where", "name: where\ndescription: d\ntools_visibility: global\n", personal=True,
        tools={"p.md": t("where_pwd", body="pwd"),
               "r.md": t("where_rel", body="pwd", extra="cwd: ./sub\n")},
    )  # fmt: skip
    (where / "tools" / "sub").mkdir()
    (tree.P / "sub").mkdir()
    host = tree.host()
    assert host.call("where_pwd").text == f"EXIT_CODE: 0\n{tree.P.resolve()}"
    assert host.call("where_rel").text == f"EXIT_CODE: 0\n{tree.P.resolve()}/sub"


def test_the_parse_cache_keeps_bundles_and_an_edited_manifest_or_agent_misses_it(
    tree: Tree, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import time

    import tooldrop_markdown._loader as loader

    loaded: list[str] = []
    real = loader.load_markdown

    def counting(path, scope):  # type: ignore[no-untyped-def]
        loaded.append(path.name)
        return real(path, scope)

    monkeypatch.setattr(loader, "load_markdown", counting)

    bundle = tree.bundle(
        "k8s", "name: k8s\ndescription: d\n", agents={"a.md": a("k8s-agent")},
        tools={"p.md": t("k8s_pods")},
    )  # fmt: skip
    old = time.time() - 60  # past the cache's racy window
    for path in [bundle / "skill.yaml", bundle / "agents" / "a.md", bundle / "tools" / "p.md"]:
        os.utime(path, (old, old))

    def state(host):  # type: ignore[no-untyped-def]
        (spec,) = host.all_tools()
        skill = host.skill(spec.origin.skill)
        return (spec, spec.origin.visibility, skill.agent, skill.visibility, host.problems())

    cold = state(tree.host(cache=True))
    assert loaded == ["p.md"]
    warm = state(tree.host(cache=True))
    assert loaded == ["p.md"]  # from the cache, stamped
    assert warm == cold
    assert warm[1] == "scoped"
    (bundle / "skill.yaml").write_text("name: k8s\ndescription: d\ntools_visibility: global\n")
    (bundle / "agents" / "a.md").write_text(a("renamed-agent"))
    host = tree.host(cache=True)
    _, visibility, agent, skill_visibility, _ = state(host)
    assert (visibility, skill_visibility, agent.name) == ("global", "global", "renamed-agent")
    assert loaded == ["p.md", "p.md"]  # the visibility is part of the cache key
    assert [s.name for s in host.tools()] == ["k8s_pods"]


def test_stamping_a_bundle_tool_changes_only_its_origins_skill_and_visibility(
    tree: Tree,
) -> None:
    from attrs import evolve

    from tooldrop.host._bundles import _stamped

    tree.flat_tool("x.md", t("x_tool", params=("a", "b")))
    (spec,) = tree.host().all_tools()
    stamped = _stamped(spec, "k8s", "scoped")
    assert stamped == evolve(spec, origin=evolve(spec.origin, skill="k8s", visibility="scoped"))
    assert stamped.payload is spec.payload
    assert spec.origin.skill is None  # the original is untouched
