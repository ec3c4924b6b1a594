"""Markdown load results can be cached: they say so, and they survive a pickle round trip."""

from __future__ import annotations

import os
import pickle
import time

from tooldrop import ToolHost
from tooldrop_markdown import plugin

TOOL = """---
name: greet
description: Say hello.
parameters:
  who:
    type: string
    pattern: '^[a-z]+$'
---
echo hello {{ who }}{{# who }}!{{/ who }}
"""


def test_results_are_cacheable_and_pickle_to_an_equal_result(tmp_path):
    path = tmp_path / "greet.md"
    path.write_text(TOOL)
    broken = tmp_path / "broken.md"
    broken.write_text("---\nname: 1\n---\n")
    for file in (path, broken):
        result = plugin.tooldrop_load_file(path=file, scope="project", host=None)
        assert result.cacheable
        assert pickle.loads(pickle.dumps(result)) == result


def test_a_cached_tool_renders_and_runs_like_a_parsed_one(tmp_path):
    tools = tmp_path / "user" / "tools"
    tools.mkdir(parents=True)
    (tools / "greet.md").write_text(TOOL)
    old = time.time() - 60
    os.utime(tools / "greet.md", (old, old))

    def host() -> ToolHost:
        import tooldrop.approval
        import tooldrop_shell

        return ToolHost(
            project_dir=tmp_path,
            user_dir=tmp_path / "user",
            plugins=[tooldrop.approval, plugin, tooldrop_shell.plugin],
        )

    fresh = host()
    assert fresh.render("greet", {"who": "ann"}) == "echo hello 'ann'!"
    cached = host()
    assert list(cached.cache_dir.rglob("*.pickle"))
    assert cached.render("greet", {"who": "ann"}) == "echo hello 'ann'!"
    assert (
        cached.call("greet", {"who": "bob"}, ask=lambda c: True).text == "EXIT_CODE: 0\nhello bob!"
    )
