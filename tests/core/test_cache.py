"""The parse cache: unchanged files are not loaded again; anything doubtful is."""

from __future__ import annotations

import io
import os
import pickle
import sys
import time
from pathlib import Path, PurePosixPath, PureWindowsPath

import pytest

import tooldrop.approval
import tooldrop.host._cache
from tooldrop import ToolHost


@pytest.fixture
def loader(core_plugins):
    return core_plugins[2]


@pytest.fixture
def host_for(project, user_dir, core_plugins):
    def make(**options) -> ToolHost:
        return ToolHost(project_dir=project, user_dir=user_dir, plugins=core_plugins, **options)

    return make


@pytest.fixture
def tools(project, tool_writer):
    folder = project / ".tooldrop" / "tools"
    for i in range(3):
        path = tool_writer(folder, f"t{i}.json", name=f"tool_{i}")
        old = time.time() - 60  # quiet for a minute: past the racy window
        os.utime(path, (old, old))
    return folder


def cache_files(host: ToolHost):
    return sorted(host.cache_dir.rglob("discovery/*.pickle"))


def test_a_second_host_does_not_load_unchanged_files_again(host_for, loader, tools):
    assert len(host_for().all_tools()) == 3
    assert loader.loaded == ["t0.json", "t1.json", "t2.json"]
    loader.loaded.clear()
    host = host_for()
    assert [s.name for s in host.all_tools()] == ["tool_0", "tool_1", "tool_2"]
    assert loader.loaded == []
    assert host.get("tool_1").origin.path == tools / "t1.json"


def test_an_edited_file_is_loaded_again_even_with_its_mtime_forged_back(
    host_for, loader, tools, tool_writer
):
    host_for().all_tools()
    path = tools / "t1.json"
    before = path.stat()
    tool_writer(tools, "t1.json", name="tool_X")  # same length
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    loader.loaded.clear()
    host = host_for()
    assert host.get("tool_X") is not None
    assert loader.loaded == ["t1.json"]


def test_files_changed_just_now_are_not_cached(host_for, loader, project, tool_writer):
    tool_writer(project / ".tooldrop" / "tools", "fresh.json", name="fresh")
    host_for().all_tools()
    loader.loaded.clear()
    host_for().all_tools()
    assert loader.loaded == ["fresh.json"]


def test_deleted_and_new_files_are_noticed(host_for, loader, tools, tool_writer):
    host_for().all_tools()
    (tools / "t0.json").unlink()
    tool_writer(tools, "t9.json", name="tool_9")
    names = [s.name for s in host_for().all_tools()]
    assert names == ["tool_1", "tool_2", "tool_9"]


def test_problems_are_cached_with_their_file(host_for, loader, tools):
    broken = tools / "bad.json"
    broken.write_text("{nope")
    old = time.time() - 60
    os.utime(broken, (old, old))
    first = host_for().problems()
    loader.loaded.clear()
    assert host_for().problems() == first
    assert loader.loaded == []


@pytest.mark.parametrize(
    "damage",
    [
        lambda f: f.write_bytes(b"not a pickle"),
        lambda f: f.write_bytes(f.read_bytes()[:20]),
        lambda f: f.write_bytes(pickle.dumps({"format": 999, "fingerprint": "x", "entries": {}})),
        lambda f: f.write_bytes(pickle.dumps(["a", "list"])),
        lambda f: f.write_bytes(
            pickle.dumps({**pickle.loads(f.read_bytes()), "fingerprint": "other"})
        ),
        lambda f: f.write_bytes(
            pickle.dumps({**pickle.loads(f.read_bytes()), "entries": {"t0.json": "junk"}})
        ),
        lambda f: f.chmod(0o666),
    ],
    ids=[
        "garbage",
        "truncated",
        "old-format",
        "wrong-shape",
        "other-plugins",
        "bad-entry",
        "world-writable",
    ],
)
def test_a_damaged_or_foreign_cache_is_ignored_and_rewritten(host_for, loader, tools, damage):
    host_for().all_tools()
    [file] = cache_files(host_for())
    damage(file)
    loader.loaded.clear()
    host = host_for()
    assert len(host.all_tools()) == 3
    assert loader.loaded == ["t0.json", "t1.json", "t2.json"]
    loader.loaded.clear()
    if os.stat(file).st_mode & 0o022:
        file.chmod(0o600)  # the rewrite replaces the file; keep the test honest about why
    host_for().all_tools()
    assert loader.loaded == []


def test_the_cache_file_is_private(host_for, tools):
    host_for().all_tools()
    [file] = cache_files(host_for())
    assert file.stat().st_mode & 0o077 == 0


def test_a_changed_loader_voids_the_cache(host_for, loader, tools, monkeypatch):
    host_for().all_tools()
    monkeypatch.setattr(tooldrop.host._cache, "CACHE_FORMAT", tooldrop.host._cache.CACHE_FORMAT + 1)
    loader.loaded.clear()
    host_for().all_tools()
    assert len(loader.loaded) == 3


def test_results_that_are_not_cacheable_are_always_loaded(
    project, user_dir, echo, tool_writer, tools
):
    from tooldrop import LoadResult, hookimpl

    class Uncached:
        calls = 0

        @hookimpl(tryfirst=True)
        def tooldrop_load_file(self, path):
            Uncached.calls += 1
            return LoadResult()

    for _ in range(2):
        ToolHost(project_dir=project, user_dir=user_dir, plugins=[Uncached(), echo]).all_tools()
    assert Uncached.calls == 6


@pytest.mark.parametrize("how", ["argument", "environment"])
def test_the_cache_can_be_turned_off(host_for, loader, tools, monkeypatch, how):
    if how == "environment":
        monkeypatch.setenv("TOOLDROP_NO_CACHE", "1")
        options = {}
    else:
        options = {"cache": False}
    host_for(**options).all_tools()
    loader.loaded.clear()
    host_for(**options).all_tools()
    assert len(loader.loaded) == 3
    assert cache_files(host_for()) == []


def test_reload_uses_the_cache_too(host_for, loader, tools):
    host = host_for()
    host.all_tools()
    loader.loaded.clear()
    host.reload()
    assert loader.loaded == []
    assert tooldrop.approval  # the default policy is part of every host here


def test_an_edited_module_of_a_loader_voids_the_cache(tmp_path, monkeypatch):

    from tooldrop.host._cache import fingerprint

    package = tmp_path / "pkg_under_edit"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "plugin.py").write_text("X = 1\n")
    (package / "_helper.py").write_text("Y = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import pkg_under_edit.plugin as plugin

    before = fingerprint([("p", "1.0", plugin)])
    assert fingerprint([("p", "1.0", plugin)]) == before
    helper = package / "_helper.py"
    stamp = helper.stat().st_mtime_ns + 5_000_000_000
    os.utime(helper, ns=(stamp, stamp))
    assert fingerprint([("p", "1.0", plugin)]) != before
    assert fingerprint([("p", "1.1", plugin)]) != before
    sys.modules.pop("pkg_under_edit.plugin")
    sys.modules.pop("pkg_under_edit")


def test_a_cached_result_is_the_result_the_loader_gave(host_for, loader, tools):
    broken = tools / "bad.json"
    broken.write_text("{nope")
    old = time.time() - 60
    os.utime(broken, (old, old))
    cold = host_for(cache=False)
    cold_tools, cold_problems = cold.all_tools(), cold.problems()
    host_for().all_tools()  # fills the cache
    loader.loaded.clear()
    warm = host_for()
    assert warm.all_tools() == cold_tools
    assert warm.problems() == cold_problems
    assert loader.loaded == []
    for spec in warm.all_tools():
        assert type(spec.origin.path) is type(tools)
        assert str(spec.origin.path) == str(tools / f"t{spec.name[-1]}.json")


@pytest.mark.parametrize(
    "path",
    [
        PurePosixPath("/"),
        PurePosixPath("/a"),
        PurePosixPath("//a/b"),
        PurePosixPath("a/b/c.md"),
        PurePosixPath("."),
        PurePosixPath("a"),
        PurePosixPath("/a/b/.."),
        PureWindowsPath("C:/tools/x.md"),
        PureWindowsPath("C:x.md"),
        PureWindowsPath("C:"),
        PureWindowsPath("//server/share/x.md"),
        PureWindowsPath("//server/share/"),
        Path.cwd() / "tools" / "x.md",
    ],
    ids=str,
)
def test_paths_come_back_equal_and_of_their_type(path):
    from tooldrop import LoadResult, Origin, Problem, ToolSpec
    from tooldrop.host._cache import _Pickler

    spec = ToolSpec(
        name="t",
        description="d",
        input_schema={"type": "object"},
        origin=Origin(source="s", scope="project", path=Path("/x/t.md"), line=1),
        runner="r",
        payload=[path],
    )
    result = LoadResult(tools=[spec], problems=[Problem(message="m", path="/x/t.md")])
    buffer = io.BytesIO()
    _Pickler(buffer).dump({"p": path, "r": result, "again": path.parent})
    back = pickle.loads(buffer.getvalue())
    assert back["p"] == path and type(back["p"]) is type(path) and str(back["p"]) == str(path)
    assert back["again"] == path.parent
    assert back["r"] == result
    assert back["r"].tools[0].origin.path == Path("/x/t.md")


def test_a_cache_written_for_other_model_fields_is_ignored(host_for, loader, tools, monkeypatch):
    host_for().all_tools()
    monkeypatch.setattr(tooldrop.host._cache, "_LAYOUT", "ToolSpec(name,description)")
    loader.loaded.clear()
    host_for().all_tools()
    assert len(loader.loaded) == 3


class _Mismatched:
    """Unpickles as a LoadResult restored from too few stored fields."""

    def __reduce__(self):
        from tooldrop import LoadResult

        return tooldrop.host._cache._restore, (LoadResult, ((),))


class _Foreign:
    """Unpickles through the restore helper with a class it does not restore."""

    def __reduce__(self):
        return tooldrop.host._cache._restore, (dict, ())


@pytest.mark.parametrize("junk", [_Mismatched(), _Foreign()], ids=["fields", "class"])
def test_stored_objects_that_do_not_fit_void_the_cache(host_for, loader, tools, junk):
    host_for().all_tools()
    [file] = cache_files(host_for())
    data = pickle.loads(file.read_bytes())
    entry = data["entries"]["t0.json"]
    data["entries"]["t0.json"] = (*entry[:5], junk)
    file.write_bytes(pickle.dumps(data))
    loader.loaded.clear()
    assert len(host_for().all_tools()) == 3
    assert loader.loaded == ["t0.json", "t1.json", "t2.json"]


@pytest.mark.parametrize("was_enabled", [True, False])
@pytest.mark.parametrize("damaged", [False, True])
def test_loading_the_cache_leaves_the_cyclic_gc_as_it_was(host_for, tools, was_enabled, damaged):
    # The GC is paused while the cache is unpickled (it would only walk the new objects
    # again and again); the application's own setting is kept, whatever happens.
    import gc

    host_for().all_tools()
    if damaged:
        [file] = cache_files(host_for())
        file.write_bytes(file.read_bytes()[:-30])
    (gc.enable if was_enabled else gc.disable)()
    try:
        assert len(host_for().all_tools()) == 3
        assert gc.isenabled() is was_enabled
    finally:
        gc.enable()


@pytest.mark.parametrize(
    "junk",
    ["junk", (1, 2, 3), ("a", "b", "c", "d", "e", "f"), None],
    ids=["text", "short", "no-result", "none"],
)
def test_an_entry_that_is_not_ours_is_ignored_alone(host_for, loader, tools, junk):
    host_for().all_tools()
    [file] = cache_files(host_for())
    data = pickle.loads(file.read_bytes())
    data["entries"]["t1.json"] = junk
    data["entries"][("not", "a", "name")] = junk
    file.write_bytes(pickle.dumps(data))
    loader.loaded.clear()
    assert [s.name for s in host_for().all_tools()] == ["tool_0", "tool_1", "tool_2"]
    assert loader.loaded == ["t1.json"]
    loader.loaded.clear()
    host_for().all_tools()
    assert loader.loaded == []
    assert sorted(pickle.loads(file.read_bytes())["entries"]) == ["t0.json", "t1.json", "t2.json"]


def test_objects_the_application_froze_stay_frozen(host_for, tools):
    # Loaded tools are moved to the oldest GC generation with freeze/unfreeze, which would
    # also thaw what the application itself froze (say, before forking workers).
    import gc

    host_for().all_tools()
    gc.freeze()
    try:
        assert gc.get_freeze_count() > 0
        assert len(host_for().all_tools()) == 3
        assert gc.get_freeze_count() > 0  # thawing would have emptied it
    finally:
        gc.unfreeze()
    assert len(host_for().all_tools()) == 3
    assert gc.get_freeze_count() == 0


NAMES = ["x.md", "a b", "..", "...", ".x", "x.", "é😀", "a\\b", "C:x", "-", " ", "a\0b", "x" * 300]


@pytest.mark.parametrize("name", [*NAMES, ".", "", "a/b", "/abs", "a//", "./x"], ids=repr)
@pytest.mark.parametrize(
    "parent",
    [Path("/tmp/tools"), Path("/"), Path("//net"), Path("rel/dir"), Path(), PurePosixPath("/p")],
    ids=str,
)
def test_joined_paths_are_joinpath(parent, name):
    from tooldrop.host._cache import joined_path

    expected = parent.joinpath(name)
    for made in (joined_path(parent, name), pickle.loads(pickle.dumps(joined_path(parent, name)))):
        assert made == expected
        assert type(made) is type(expected)
        assert str(made) == str(expected)
        assert made.parts == expected.parts
        assert made.parent == expected.parent and made.name == expected.name
        assert hash(made) == hash(expected)


def test_the_scan_gives_loaders_the_path_of_each_entry(host_for, tools):
    host = host_for(cache=False)
    paths = {s.origin.path for s in host.all_tools()}
    assert paths == {Path(entry.path) for entry in os.scandir(tools)}
