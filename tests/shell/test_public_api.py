"""tooldrop_shell's public names, and how hosts and the CLI find the plugin."""

from __future__ import annotations

import importlib.metadata
import types

import pytest

import tooldrop_shell
import tooldrop_shell.plugin


def test_all_is_sorted_and_complete():
    names = list(tooldrop_shell.__all__)
    assert names == sorted(names, key=lambda n: (not n.isupper(), n))
    for name in names:  # the process runner's names are imported on first use
        assert getattr(tooldrop_shell, name) is not None
    public = {
        name
        for name, value in vars(tooldrop_shell).items()
        if not name.startswith("_")
        and (not isinstance(value, types.ModuleType) or name == "plugin")
        and name != "annotations"
    }
    assert public == set(names)


def test_entry_point_loads_the_plugin_module():
    (entry,) = [
        ep for ep in importlib.metadata.entry_points(group="tooldrop") if ep.name == "shell"
    ]
    assert entry.value == "tooldrop_shell.plugin"
    assert entry.load() is tooldrop_shell.plugin


def test_markdown_loaders_can_share_the_forbidden_env_rule():
    # The one predicate a loader needs to refuse these names at load time.
    assert tooldrop_shell.is_forbidden_env("LD_PRELOAD")
    assert "BASH_FUNC_*" in tooldrop_shell.FORBIDDEN_ENV
    message = tooldrop_shell.env_name_problem("LD_AUDIT")
    assert message is not None
    assert message.startswith("may not set LD_AUDIT")


@pytest.mark.parametrize("name", ["", "A=B", "A\0B", "\0"])
def test_a_name_no_environment_can_hold_is_refused_by_name(name):
    assert tooldrop_shell.env_name_problem(name) == (
        f"{name!r} is not a valid environment variable name"
    )


@pytest.mark.parametrize("name", ["A", "GIT_AUTHOR_NAME", "_x1", "lower"])
def test_an_ordinary_name_has_no_problem(name):
    assert tooldrop_shell.env_name_problem(name) is None
