"""The files trust and grants live in, as a person finds them on disk (issue 21's survivors).

Each test reads ``trust.json`` / ``grants.json`` back, or the digest that decides whether a
project is still trusted: a regression here would pass every test that looks only at flags.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tooldrop import Origin
from tooldrop.policy._grants import GrantStore, write_json_atomic
from tooldrop.policy._trust import TrustStore, project_digest


def test_revoking_one_project_keeps_every_other_projects_trust(tmp_path):
    store = TrustStore(tmp_path / "config" / "trust.json")
    one, two, three = (tmp_path / n for n in ("one", "two", "three"))
    store.trust(one, "d1")
    store.trust(two, "d2")
    store.trust(three, "d3")
    assert store.revoke(two) is True
    on_disk = json.loads(store.path.read_text())
    assert on_disk["version"] == 1
    assert sorted(on_disk["projects"]) == sorted([str(one), str(three)])
    assert {k: v["digest"] for k, v in on_disk["projects"].items()} == {
        str(one): "d1",
        str(three): "d3",
    }
    assert (store.digest_for(one), store.digest_for(two), store.digest_for(three)) == (
        "d1",
        None,
        "d3",
    )
    before = store.path.read_text()
    assert store.revoke(two) is False  # nothing to revoke: the file is left as it was
    assert store.path.read_text() == before


def test_trust_records_when_and_survives_a_file_of_another_shape(tmp_path):
    store = TrustStore(tmp_path / "trust.json")
    for data in ({"version": 2, "projects": {}}, {"version": 1, "projects": []}, []):
        store.path.write_text(json.dumps(data))
        assert store.digest_for(tmp_path) is None, data
    store.path.write_text(json.dumps({"version": 1, "projects": {str(tmp_path): "d"}}))
    assert store.digest_for(tmp_path) is None  # a record that is not a mapping trusts nothing
    store.path.write_text(json.dumps({"version": 1, "projects": {str(tmp_path): {"digest": 7}}}))
    assert store.digest_for(tmp_path) is None  # nor one whose digest is not a string
    store.trust(tmp_path, "d")
    record = json.loads(store.path.read_text())["projects"][str(tmp_path)]
    assert record["digest"] == "d"
    assert record["trusted_at"].endswith("+00:00")


def test_state_files_are_written_again_and_again_into_a_new_config_dir(tmp_path):
    """The config dir does not exist before the first write, and exists at the second."""
    path = tmp_path / "new" / "deeper" / "state.json"
    write_json_atomic(path, {"a": 1})
    write_json_atomic(path, {"a": 2})
    assert path.read_text() == '{\n  "a": 2\n}\n'
    assert sorted(p.name for p in path.parent.iterdir()) == ["state.json"]  # no temp left


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path):
    path = tmp_path / "state.json"
    write_json_atomic(path, {"old": True})
    with pytest.raises(TypeError):
        write_json_atomic(path, {"new": object()})  # not JSON: fails mid-write
    assert json.loads(path.read_text()) == {"old": True}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.json"]


def _spec(spec_factory, name, path, digest="h1"):
    return spec_factory(
        name,
        origin=Origin(source="json", scope="project", path=Path(path), content_hash=digest),
    )


def test_the_project_digest_covers_config_yaml_and_each_tools_file(tmp_path, spec_factory):
    config = tmp_path / "config.yaml"
    a = _spec(spec_factory, "a", tmp_path / "a.json")
    base = project_digest([a], config)
    assert len(base) == 64
    config.write_text("alwaysAllow: [a]\n")
    with_config = project_digest([a], config)
    assert with_config != base  # a new config.yaml voids trust
    config.write_text("alwaysAllow: [b]\n")
    assert project_digest([a], config) not in (base, with_config)  # so does an edit
    moved = _spec(spec_factory, "a", tmp_path / "elsewhere.json")
    assert project_digest([moved], config) != project_digest([a], config)
    assert project_digest([_spec(spec_factory, "a", tmp_path / "a.json", "h2")], config) != (
        project_digest([a], config)
    )
    personal = spec_factory("p", origin=Origin(source="json", scope="personal", content_hash="x"))
    assert project_digest([a, personal], config) == project_digest([a], config)
    config.unlink()
    config.mkdir()  # unreadable config: digests apart from an absent one
    assert project_digest([a], config) != base


def test_the_project_digest_covers_every_skill_file(tmp_path, spec_factory):
    config, skills = tmp_path / "config.yaml", tmp_path / "skills"
    (skills / "one").mkdir(parents=True)
    (skills / "one" / "skill.yaml").write_text("name: one\n")
    first = project_digest([], config, skills)
    assert first != project_digest([], config)
    (skills / "one" / "skill.yaml").write_text("name: one\nagents: [x]\n")
    second = project_digest([], config, skills)
    assert second != first
    (skills / "one" / "run.sh").write_text("echo\n")
    third = project_digest([], config, skills)
    assert third != second
    # A file name that is not UTF-8 digests too (surrogate escapes), apart from another.
    (skills / os.fsdecode(b"\xff.sh")).write_text("echo\n")
    fourth = project_digest([], config, skills)
    assert fourth not in (first, second, third)
    (skills / os.fsdecode(b"\xff.sh")).rename(skills / os.fsdecode(b"\xfe.sh"))
    assert project_digest([], config, skills) != fourth
    # A FIFO is refused unread (never waited on), and still counts, apart from a file.
    fifo = skills / "one" / "pipe"
    os.mkfifo(fifo)
    with_fifo = project_digest([], config, skills)
    fifo.unlink()
    fifo.write_text("")
    assert project_digest([], config, skills) != with_fifo


def _grants_file(tmp_path, data):
    path = tmp_path / "grants.json"
    path.write_text(json.dumps(data))
    return GrantStore(path, tmp_path.resolve(), tmp_path / "config")


def test_old_grants_whose_grants_is_not_a_mapping_say_nothing(tmp_path):
    for grants in ([["hash"]], "guarded", None):
        store = _grants_file(tmp_path, {"version": 1, "grants": grants})
        assert (store.all(), store.notices()) == ([], []), grants


def test_old_grants_are_named_in_a_notice_and_revoked_only_everywhere(tmp_path, spec_factory):
    store = _grants_file(tmp_path, {"version": 1, "grants": {"b": ["h"], "a": ["h", "i"]}})
    (notice,) = store.notices()
    assert notice.severity == "info"
    assert notice.field == "grants"
    assert notice.path == store.path
    assert notice.message.startswith("3 remembered grants of an older tooldrop (a, b) are ignored")
    assert "`tooldrop grants --revoke-all` drops them" in notice.message
    # remember() keeps them in the file, so the notice goes on until the person acts.
    spec = _spec(spec_factory, "t", tmp_path / "t.json")
    store.remember(spec)
    on_disk = json.loads(store.path.read_text())
    assert on_disk["version"] == GrantStore.VERSION
    assert on_disk["ignored_version_1"] == {"b": ["h"], "a": ["h", "i"]}
    (grant,) = on_disk["grants"]
    assert (grant["name"], grant["hash"], grant["scope"]) == ("t", "h1", "project")
    assert grant["place"] == str(tmp_path.resolve())
    assert grant["granted_at"].endswith("+00:00")  # `tooldrop grants` shows when
    assert store.all()[0].granted_at == grant["granted_at"]
    granted = store.all()
    assert len(granted) == 1
    assert store.revoke() == granted  # here only: the old ones stay
    assert json.loads(store.path.read_text())["ignored_version_1"] == {"b": ["h"], "a": ["h", "i"]}
    store.revoke("a", everywhere=True)
    assert json.loads(store.path.read_text())["ignored_version_1"] == {"b": ["h"]}
    (notice,) = store.notices()
    assert notice.message.startswith("1 remembered grant of an older tooldrop (b) are ignored")
    store.revoke(everywhere=True)
    assert "ignored_version_1" not in json.loads(store.path.read_text())
    assert store.notices() == []


def test_revoking_one_tool_keeps_the_others_grants_on_disk(tmp_path, spec_factory):
    store = _grants_file(tmp_path, {"version": GrantStore.VERSION, "grants": []})
    one, two = (_spec(spec_factory, n, tmp_path / f"{n}.json") for n in ("one", "two"))
    store.remember(one)
    store.remember(one)  # twice: remembered once
    store.remember(two)
    assert [g["name"] for g in json.loads(store.path.read_text())["grants"]] == ["one", "two"]
    (gone,) = store.revoke("one")
    assert gone.name == "one"
    assert [g["name"] for g in json.loads(store.path.read_text())["grants"]] == ["two"]
    assert (store.is_granted(one), store.is_granted(two)) == (False, True)
    mtime = os.stat(store.path).st_mtime_ns
    assert store.revoke("one") == []  # nothing to forget: nothing written
    assert os.stat(store.path).st_mtime_ns == mtime


def test_a_grant_with_a_field_that_is_not_a_string_answers_for_nothing(tmp_path, spec_factory):
    """A hand-edited entry (a number, a list, an empty string) grants nothing, and the next
    grant written leaves it out: only whole grants of four strings are read back."""
    spec = _spec(spec_factory, "5", tmp_path / "5.json")
    whole = {"name": "5", "hash": "h1", "scope": "project", "place": str(tmp_path.resolve())}
    for field, bad in [("name", 5), ("hash", ["h1"]), ("scope", None), ("place", ""), ("hash", 0)]:
        store = _grants_file(tmp_path, {"version": 2, "grants": [{**whole, field: bad}]})
        assert store.all() == [], (field, bad)
        assert store.is_granted(spec) is False, (field, bad)
    store = _grants_file(tmp_path, {"version": 2, "grants": [{**whole, "name": 5}, whole]})
    (grant,) = store.all()
    assert grant.name == "5"
    assert store.is_granted(spec) is True
    store.remember(_spec(spec_factory, "other", tmp_path / "other.json"))
    on_disk = json.loads(store.path.read_text())["grants"]
    assert [(g["name"], g["hash"]) for g in on_disk] == [("5", "h1"), ("other", "h1")]


def test_grants_json_is_read_up_to_sixteen_mebibytes_and_not_a_byte_more(tmp_path, spec_factory):
    spec = _spec(spec_factory, "t", tmp_path / "t.json")
    grant = {"name": "t", "hash": "h1", "scope": "project", "place": str(tmp_path.resolve())}
    text = json.dumps({"version": 2, "grants": [grant]})
    store = GrantStore(tmp_path / "grants.json", tmp_path.resolve(), tmp_path / "config")
    store.path.write_text(text + " " * (16 * 1024 * 1024 - len(text)))
    assert store.path.stat().st_size == 16 * 1024 * 1024
    assert store.is_granted(spec) is True
    store.path.write_text(text + " " * (16 * 1024 * 1024 - len(text) + 1))
    assert store.is_granted(spec) is False  # too big: read as absent, never half read


def test_a_plugin_tools_grant_is_bound_to_its_folder_or_else_its_plugin(tmp_path, spec_factory):
    store = GrantStore(tmp_path / "grants.json", tmp_path.resolve(), tmp_path / "config")

    def plugin_tool(path):
        origin = Origin(source="entrypoint:x", scope="plugin", path=path, content_hash="h1")
        return spec_factory("t", origin=origin)

    here, there, pathless = (
        plugin_tool(p) for p in (tmp_path / "a" / "t.md", tmp_path / "b" / "t.md", None)
    )
    store.remember(here)
    assert (store.is_granted(here), store.is_granted(there), store.is_granted(pathless)) == (
        True,
        False,
        False,
    )
    store.remember(pathless)
    places = [(g["scope"], g["place"]) for g in json.loads(store.path.read_text())["grants"]]
    assert places == [("plugin", str((tmp_path / "a").resolve())), ("plugin", "entrypoint:x")]
    assert store.is_granted(there) is False


def test_revoking_here_takes_this_config_dirs_and_plugin_grants_not_another_config_dirs(
    tmp_path, spec_factory
):
    config = tmp_path / "config"
    store = GrantStore(tmp_path / "grants.json", tmp_path.resolve(), config)
    other = GrantStore(store.path, tmp_path.resolve(), tmp_path / "elsewhere")

    def tool(name, scope, path):
        origin = Origin(source="json", scope=scope, path=path, content_hash="h1")
        return spec_factory(name, origin=origin)

    mine = tool("mine", "personal", config / "tools" / "mine.json")
    theirs = tool("theirs", "personal", tmp_path / "elsewhere" / "tools" / "theirs.json")
    plugged = tool("plugged", "plugin", tmp_path / "plugin" / "plugged.md")
    store.remember(mine)
    other.remember(theirs)
    store.remember(plugged)
    assert [store.is_here(g) for g in store.all()] == [True, False, True]
    assert sorted(g.name for g in store.revoke()) == ["mine", "plugged"]
    assert [g["name"] for g in json.loads(store.path.read_text())["grants"]] == ["theirs"]
    assert other.is_granted(theirs) is True


def test_forget_drops_one_tools_grants_given_here(tmp_path, spec_factory):
    store = _grants_file(tmp_path, {"version": GrantStore.VERSION, "grants": []})
    one, two = (_spec(spec_factory, n, tmp_path / f"{n}.json") for n in ("one", "two"))
    store.remember(one)
    store.remember(two)
    store.forget("one")
    assert [g["name"] for g in json.loads(store.path.read_text())["grants"]] == ["two"]
