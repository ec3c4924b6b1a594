"""Loading TOML tool files: the tool and its schema, or problems naming file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldrop_toml import load_toml

GIT_LOG = """\
name = "git_log"
description = "Show recent commits."
command = ["git", "log", "--oneline", "-n", "{count}"]
approval = "never"
read_only = true
[parameters.count]
type = "integer"
default = 10
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def problems(path: Path) -> list[tuple[int | None, str, str, str]]:
    result = load_toml(path, "project")
    assert not result.tools
    return [(p.line, p.field, p.message, p.severity) for p in result.problems]


def test_the_readme_example_loads_into_a_shell_tool(tmp_path):
    result = load_toml(write(tmp_path, "git-log.toml", GIT_LOG), "project")
    assert result.problems == ()
    [spec] = result.tools
    assert spec.name == "git_log"
    assert spec.description == "Show recent commits."
    assert (spec.approval, spec.read_only, spec.timeout_ms) == ("never", True, 30_000)
    assert (spec.runner, spec.shell) == ("shell", "sh")
    assert spec.keep_background is False
    assert spec.origin.source == "toml"
    assert spec.origin.scope == "project"
    assert len(spec.origin.content_hash) == 64
    assert spec.input_schema == {
        "type": "object",
        "properties": {"count": {"type": "integer", "default": 10}},
        "required": [],
        "additionalProperties": False,
    }


def test_every_parameter_key_reaches_the_schema(tmp_path):
    text = """\
name = "t"
description = "d"
command = ["echo", "{a}", "{b}", "{c}"]
[parameters.a]
type = "string"
description = "A"
required = true
enum = ["x", "y"]
pattern = "^[xy]$"
minLength = 1
maxLength = 2
[parameters.b]
type = "number"
minimum = 0
maximum = 1.5
[parameters.c]
type = "array"
items = { type = "string" }
"""
    [spec] = load_toml(write(tmp_path, "t.toml", text), "personal").tools
    assert spec.input_schema["properties"] == {
        "a": {
            "type": "string",
            "description": "A",
            "enum": ["x", "y"],
            "pattern": "^[xy]$",
            "minLength": 1,
            "maxLength": 2,
        },
        "b": {"type": "number", "minimum": 0, "maximum": 1.5},
        "c": {"type": "array", "items": {"type": "string"}},
    }
    assert spec.input_schema["required"] == ["a"]
    assert spec.approval == "always"
    assert spec.read_only is False  # read_only defaults to approval == "never"


def test_every_mistake_is_reported_at_once_with_its_line_and_field(tmp_path):
    text = """\
name = "Bad-Name"
description = "  "
command = ["{prog}", "x{y", "{nope}"]
aproval = "never"
timeout_ms = 0
[env]
LD_PRELOAD = "/tmp/evil.so"
[parameters.prog]
type = "strin"
pattern = "("
"""
    found = problems(write(tmp_path, "bad.toml", text))
    assert [(line, field) for line, field, _, _ in found] == [
        (1, "name"),
        (2, "description"),
        (3, "command[0]"),
        (3, "command[1]"),
        (3, "command[2]"),
        (4, "aproval"),
        (5, "timeout_ms"),
        (7, "env.LD_PRELOAD"),
        (9, "parameters.prog.type"),
        (10, "parameters.prog.pattern"),
    ]
    messages = {field: (message, severity) for _, field, message, severity in found}
    assert messages["aproval"] == (
        'unknown key "aproval" (ignored); did you mean "approval"?',
        "warning",
    )
    assert "choose which program runs" in messages["command[0]"][0]
    assert "lone '{'" in messages["command[1]"][0]
    assert "{nope} names no parameter" in messages["command[2]"][0]
    assert "between 1 and 300000" in messages["timeout_ms"][0]
    assert "may not set LD_PRELOAD" in messages["env.LD_PRELOAD"][0]


@pytest.mark.parametrize(
    ("text", "line", "field", "words"),
    [
        ('description = "d"\ncommand = ["ls"]\n', None, "name", "required"),
        ('name = "t"\ndescription = "d"\ncommand = []\n', 3, "command", "non-empty list"),
        ('name = "t"\ndescription = "d"\ncommand = "ls -l"\n', 3, "command", "non-empty list"),
        ('name = "t"\ndescription = "d"\ncommand = ["ls", 3]\n', 3, "command", "quote 3"),
        ('name = "t"\ndescription = "d"\ncommand = ["A=1"]\n', 3, "command[0]", "program name"),
        ('name = "t"\ndescription = "d"\ncommand = ["if"]\n', 3, "command[0]", "program name"),
        (
            'name = "t"\ndescription = "d"\ncommand = ["ls"]\napproval = "sometimes"\n',
            4,
            "approval",
            "never, always, destructive",
        ),
        (
            'name = "t"\ndescription = "d"\ncommand = ["ls"]\nread_only = "yes"\n',
            4,
            "read_only",
            "boolean",
        ),
        ('name = "t"\ndescription = "d"\ncommand = ["ls"]\n[env]\nA = 1\n', 5, "env.A", "string"),
        (
            'name = "t"\ndescription = "d"\ncommand = ["ls", "--x={xs}"]\n[parameters.xs]\n'
            'type = "array"\n',
            3,
            "command[1]",
            "whole element",
        ),
        (
            'name = "t"\ndescription = "d"\ncommand = ["ls"]\n[parameters.Bad]\ntype = "string"\n',
            4,
            "parameters.Bad",
            "must match",
        ),
        (
            'name = "t"\ndescription = "d"\ncommand = ["ls"]\n[parameters.x]\ndescription = "d"\n',
            4,
            "parameters.x.type",
            "required",
        ),
        (
            'name = "t"\ndescription = "d"\ncommand = ["ls"]\n[parameters.x]\ntype = "array"\n'
            'items = { type = "object" }\n',
            6,
            "parameters.x.items.type",
            "must be one of",
        ),
    ],
)
def test_each_rule_names_its_line_and_field(tmp_path, text, line, field, words):
    found = [p for p in problems(write(tmp_path, "t.toml", text)) if p[3] == "error"]
    assert [(ln, f) for ln, f, _, _ in found] == [(line, field)]
    assert words in found[0][2]


def test_a_toml_syntax_error_names_its_line(tmp_path):
    text = 'name = "t"\ndescription = "d"\ncommand = ["ls"\n'
    [(line, field, message, severity)] = problems(write(tmp_path, "t.toml", text))
    assert line == 3  # the last line: the array is never closed
    assert message.startswith("not valid TOML:")
    assert (field, severity) == ("", "error")


def test_unreadable_and_oversized_files_are_problems_not_exceptions(tmp_path):
    assert problems(write(tmp_path, "t.toml", "x" * (300 * 1024)))[0][2].startswith(
        "the file is larger than"
    )
    path = tmp_path / "b.toml"
    path.write_bytes(b'name = "\xff"\n')
    assert problems(path)[0][2] == "the file is not UTF-8 text"
    assert problems(tmp_path / "missing.toml")[0][2].startswith("cannot read the file")


def test_editing_a_file_changes_its_content_hash(tmp_path):
    path = write(tmp_path, "t.toml", GIT_LOG)
    before = load_toml(path, "project").tools[0].origin.content_hash
    path.write_text(GIT_LOG.replace("10", "11"))
    assert load_toml(path, "project").tools[0].origin.content_hash != before


def test_one_broken_file_does_not_stop_the_others_and_other_suffixes_are_left_alone(
    tools_dir, make_host
):
    write(tools_dir, "git-log.toml", GIT_LOG)
    write(tools_dir, "broken.toml", "name = \n")
    write(tools_dir, "notes.txt", "not a tool")
    host = make_host()
    assert [s.name for s in host.tools()] == ["git_log"]
    assert [p.path.name for p in host.problems()] == ["broken.toml"]


def test_keep_background_reaches_the_spec(tmp_path):
    text = 'name = "up"\ndescription = "Start it."\ncommand = ["true"]\nkeep_background = true\n'
    [spec] = load_toml(write(tmp_path, "up.toml", text), "personal").tools
    assert spec.keep_background is True
