"""``tooldrop_scaffold`` for kind ``toml``: a file that loads cleanly and runs."""

from __future__ import annotations

import pytest

import tooldrop_toml.plugin


def test_the_scaffold_loads_and_runs(tools_dir, make_host):
    host = make_host()
    file_name, text = host.hook.tooldrop_scaffold(name="say-hello", kind="toml", host=host)
    assert file_name == "say-hello.toml"
    (tools_dir / file_name).write_text(text)
    host.reload()
    assert host.problems() == []
    host.trust()
    result = host.call("say_hello", {"who": "world"}, ask=lambda call: True)
    assert result.text == "EXIT_CODE: 0\nhello world"


def test_other_kinds_are_left_to_other_plugins():
    assert tooldrop_toml.plugin.tooldrop_scaffold(name="x", kind="markdown") is None


@pytest.mark.parametrize("name", ["9lives", "My.Tool", "a b"])
def test_a_name_that_cannot_be_a_tool_is_refused(name):
    with pytest.raises(ValueError, match="cannot become a tool name"):
        tooldrop_toml.plugin.tooldrop_scaffold(name=name, kind="toml")


def test_tooldrop_new_kind_toml_writes_it(tmp_path, monkeypatch):
    from click.testing import CliRunner

    import tooldrop.approval
    import tooldrop_shell
    from tooldrop.cli import build_cli, load_plugin_set

    monkeypatch.chdir(tmp_path)
    group = build_cli(
        load_plugin_set([tooldrop.approval, tooldrop_shell.plugin, tooldrop_toml.plugin])
    )
    runner = CliRunner()
    made = runner.invoke(
        group, ["--user-dir", str(tmp_path / "u"), "new", "say-hello", "--kind", "toml"]
    )
    assert made.exit_code == 0, made.output
    assert (tmp_path / ".tooldrop" / "tools" / "say-hello.toml").exists()
    checked = runner.invoke(group, ["--user-dir", str(tmp_path / "u"), "check"])
    assert checked.exit_code == 0, checked.output
    both = runner.invoke(group, ["new", "x", "--kind", "toml", "--python"])
    assert both.exit_code == 1
    assert "give one" in both.output
    unknown = runner.invoke(group, ["new", "x", "--kind", "yaml"])
    assert unknown.exit_code == 1
    assert "no plugin writes yaml tools" in unknown.output
