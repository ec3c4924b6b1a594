"""What a newcomer trips over in the CLI (issue 20): config files, counts, messages."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tooldrop.cli import build_cli, load_plugin_set


@pytest.fixture
def cli(project, user_dir, core_plugins, monkeypatch):
    monkeypatch.chdir(project)

    def invoke(*args: str):
        group = build_cli(load_plugin_set(core_plugins))
        return CliRunner().invoke(
            group, ["--user-dir", str(user_dir), *args], catch_exceptions=False
        )

    return invoke


@pytest.fixture
def config(project):
    path = project / ".tooldrop" / "config.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "# tools\nalwaysAllow: [git_recent\n",
            ".tooldrop/config.yaml:2: invalid YAML: a [ list opens here (column 14) and is "
            "never closed",
        ),
        (
            "alwaysAllow:\n  - 'git_recent\n  - k8s_logs\n\n",
            ".tooldrop/config.yaml:2: invalid YAML: a quoted string opens here (column 5) and "
            "is never closed",
        ),
        (
            "\nalwaysAllow: git_recent\n",
            ".tooldrop/config.yaml:2: alwaysAllow: must be a list of tool names",
        ),
        ("- a\n", ".tooldrop/config.yaml:1: must be a mapping"),
    ],
)
def test_check_fails_on_a_broken_config_as_list_does(cli, config, text, expected):
    config.write_text(text)
    done = cli("check")
    assert done.exit_code == 1
    assert done.stdout == expected + "\n"
    assert "<unicode string>" not in done.output
    assert expected in cli("list").stdout


@pytest.mark.parametrize(
    ("key", "known"), [("alwaysallow", "alwaysAllow"), ("disabled_tools", "disabledTools")]
)
def test_a_misspelt_config_key_is_a_warning_with_the_key_it_meant(cli, config, key, known):
    config.write_text(f"sandbox: off\n{key}: [x]\n")
    done = cli("check")
    assert done.exit_code == 1
    assert (
        f'.tooldrop/config.yaml:2: {key}: unknown key, ignored; did you mean "{known}"? [warning]'
        in done.stdout.splitlines()
    )
    assert (
        ".tooldrop/config.yaml:1: sandbox: ignored here: the sandbox is set in the personal "
        "config.yaml only [warning]" in done.stdout.splitlines()
    )


def test_an_unknown_key_far_from_any_lists_the_known_ones(cli, config):
    config.write_text("colour: blue\n")
    done = cli("check")
    assert done.exit_code == 1
    assert "colour: unknown key, ignored; known keys: alwaysAllow, disabledTools," in done.stdout


def test_a_good_config_checks_clean(cli, config):
    config.write_text("alwaysAllow: [a]\ndisabledTools: [b]\n")
    done = cli("check")
    assert done.exit_code == 0, done.output
    assert done.stdout == ""


def test_list_counts_problems_as_check_does_and_notes_apart(cli, project, user_dir, tool_writer):
    tool_writer(user_dir / "tools", "p.json", name="same")
    tool_writer(project / ".tooldrop" / "tools", "p.json", name="same")
    assert "\nNotes (1)\n" in cli("list").stdout
    assert cli("check").exit_code == 0
    (project / ".tooldrop" / "tools" / "broken.json").write_text("{oops")
    out = cli("list").stdout
    assert "\nProblems (1), notes (1)\n" in out
    assert "1 problem" in cli("check").stderr


def test_list_says_which_tools_disabled_tools_hides(cli, config, project, tool_writer):
    tool_writer(project / ".tooldrop" / "tools", "a.json", name="kept")
    tool_writer(project / ".tooldrop" / "tools", "b.json", name="gone")
    config.write_text("disabledTools: [gone, zzz]\n")
    out = cli("list").stdout
    assert "\nDisabled by disabledTools in config.yaml (2): gone, zzz\n" in out
    assert "  kept" in out and "  gone " not in out
    assert json.loads(cli("list", "--json").stdout)["disabled"] == ["gone", "zzz"]


def test_a_duplicate_name_names_the_first_file_as_other_problems_do(cli, project, tool_writer):
    folder = project / ".tooldrop" / "tools"
    tool_writer(folder, "1.json", name="same")
    tool_writer(folder, "2.json", name="same")
    out = cli("check").stdout
    assert 'Duplicate tool name "same" in project tools — keeping the first (1.json)' in out
    assert str(project) not in out


def test_global_options_work_after_the_command_too(cli, project, tmp_path, tool_writer):
    tool_writer(project / ".tooldrop" / "tools", "a.json", name="here")
    other = tmp_path / "other"
    (other / ".tooldrop" / "tools").mkdir(parents=True)
    tool_writer(other / ".tooldrop" / "tools", "b.json", name="there")
    names = [t["name"] for t in json.loads(cli("list", "--json").stdout)["tools"]]
    assert names == ["here"]
    for args in (["--project", str(other)], [f"--project={other}"]):
        done = cli("list", "--json", *args)
        assert done.exit_code == 0, done.output
        assert [t["name"] for t in json.loads(done.stdout)["tools"]] == ["there"]
    done = cli("list", "--mode", "plan", "--json")
    assert done.exit_code == 0, done.output
    # After `--`, and as the value of the command's own option, it is not an option.
    done = cli("render", "here", "--args", "--project")
    assert "--args is not valid JSON" in done.output
    done = cli("render", "--", "--project", str(other))
    assert done.exit_code != 0 and "there" not in done.output
    # Help after the command is the command's.
    assert "list [OPTIONS]" in cli("list", "--help").output
