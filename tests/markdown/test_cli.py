"""``tooldrop render``, ``tooldrop new`` and ``tooldrop check`` on markdown tools."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tooldrop import ToolHost
from tooldrop.cli import build_cli, load_plugin_set

TOOL = (
    "---\nname: greet\ndescription: Say hello\nparameters:\n"
    "  who:\n    type: string\n    required: true\n"
    "  times:\n    type: integer\n    default: 2\n    min: 1\n"
    '---\n\nn={{ times }}\nfor i in $(seq "$n"); do echo hello {{ who }}; done\n'
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def cli(project: Path, tmp_path: Path):
    user_dir = tmp_path / "user"

    def invoke(*args: str):
        group = build_cli(load_plugin_set())
        return CliRunner().invoke(group, ["--user-dir", str(user_dir), *args])

    return invoke


def write(project: Path, name: str, text: str) -> Path:
    folder = project / ".tooldrop" / "tools"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


# -- render ---------------------------------------------------------------------------------


def test_render_prints_only_the_script(cli, project) -> None:
    write(project, "greet.md", TOOL)
    result = cli("render", "greet", "--args", '{"who": "it\'s me"}')
    assert result.exit_code == 0
    assert result.stdout == "n='2'\nfor i in $(seq \"$n\"); do echo hello 'it'\\''s me'; done"
    assert result.stderr == ""


def test_render_takes_key_value_pairs(cli, project) -> None:
    write(project, "greet.md", TOOL)
    result = cli("render", "greet", "who=007", "times=3")
    assert result.stdout == "n='3'\nfor i in $(seq \"$n\"); do echo hello '007'; done"


def test_render_refuses_invalid_arguments_on_stderr(cli, project) -> None:
    write(project, "greet.md", TOOL)
    result = cli("render", "greet", "--args", '{"times": 0, "extra": 1}')
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "⚒ Missing required parameter: who",
        '⚒ Parameter "times" is below minimum (1)',
        "⚒ Unknown parameter: extra (this tool accepts: who, times)",
    ]


@pytest.mark.parametrize("args", ["{oops", "[1]"])
def test_render_refuses_args_that_are_not_a_json_object(cli, project, args) -> None:
    write(project, "greet.md", TOOL)
    result = cli("render", "greet", "--args", args)
    assert result.exit_code == 1
    assert "--args" in result.stderr


def test_render_of_an_unknown_tool(cli, project) -> None:
    write(project, "broken.md", "---\nname: Broken\n---\necho\n")
    result = cli("render", "nope")
    assert result.exit_code == 1
    assert 'no tool named "nope"' in result.stderr
    assert "1 tool file(s) failed to load, see `tooldrop check`" in result.stderr


def test_render_runs_nothing(cli, project, tmp_path) -> None:
    marker = tmp_path / "ran"
    write(
        project,
        "touch.md",
        f"---\nname: touch\ndescription: d\napproval: never\n---\ntouch {marker}\n",
    )
    assert cli("render", "touch").exit_code == 0
    assert not marker.exists()


# -- new ------------------------------------------------------------------------------------


def test_new_writes_a_scaffold_that_loads_cleanly(cli, project, tmp_path) -> None:
    result = cli("new", "k8s-pods")
    assert result.exit_code == 0
    path = project / ".tooldrop" / "tools" / "k8s-pods.md"
    assert result.stdout.strip() == str(path.relative_to(project))
    text = path.read_text()
    assert "name: k8s_pods\n" in text
    assert "approval: always" in text
    with ToolHost(project_dir=project, user_dir=tmp_path / "user") as host:
        assert host.problems() == []
        spec = host.get("k8s_pods")
        assert spec is not None
        assert spec.description == "A short description of what this tool does (shown to the LLM)"
    assert cli("check").exit_code == 0
    render = cli("render", "k8s_pods")
    assert render.stdout == 'echo "TODO: replace this body with the command you want to run"'


def test_new_never_overwrites(cli, project) -> None:
    path = write(project, "k8s-pods.md", "mine\n")
    result = cli("new", "k8s-pods")
    assert result.exit_code == 1
    assert "already exists; nothing was written" in result.stderr
    assert path.read_text() == "mine\n"


def test_new_accepts_a_name_ending_in_md(cli, project) -> None:
    assert cli("new", "mytool.md").exit_code == 0
    assert "name: mytool\n" in (project / ".tooldrop" / "tools" / "mytool.md").read_text()


def test_new_personal_goes_to_the_personal_tools_dir(cli, project, tmp_path) -> None:
    result = cli("new", "--personal", "mine")
    assert result.exit_code == 0
    assert (tmp_path / "user" / "tools" / "mine.md").is_file()
    assert not (project / ".tooldrop").exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("../x", "would leave the tools directory"),
        ("/tmp/abs", "would leave the tools directory"),
        ("a/b", "would leave the tools directory"),
        ("a\\b", "would leave the tools directory"),
        ("", "is not a file name"),
        (".", "is not a file name"),
        ("..", "is not a file name"),
        ("My.Tool", 'cannot become a tool name ("my.tool" does not match'),
        ("9lives", "cannot become a tool name"),
        ("-x", "cannot become a tool name"),
        (".md", "is not a file name"),
    ],
)
def test_new_refuses_names_it_cannot_use(cli, project, tmp_path, name, message) -> None:
    result = cli("new", "--", name)
    assert result.exit_code == 1
    assert message in result.stderr
    assert not (project / ".tooldrop").exists()
    assert not list(tmp_path.glob("**/*.md"))


def test_new_with_app_nanocoder_writes_into_dot_nanocoder(cli, project) -> None:
    assert cli("--app", "nanocoder", "new", "jira-ticket").exit_code == 0
    assert (project / ".nanocoder" / "tools" / "jira-ticket.md").is_file()


# -- check ----------------------------------------------------------------------------------


def test_check_prints_one_line_per_problem_and_fails(cli, project) -> None:
    write(project, "greet.md", TOOL)
    write(project, "bad.md", '---\nname: bad\ndescription: d\ntimeout_ms: 0\n---\necho "{{ x }}"\n')
    result = cli("check")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        '.tooldrop/tools/bad.md:4: timeout_ms: "timeout_ms" must be positive (got 0)',
        '.tooldrop/tools/bad.md:6: body: {{ x }} names no declared parameter; add "x" under '
        "parameters: (for a literal {{x}} meant for another program, split the braces with "
        "shell quotes: '{''{x}}')",
    ]
    assert "1 tool loaded, 2 problems" in result.stderr


def test_check_a_single_file(cli, project) -> None:
    good = write(project, "greet.md", TOOL)
    assert cli("check", str(good)).exit_code == 0
