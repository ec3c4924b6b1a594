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
