"""Each file is imported alone, under a fresh name; project files are never imported."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from tooldrop import ToolDir, hookimpl
from tooldrop_python._loader import MODULE_PREFIX, NOT_IMPORTED

CANARY = """
from pathlib import Path
Path({marker!r}).write_text("imported")
default = {{"name": "evil", "description": "d", "execute": lambda a: "ran"}}
"""


def test_a_project_py_file_is_reported_and_never_imported(dirs, host):
    marker = dirs.root / "pwned"
    path = dirs.in_project("evil.py", CANARY.format(marker=str(marker)))
    assert host.tools() == []
    host.reload()
    problems = [p for p in host.problems() if p.path == path]
    assert [(p.message, p.severity) for p in problems] == [(NOT_IMPORTED, "warning")]
    assert host.get("custom__evil") is None
    assert not marker.exists()


def test_the_canary_stays_unimported_through_the_cli(dirs):
    marker = dirs.root / "pwned"
    dirs.in_project("evil.py", CANARY.format(marker=str(marker)))
    tooldrop = shutil.which("tooldrop", path=os.path.dirname(sys.executable))
    assert tooldrop is not None
    env = {**os.environ, "TOOLDROP_PLUGINS": "python,approval"}
    base = [tooldrop, "--project", str(dirs.project), "--user-dir", str(dirs.user)]
    listed = subprocess.run(
        [*base, "list", "--json"], capture_output=True, text=True, env=env, timeout=120
    )
    assert listed.returncode == 0, listed.stderr
    problems = json.loads(listed.stdout)["problems"]
    assert [p["message"] for p in problems] == [NOT_IMPORTED]
    for command in (["list"], ["check"], ["schema"], ["call", "custom__evil", "--yes"]):
        subprocess.run([*base, *command], capture_output=True, env=env, timeout=120, check=False)
    assert not marker.exists()


def test_the_same_canary_in_the_personal_dir_is_imported(dirs, host):
    """The control for the test above: the canary works when it is allowed to."""
    marker = dirs.root / "ran"
    dirs.personal("trusted.py", CANARY.format(marker=str(marker)))
    assert [t.name for t in host.tools()] == ["custom__evil"]
    assert marker.read_text() == "imported"


def test_one_broken_file_among_five(dirs, host, problems_of, yes):
    for name in ("a", "b", "d", "e"):
        dirs.personal(
            f"{name}.py",
            f'default = {{"name": "{name}", "description": "d", "execute": lambda a: "{name}"}}\n',
        )
    broken = dirs.personal("c.py", "import os\n\nraise RuntimeError('boom')\n")
    assert [t.name for t in host.tools()] == [f"custom__{n}" for n in "abde"]
    assert problems_of(host, broken) == ["3: the import failed: RuntimeError: boom"]
    assert len(host.problems()) == 1
    assert [host.call(f"custom__{n}", {}, ask=yes).text for n in "abde"] == list("abde")


BROKEN = {
    "syntax": ("def f(:\n    pass\n", ["1: SyntaxError: invalid syntax"]),
    "indentation": ("x = 1\n  y = 2\n", ["2: IndentationError: unexpected indent"]),
    "name_error": ("import os\nprint(nope)\n", [
        "2: the import failed: NameError: name 'nope' is not defined"]),
    "import_error": ("import no_such_module_xyz\n", [
        "1: the import failed: ModuleNotFoundError: No module named 'no_such_module_xyz'"]),
    "sys_exit": ("import sys\nsys.exit(3)\n", ["2: called sys.exit(3) during the import"]),
    "nothing": ("x = 1\n", [
        "default: no tool exported: define a module-level `default`: a tool (a dict, a "
        "tooldrop.Tool or an @tool function), a list of tools, or a factory"]),
    "number": ("default = 42\n", [
        "1: default: cannot register 'int' as a tool (expected a dict with name, description "
        "and execute, a tooldrop.Tool, or a function decorated with @tooldrop.tool)"]),
    "none": ("default = None\n", [
        "1: default: default is None; it must be a tool (a dict, a tooldrop.Tool or an @tool "
        "function), a list of tools, or a factory"]),
    "factory_raises": ("def default():\n    raise ValueError('no config')\n", [
        "2: the factory failed: ValueError: no config"]),
    "factory_with_params": ("def default(text):\n    return text\n", [
        "1: default: default is a function with parameters (text); a factory takes none. To "
        "make the function itself a tool, decorate it with @tooldrop.tool"]),
    "factory_returns_function": ("def default():\n    return print\n", [
        "1: default(): the factory returned a function; it must return a tool or a list of "
        "tools"]),
    "bad_fields": (
        'default = [\n'
        '    {"name": "ok", "description": "d", "execute": lambda a: ""},\n'
        '    {"name": "bad name", "description": "", "execute": 3,\n'
        '     "inputSchema": {"type": "array"}},\n'
        ']\n',
        [
            "3: default[1].name: must be letters, digits and underscores only, got 'bad name'",
            "3: default[1].description: must not be empty: tell the model what the tool does",
            "3: default[1].execute: must be a function: execute(args) or execute(args, cancel), "
            "got number",
            '3: default[1].inputSchema: must describe an object ("type": "object"), got '
            '"type": "array"',
        ],
    ),
    "missing_execute": ('default = {"name": "x", "description": "d"}\n', [
        "1: default.execute: is required"]),
    "typo": ('default = {"name": "x", "description": "d", "execute": print, "readonly": True}\n', [
        "1: default.readonly: unknown key (did you mean read_only?); a tool has: approval, "
        "description, execute, input_schema, name, read_only, requires_approval, timeout_ms"]),
    "invalid_schema": (
        'default = {"name": "x", "description": "d", "execute": print,\n'
        '           "parameters": {"properties": {"n": {"type": "integr"}}}}\n',
        ["1: default.parameters: is not a valid JSON Schema: 'integr' is not valid under any "
         "of the given schemas (at properties.n.type)"],
    ),
    "tool_object": (
        "from tooldrop import Tool\n\ndefault = Tool(name='a-b', description='d', execute=print)\n",
        ["3: name: must be letters, digits and underscores only, got 'a-b'"],
    ),
    "undescribed_type": (
        "import socket\nfrom tooldrop import tool\n\n@tool\n"
        "def connect(sock: socket.socket) -> str:\n    '''Connect.'''\n\ndefault = connect\n",
        ["4: input_schema: cannot be derived: sock: cannot describe socket as JSON Schema; use "
         "str, int, float, bool, None, list[T], tuple, set[T], dict[str, T], Literal[...], an "
         "Enum, a TypedDict, a dataclass, an attrs class, a Path, X | None, or Annotated[T, "
         "'description'], or give the tool an explicit input_schema"],
    ),
    "no_docstring": (
        "from tooldrop import tool\n\n@tool\ndef quiet(x: int) -> int:\n    return x\n",
        ["3: description: missing: give the function a docstring, or pass description= to @tool"],
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_file_is_one_problem_with_its_line_and_why(dirs, host, problems_of, case):
    source, expected = BROKEN[case]
    good = dirs.personal("good.py", 'default = {"name": "good", "description": "d", "execute": id}')
    broken = dirs.personal(f"{case}.py", source)
    assert problems_of(host, broken) == expected
    assert problems_of(host, good) == []
    names = {t.name for t in host.tools()}
    assert "custom__good" in names
    if case == "bad_fields":
        assert names == {"custom__good", "custom__ok"}  # the good tool of the list still loads


def test_an_empty_list_is_a_warning(dirs, host):
    path = dirs.personal("empty.py", "default = []\n")
    [problem] = host.problems()
    assert (problem.path, problem.severity, problem.field) == (path, "warning", "default")
    assert problem.message == "default is an empty list: this file defines no tools"


def test_a_missing_default_names_the_tools_the_file_defines(dirs, host):
    path = dirs.personal(
        "forgot.py",
        """
        from tooldrop import tool

        @tool
        def one() -> str:
            '''One.'''
            return "1"

        @tool
        def two() -> str:
            '''Two.'''
            return "2"
        """,
    )
    [problem] = host.problems()
    assert problem.path == path
    assert problem.message.endswith("; add `default = [one, two]`")


def test_a_keyboard_interrupt_while_importing_is_not_swallowed(dirs, host):
    dirs.personal("ctrl_c.py", "raise KeyboardInterrupt\n")
    with pytest.raises(KeyboardInterrupt):
        host.tools()


def test_files_with_the_same_name_in_two_dirs_do_not_clash(dirs, make_host, yes):
    shared = dirs.root / "shared"
    source = """
    STATE = {{"who": "{who}"}}

    def execute(args):
        return STATE["who"] + " " + __name__

    default = {{"name": "{who}", "description": "d", "execute": execute}}
    """
    dirs.personal("tool.py", source.format(who="personal"))
    (shared / "tool.py").parent.mkdir()
    (shared / "tool.py").write_text(
        source.format(who="shared").replace("\n    ", "\n").lstrip("\n")
    )

    class Shared:
        @hookimpl
        def tooldrop_tool_dirs(self, host):
            return [ToolDir(path=shared, scope="plugin")]

    host = make_host(Shared())
    personal = host.call("custom__personal", {}, ask=yes).text.split()
    other = host.call("custom__shared", {}, ask=yes).text.split()
    assert personal[0] == "personal"
    assert other[0] == "shared"
    assert personal[1] != other[1]
    assert personal[1].startswith(MODULE_PREFIX + "tool_")
    assert "tool" not in sys.modules or not hasattr(sys.modules["tool"], "STATE")


def test_reloading_after_an_edit_runs_the_new_code(dirs, host, yes):
    path = dirs.personal(
        "edit.py", 'default = {"name": "v", "description": "d", "execute": lambda a: "aaa"}\n'
    )
    assert host.call("custom__v", {}, ask=yes).text == "aaa"
    stat = path.stat()
    # Same size, same mtime: a bytecode cache keyed by (mtime, size) would run the old code.
    path.write_text(path.read_text().replace("aaa", "bbb"))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    host.reload()
    assert host.call("custom__v", {}, ask=yes).text == "bbb"


def test_a_reload_drops_the_previous_module_of_the_file(dirs, host):
    dirs.personal("once.py", 'default = {"name": "once", "description": "d", "execute": print}\n')
    host.tools()
    before = {n for n in sys.modules if n.startswith(MODULE_PREFIX + "once_")}
    host.reload()
    after = {n for n in sys.modules if n.startswith(MODULE_PREFIX + "once_")}
    assert len(before) == len(after) == 1
    assert before != after


def test_a_file_that_breaks_keeps_its_last_good_tools(dirs, host, problems_of, yes):
    path = dirs.personal(
        "flaky.py", 'default = {"name": "flaky", "description": "d", "execute": lambda a: "ok"}\n'
    )
    assert host.call("custom__flaky", {}, ask=yes).text == "ok"
    path.write_text("default = {\n")
    host.reload()
    assert host.call("custom__flaky", {}, ask=yes).text == "ok"
    problems = problems_of(host, path)
    assert problems[0].startswith("1: SyntaxError")
    assert "keeping its last good version" in problems[1]


def test_nothing_is_written_next_to_the_tools(dirs, host):
    dirs.personal("clean.py", 'default = {"name": "clean", "description": "d", "execute": print}\n')
    host.tools()
    host.reload()
    assert sorted(p.name for p in dirs.personal_tools.iterdir()) == ["clean.py"]


def test_the_hash_is_of_the_bytes_that_ran(dirs, host, yes):
    """A file swapped between hashing and importing cannot run code the hash does not cover."""
    path = dirs.personal(
        "race.py", 'default = {"name": "race", "description": "d", "execute": lambda a: "v1"}\n'
    )
    spec = host.get("custom__race")
    path.write_text('default = {"name": "race", "description": "d", "execute": lambda a: "v2"}\n')
    assert host.call("custom__race", {}, ask=yes).text == "v1"  # still the code that was hashed
    host.reload()
    assert host.get("custom__race").origin.content_hash != spec.origin.content_hash


def test_dataclasses_and_postponed_annotations_work_in_tool_files(dirs, host, yes):
    dirs.personal(
        "records.py",
        """
        from __future__ import annotations
        import dataclasses
        from tooldrop import tool

        @dataclasses.dataclass
        class Point:
            x: float
            y: float = 0.0

        @tool
        def norm(p: Point) -> dict:
            '''Length of a vector.'''
            return {"point": p, "length": (p.x ** 2 + p.y ** 2) ** 0.5}

        default = norm
        """,
    )
    result = host.call("custom__norm", {"p": {"x": 3, "y": 4}}, ask=yes)
    assert result.text == '{"point": {"x": 3.0, "y": 4.0}, "length": 5.0}'


def test_loading_a_hundred_files_stays_quick_enough_to_notice_a_hang(dirs, host):
    for i in range(100):
        dirs.personal(
            f"t{i:03}.py", f'default = {{"name": "t{i}", "description": "d", "execute": print}}\n'
        )
    started = time.monotonic()
    assert len(host.tools()) == 100
    assert time.monotonic() - started < 60  # generous: a guard against a hang, not a benchmark


def test_checking_a_py_file_outside_the_personal_dir_does_not_run_it(dirs):
    """``tooldrop check PATH`` loads PATH as personal; a stray file must still not run."""
    marker = dirs.root / "pwned"
    stray = dirs.root / "downloads" / "evil.py"
    stray.parent.mkdir()
    stray.write_text(CANARY.format(marker=str(marker)).lstrip())
    inside_project = dirs.in_project("evil.py", CANARY.format(marker=str(marker)))
    tooldrop = shutil.which("tooldrop", path=os.path.dirname(sys.executable))
    env = {**os.environ, "TOOLDROP_PLUGINS": "python,approval"}
    base = [tooldrop, "--project", str(dirs.project), "--user-dir", str(dirs.user)]
    for target in (stray, stray.parent, inside_project):
        checked = subprocess.run(
            [*base, "check", str(target)], capture_output=True, text=True, env=env, timeout=120
        )
        assert "not imported: Python tools load only from the personal tools dir" in (
            checked.stdout + checked.stderr
        )
    assert not marker.exists()
    personal = dirs.personal("fine.py", CANARY.format(marker=str(marker)))
    checked = subprocess.run(
        [*base, "check", str(personal)], capture_output=True, text=True, env=env, timeout=120
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert marker.exists()  # the control: a personal file given by path is imported
