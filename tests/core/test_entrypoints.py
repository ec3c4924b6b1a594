"""The entry-point reader against importlib.metadata, on real installed distributions.

The reader exists to keep ``importlib.metadata`` out of every start-up; these tests hold it to
the same answers, on this environment's distributions and on folders written as pip writes
them, and check that what it does not handle goes to importlib.metadata.
"""

from __future__ import annotations

import importlib.metadata
import re
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldrop.host._entrypoints import DistInfo, EntryPoint, _normalize, entry_points


def ours(group: str) -> list[tuple[str, str, str | None, str | None]]:
    found = entry_points(group)
    assert found is not None
    return sorted((e.name, e.value, e.dist.name, e.dist.version) for e in found)


def theirs(group: str) -> list[tuple[str, str, str | None, str | None]]:
    found = importlib.metadata.entry_points(group=group)
    return sorted((e.name, e.value, e.dist.metadata["Name"], e.dist.version) for e in found)


def test_every_group_of_this_environment_reads_as_importlib_metadata_reads_it():
    groups = {ep.group for d in importlib.metadata.distributions() for ep in d.entry_points}
    assert {"tooldrop", "console_scripts"} <= groups
    for group in sorted(groups):
        assert ours(group) == theirs(group), group


def test_the_installed_plugins_load_to_the_same_objects():
    expected = {ep.name: ep.load() for ep in importlib.metadata.entry_points(group="tooldrop")}
    found = entry_points("tooldrop")
    assert found is not None
    assert {ep.name: ep.load() for ep in found} == expected


def dist(site: Path, folder: str, name: str, version: str, entry_points_txt: str) -> None:
    info = site / folder
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(entry_points_txt)


@pytest.fixture
def on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[Path]:
    """Two site folders first on sys.path (monkeypatch restores it)."""
    sites = [tmp_path / "a", tmp_path / "b"]
    for site in sites:
        site.mkdir()
    monkeypatch.setattr(sys, "path", [*map(str, sites), *sys.path])
    importlib.invalidate_caches()  # importlib.metadata caches folder listings by mtime
    return sites


def test_the_first_distribution_of_a_name_on_sys_path_shadows_the_later_ones(on_path):
    first, second = on_path
    dist(first, "My_Pack-2.0.dist-info", "my-pack", "2.0", "[probe]\nnew = pack.new\n")
    dist(second, "my.pack-1.0.dist-info", "my.pack", "1.0", "[probe]\nold = pack.old\n")
    dist(second, "other-0.1.egg-info", "other", "0.1", "[probe]\n other = o : attr [x] \n")
    assert ours("probe") == theirs("probe")
    assert [(name, version) for name, _, _, version in ours("probe")] == [
        ("new", "2.0"),
        ("other", "0.1"),
    ]


def test_comments_blank_lines_and_other_sections_are_skipped(on_path):
    text = "# a comment\n\n[other]\nx = nope\n[probe]\n\n# another\n  a  =  mod.a:f  \n"
    text += "[more]\ny=z\n"
    dist(on_path[0], "pack-1.dist-info", "pack", "1", text)
    assert ours("probe") == theirs("probe") == [("a", "mod.a:f", "pack", "1")]


def test_a_line_without_equals_is_skipped_where_importlib_metadata_would_raise(on_path):
    dist(on_path[0], "pack-1.dist-info", "pack", "1", "[probe]\nbroken line\nok = mod\n")
    dist(on_path[1], "clean-1.dist-info", "clean", "1", "[probe]\nfine = mod2\n")
    # (importlib.metadata's entry_points() raises for every group, whoever asks.)
    assert [name for name, *_ in ours("probe")] == ["fine", "ok"]


def test_a_zip_on_sys_path_is_left_to_importlib_metadata(on_path, tmp_path):
    archive = tmp_path / "site.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("zipped-1.dist-info/METADATA", "Name: zipped\nVersion: 1\n")
        handle.writestr("zipped-1.dist-info/entry_points.txt", "[probe]\nz = zmod\n")
    sys.path.insert(0, str(archive))
    assert entry_points("probe") is None
    assert theirs("probe") == [("z", "zmod", "zipped", "1")]


def test_a_meta_path_finder_with_distributions_of_its_own_is_left_to_importlib_metadata(
    monkeypatch: pytest.MonkeyPatch,
):
    class Finder:
        @staticmethod
        def find_distributions(context: object) -> list[object]:
            return []

        @staticmethod
        def find_spec(*args: object) -> None:
            return None

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder])
    assert entry_points("tooldrop") is None


def test_load_follows_module_and_attributes_and_refuses_a_malformed_value():
    info = DistInfo("/nowhere")
    assert EntryPoint("j", "json", "g", info).load() is importlib.import_module("json")
    path_join = EntryPoint("p", "os.path : join", "g", info).load()
    assert path_join is importlib.import_module("os.path").join
    with pytest.raises(ValueError, match="not module"):
        EntryPoint("bad", "not a module!", "g", info).load()
    assert info.name is None and info.version is None  # no metadata file: nothing known


@given(st.text(alphabet="aZ9-_.", max_size=12))
def test_names_normalize_as_pep_503_with_underscores(name):
    assert _normalize(name) == re.sub(r"[-_.]+", "_", name).lower()
