"""Discovery and the registry: precedence, duplicates, reserved names, isolation, reload."""

from __future__ import annotations

from pathlib import Path

from tooldrop import LoadResult, ToolDir, ToolSpec, hookimpl


def names(host) -> list[str]:
    return [spec.name for spec in host.all_tools()]


def test_personal_and_project_tools_both_load(make_host, tool_writer, project, user_dir):
    tool_writer(user_dir / "tools", "a.json", name="personal_a")
    tool_writer(project / ".tooldrop" / "tools", "b.json", name="project_b")
    host = make_host()
    assert names(host) == ["personal_a", "project_b"]
    assert [p for p in host.problems() if p.severity != "info"] == []
    assert {s.name: s.origin.scope for s in host.all_tools()} == {
        "personal_a": "personal",
        "project_b": "project",
    }


def test_project_tool_overrides_personal_in_place_and_says_so(
    make_host, tool_writer, project, user_dir, monkeypatch
):
    monkeypatch.chdir(project)  # the personal file is outside it: shown in full
    tool_writer(user_dir / "tools", "1.json", name="first", description="personal")
    tool_writer(user_dir / "tools", "2.json", name="same", description="personal")
    tool_writer(project / ".tooldrop" / "tools", "s.json", name="same", description="project")
    host = make_host()
    assert names(host) == ["first", "same"]  # keeps the personal tool's position
    assert host.get("same").description == "project"
    notes = [p for p in host.problems() if p.severity == "info"]
    assert len(notes) == 1
    assert "overrides personal tool" in notes[0].message
    assert notes[0].path == project / ".tooldrop" / "tools" / "s.json"
    assert str(user_dir / "tools" / "2.json") in notes[0].message


def test_the_overridden_file_is_shown_relative_to_the_working_directory_under_it(
    make_host, tool_writer, project, user_dir, monkeypatch
):
    tool_writer(user_dir / "tools", "same.json", name="same", description="personal")
    tool_writer(project / ".tooldrop" / "tools", "s.json", name="same", description="project")
    monkeypatch.chdir(user_dir)
    [note] = [p for p in make_host().problems() if p.severity == "info"]
    assert note.message == 'overrides personal tool "same" (tools/same.json)'


def test_duplicate_in_one_scope_keeps_the_first_and_names_both_files(
    make_host, tool_writer, project
):
    tools = project / ".tooldrop" / "tools"
    tool_writer(tools, "first.json", name="dup", description="first")
    tool_writer(tools, "second.json", name="dup", description="second")
    host = make_host()
    assert host.get("dup").description == "first"
    [problem] = [p for p in host.problems() if p.severity == "error"]
    assert problem.path == tools / "second.json"
    assert 'Duplicate tool name "dup"' in problem.message
    assert "first.json" in problem.message


def test_files_are_loaded_in_sorted_order(make_host, tool_writer, project):
    tools = project / ".tooldrop" / "tools"
    for name in ("c", "a", "b"):
        tool_writer(tools, f"{name}.json", name=f"tool_{name}")
    assert names(make_host()) == ["tool_a", "tool_b", "tool_c"]


def test_reserved_names_are_refused(make_host, tool_writer, project):
    tool_writer(project / ".tooldrop" / "tools", "r.json", name="read_file")
    host = make_host(reserved_names={"read_file"})
    assert host.get("read_file") is None
    [problem] = host.problems()
    assert "collides with a built-in or MCP tool" in problem.message


def test_disabled_tools_never_load(make_host, tool_writer, project):
    tool_writer(project / ".tooldrop" / "tools", "d.json", name="dangerous")
    host = make_host(disabled_tools={"dangerous"})
    assert host.get("dangerous") is None
    assert host.problems() == []


def test_a_broken_file_is_reported_and_the_others_load(make_host, tool_writer, project):
    tools = project / ".tooldrop" / "tools"
    tool_writer(tools, "good.json", name="good")
    (tools / "bad.json").write_text("{not json")
    host = make_host()
    assert names(host) == ["good"]
    [problem] = host.problems()
    assert problem.path == tools / "bad.json"


class ExplodingLoader:
    @hookimpl(tryfirst=True)
    def tooldrop_load_file(self, path: Path) -> LoadResult | None:
        if path.name == "boom.json":
            raise RuntimeError("loader bug")
        return None


def test_a_crashing_loader_costs_one_file_not_the_scan(make_host, tool_writer, project):
    tools = project / ".tooldrop" / "tools"
    tool_writer(tools, "a.json", name="a")
    tool_writer(tools, "boom.json", name="boom")
    tool_writer(tools, "c.json", name="c")
    host = make_host(ExplodingLoader())
    assert names(host) == ["a", "c"]
    [problem] = host.problems()
    assert problem.path == tools / "boom.json"
    assert "loader crashed: RuntimeError: loader bug" in problem.message


def test_files_no_loader_claims_are_ignored(make_host, project):
    (project / ".tooldrop" / "tools" / "README.txt").write_text("notes")
    host = make_host()
    assert host.all_tools() == []
    assert host.problems() == []


def test_subdirectories_are_not_scanned(make_host, tool_writer, project):
    nested = project / ".tooldrop" / "tools" / "nested"
    nested.mkdir()
    tool_writer(nested, "x.json", name="nested_tool")
    assert make_host().all_tools() == []


class ExtraDirs:
    def __init__(self, *dirs: ToolDir) -> None:
        self.dirs = dirs

    @hookimpl
    def tooldrop_tool_dirs(self) -> list[ToolDir]:
        return list(self.dirs)


def test_extra_dirs_from_plugins_load_in_scope_order(make_host, tool_writer, tmp_path, project):
    team = tmp_path / "team-tools"
    team.mkdir()
    tool_writer(team, "t.json", name="shared", description="team")
    tool_writer(project / ".tooldrop" / "tools", "p.json", name="shared", description="project")
    host = make_host(ExtraDirs(ToolDir(path=team, scope="plugin")))
    assert host.get("shared").description == "project"
    assert host.get("shared").origin.scope == "project"


def test_missing_directories_are_the_normal_case(make_host, tmp_path):
    host = make_host(project_dir=tmp_path / "nowhere", user_dir=tmp_path / "nobody")
    assert host.all_tools() == []
    assert host.problems() == []


def test_plugin_registered_tools_are_stamped_with_their_plugin(make_host, tool_pack, spec_factory):
    host = make_host(tool_pack(spec_factory("packed")))
    spec = host.get("packed")
    assert spec.origin.scope == "plugin"
    assert spec.origin.source.startswith("entrypoint:")


def test_personal_tools_override_plugin_tools(
    make_host, tool_pack, spec_factory, tool_writer, user_dir
):
    tool_writer(user_dir / "tools", "mine.json", name="packed", description="mine")
    host = make_host(tool_pack(spec_factory("packed")))
    assert host.get("packed").description == "mine"


def test_a_failing_tool_pack_keeps_what_it_registered(make_host, spec_factory):
    class Pack:
        @hookimpl
        def tooldrop_register_tools(self, register) -> None:
            register(spec_factory("kept"))
            register("not a tool")
            raise RuntimeError("pack bug")

    host = make_host(Pack())
    assert host.get("kept") is not None
    messages = [p.message for p in host.problems()]
    assert any("pack bug" in m for m in messages)
    assert any("cannot register 'str'" in m for m in messages)


def test_name_prefixes_apply_by_source(make_host, tool_writer, project):
    tool_writer(project / ".tooldrop" / "tools", "w.json", name="weather")
    host = make_host(name_prefixes={"json": "custom__"})
    assert names(host) == ["custom__weather"]


class Linter:
    @hookimpl
    def tooldrop_validate_spec(self, spec: ToolSpec):
        from tooldrop import Problem

        if spec.name.startswith("bad"):
            return [Problem(path=spec.origin.path, message="bad names are bad")]
        if spec.name.startswith("meh"):
            return [Problem(path=spec.origin.path, message="meh", severity="warning")]
        return None


def test_validate_spec_errors_refuse_a_tool_and_warnings_do_not(make_host, tool_writer, project):
    tools = project / ".tooldrop" / "tools"
    tool_writer(tools, "a.json", name="bad_tool")
    tool_writer(tools, "b.json", name="meh_tool")
    host = make_host(Linter())
    assert names(host) == ["meh_tool"]
    assert sorted(p.severity for p in host.problems()) == ["error", "warning"]


def test_reload_keeps_the_last_good_version_of_a_file_that_now_fails(
    make_host, tool_writer, project
):
    tools = project / ".tooldrop" / "tools"
    path = tool_writer(tools, "t.json", name="stable", description="v1")
    host = make_host()
    assert host.get("stable").description == "v1"
    path.write_text("{broken")
    host.reload()
    assert host.get("stable").description == "v1"
    assert any("keeping its last good version" in p.message for p in host.problems())
    tool_writer(tools, "t.json", name="stable", description="v2")
    host.reload()
    assert host.get("stable").description == "v2"
    assert host.problems() == []


def test_reload_picks_up_new_and_removed_files(make_host, tool_writer, project):
    tools = project / ".tooldrop" / "tools"
    host = make_host()
    assert names(host) == []
    path = tool_writer(tools, "n.json", name="new_tool")
    host.reload()
    assert names(host) == ["new_tool"]
    path.unlink()
    host.reload()
    assert names(host) == []


def test_app_names_the_project_folder(make_host, tool_writer, project):
    folder = project / ".nanocoder" / "tools"
    folder.mkdir(parents=True)
    tool_writer(folder, "k.json", name="k8s_pods")
    assert names(make_host(app="nanocoder")) == ["k8s_pods"]
    assert names(make_host()) == []
