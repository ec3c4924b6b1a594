"""docs/cli.md documents every command the CLI has, with every option."""

from __future__ import annotations

import re

import click
import pytest

import tooldrop.approval
import tooldrop_markdown.plugin
import tooldrop_mcp.plugin
import tooldrop_python.plugin
import tooldrop_shell.plugin
from tooldrop.cli import build_cli, load_plugin_set

from .conftest import DOCS

PAGE = (DOCS / "cli.md").read_text(encoding="utf-8")
CLI = build_cli(
    load_plugin_set(
        [
            tooldrop.approval,
            tooldrop_markdown.plugin,
            tooldrop_python.plugin,
            tooldrop_shell.plugin,
            tooldrop_mcp.plugin,
        ]
    )
)
COMMANDS = sorted(CLI.commands)


def section(name: str) -> str:
    match = re.search(rf"^## tooldrop {name}\n(.*?)(?=^## |\Z)", PAGE, re.S | re.M)
    assert match, f"docs/cli.md has no '## tooldrop {name}' section"
    return match.group(1)


def options(command: click.Command) -> list[str]:
    return [
        opt
        for param in command.params
        if isinstance(param, click.Option)
        for opt in param.opts
        if opt.startswith("--") and opt != "--help"
    ]


def test_the_cli_has_the_commands_of_the_design():
    assert set(COMMANDS) >= {
        "list", "show", "check", "render", "call", "new", "schema", "plugins", "trust", "serve",
    }  # fmt: skip


@pytest.mark.parametrize("name", COMMANDS)
def test_each_command_has_a_section_naming_every_option(name):
    text = section(name)
    for option in options(CLI.commands[name]):
        assert f"`{option}" in text or f"[{option}" in text, f"{name}: {option} not documented"


def test_every_global_option_is_documented():
    for option in options(CLI):
        assert f"`{option}" in PAGE, option


def test_no_section_documents_a_command_that_does_not_exist():
    documented = set(re.findall(r"^## tooldrop (\S+)$", PAGE, re.M))
    assert documented == set(COMMANDS)
