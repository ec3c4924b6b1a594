"""Code in the docs is real: complete tool files load (or fail as the page says they do), and the
`tooldrop render` examples print what the page shows."""

from __future__ import annotations

import re
import shlex

import pytest
from click.testing import CliRunner

import tooldrop.approval
import tooldrop_markdown.plugin
import tooldrop_python.plugin
import tooldrop_shell.plugin
import tooldrop_toml.plugin
from tooldrop import ToolHost
from tooldrop.cli import build_cli, load_plugin_set
from tooldrop_markdown import load_markdown
from tooldrop_toml import load_toml

from .conftest import Block, all_blocks, blocks, pages

BLOCKS = all_blocks()
PLUGINS = [tooldrop.approval, tooldrop_markdown.plugin, tooldrop_shell.plugin, tooldrop_toml.plugin]


def is_markdown_tool(block: Block) -> bool:
    return block.lang == "markdown" and block.body.startswith("---\n")


def is_toml_tool(block: Block) -> bool:
    return block.lang == "toml" and re.search(r"^command = ", block.body, re.M) is not None


def is_python_tool(block: Block) -> bool:
    """A whole Python tool file: it imports what it uses and ends by setting ``default``."""
    return (
        block.lang == "python"
        and block.body.startswith(("from tooldrop import", "import tooldrop"))
        and re.search(r"^default = ", block.body, re.M) is not None
    )


def ids(items: list[Block]) -> list[str]:
    return [b.where for b in items]


MARKDOWN = [b for b in BLOCKS if is_markdown_tool(b)]
TOML = [b for b in BLOCKS if is_toml_tool(b)]
PYTHON = [b for b in BLOCKS if is_python_tool(b)]


def test_the_docs_have_tool_files_of_each_kind():
    assert len(MARKDOWN) >= 10
    assert len(TOML) >= 1
    assert len(PYTHON) >= 2
    assert sum(b.note.startswith("fails:") for b in MARKDOWN) >= 4


@pytest.mark.parametrize("block", MARKDOWN, ids=ids(MARKDOWN))
def test_markdown_tool_files_load_or_fail_as_the_page_says(tmp_path, block):
    path = tmp_path / "tool.md"
    path.write_text(block.body + "\n", encoding="utf-8")
    result = load_markdown(path, "project")
    errors = [p.message for p in result.problems if p.severity == "error"]
    if block.note.startswith("fails:"):
        expected = block.note.removeprefix("fails:").strip()
        assert not result.tools, f"{block.where} is shown as refused, but it loads"
        assert any(expected in message for message in errors), errors
    else:
        assert errors == [], block.where
        assert len(result.tools) == 1


@pytest.mark.parametrize("block", TOML, ids=ids(TOML))
def test_toml_tool_files_load(tmp_path, block):
    path = tmp_path / "tool.toml"
    path.write_text(block.body + "\n", encoding="utf-8")
    result = load_toml(path, "project")
    assert [p.format() for p in result.problems] == []
    assert len(result.tools) == 1


@pytest.mark.parametrize("block", PYTHON, ids=ids(PYTHON))
def test_python_tool_files_load_and_run(tmp_path, block):
    tools = tmp_path / "config" / "tools"
    tools.mkdir(parents=True)
    (tools / "example.py").write_text(block.body + "\n", encoding="utf-8")
    host = ToolHost(
        project_dir=tmp_path,
        user_dir=tmp_path / "config",
        plugins=[tooldrop.approval, tooldrop_python.plugin],
    )
    assert [p.format() for p in host.problems()] == []
    [spec] = host.tools()
    assert spec.name.startswith("custom__")
    first = next(iter(spec.parameters))
    result = host.call(spec.name, {first: "one two two"}, ask=lambda call: True)
    assert not result.is_error, result.text


def render_examples() -> list[tuple[str, list[Block], str, str]]:
    """``$ tooldrop render NAME ...`` lines in console blocks, with the output shown under them
    and the tool files of the same page."""
    found = []
    for page in pages():
        page_blocks = blocks(page)
        tools = [
            b
            for b in page_blocks
            if (is_markdown_tool(b) or is_toml_tool(b)) and not b.note.startswith("fails:")
        ]
        for block in page_blocks:
            if block.lang != "console":
                continue
            for m in re.finditer(
                r"^\$ (tooldrop render .*)\n((?:(?!\$ ).*\n?)*)", block.body, re.M
            ):
                found.append(
                    (f"{block.where}: {m.group(1)}", tools, m.group(1), m.group(2).strip())
                )
    return found


RENDERS = render_examples()


def test_the_docs_show_render_examples():
    assert len(RENDERS) >= 4


@pytest.mark.parametrize(
    ("where", "tools", "command", "shown"), RENDERS, ids=[r[0] for r in RENDERS]
)
def test_render_examples_print_what_the_page_shows(tmp_path, where, tools, command, shown):
    folder = tmp_path / ".tooldrop" / "tools"
    folder.mkdir(parents=True)
    for index, block in enumerate(tools):
        suffix = ".md" if block.lang == "markdown" else ".toml"
        (folder / f"tool{index}{suffix}").write_text(block.body + "\n", encoding="utf-8")
    # The CLI as a user runs it, with the plugins the page's tools need (the sample plugin is
    # not installed in the workspace, so it is composed here rather than found as an entry point).
    cli = build_cli(load_plugin_set(PLUGINS))
    done = CliRunner().invoke(cli, ["--project", str(tmp_path), *shlex.split(command)[1:]])
    assert done.exit_code == 0, done.output
    assert done.stdout.strip() == shown, where
