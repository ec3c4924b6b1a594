"""One file in, tools or problems out: what the loader makes of a whole file."""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from pathlib import Path

import pytest

from tooldrop import LoadResult
from tooldrop_markdown import MAX_FILE_BYTES, load_markdown
from tooldrop_markdown.plugin import tooldrop_load_file

from .conftest import frontmatter

GOOD = frontmatter(
    "echo {{# v }}-v {{/ v }}{{ x }}",
    "  x:\n    type: string\n    required: true\n  v:\n    type: boolean\n",
    extra="approval: never\n",
)


def test_a_loaded_tool_says_where_it_came_from(tmp_path: Path) -> None:
    path = tmp_path / "t.md"
    path.write_text(GOOD)
    (tool,) = load_markdown(path, "personal").tools
    origin = tool.origin
    assert (origin.source, origin.scope, origin.path, origin.line) == (
        "markdown",
        "personal",
        path,
        1,
    )
    assert origin.content_hash == hashlib.sha256(path.read_bytes()).hexdigest()


def test_editing_the_file_changes_its_hash(tmp_path: Path) -> None:
    path = tmp_path / "t.md"
    path.write_text(GOOD)
    before = load_markdown(path, "project").tools[0].origin.content_hash
    path.write_text(GOOD + " ")
    assert load_markdown(path, "project").tools[0].origin.content_hash != before


def test_a_load_result_pickles(tmp_path: Path) -> None:
    # A later issue caches load results with pickle: the payload must be plain data.
    path = tmp_path / "t.md"
    path.write_text(GOOD + "\n# {{ nope }}")
    result = load_markdown(path, "project")
    again = pickle.loads(pickle.dumps(result))
    assert again == result
    assert again.tools[0].payload == result.tools[0].payload


@pytest.mark.parametrize(
    ("content", "message", "line"),
    [
        (
            b"---\nname: t\ndescription: d\n---\necho \xff\n",
            "the file is not UTF-8 text (byte 0xff)",
            5,
        ),
        (b"echo hi\n", "Missing YAML frontmatter", 1),
        (b"---\nname: t\n", "Missing YAML frontmatter", 1),
        (b"---\n- a\n- b\n---\necho\n", "Frontmatter is not a valid YAML object (it is a list", 2),
        (
            b"---\nhello\n---\necho\n",
            "Frontmatter is not a valid YAML object (it is a single value",
            2,
        ),
        (
            b"---\nname: t\ndescription: [d\n---\necho\n",
            "Frontmatter is not a valid YAML object: a [ list opens here (column 14)",
            3,  # where the list opens, not where the frontmatter ends
        ),
        (b"---\nname: t\ndescription: d\n---\n\n  \n", "Tool body (shell script) is empty", 7),
        (b"---\nname: t\ndescription: d\n---", "Tool body (shell script) is empty", 4),
    ],
)
def test_files_that_do_not_load(load, content: bytes, message: str, line: int) -> None:
    result = load(content)
    assert result.tools == ()
    assert any(message in p.message and p.line == line for p in result.problems), result.problems


def test_a_huge_file_is_refused_unread(load) -> None:
    result = load(b"---\nname: t\ndescription: d\n---\n" + b"#" * MAX_FILE_BYTES)
    assert "the file is larger than 1024 KiB" in result.problems[0].message


def test_an_alias_bomb_is_refused(load) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 7)]
    result = load("---\nname: t\ndescription: d\n" + "\n".join(lines) + "\n---\necho\n")
    assert result.tools == ()
    assert "aliases" in result.problems[0].message


def test_an_unreadable_file_is_a_problem(tmp_path: Path) -> None:
    path = tmp_path / "dir.md"
    path.mkdir()
    (problem,) = load_markdown(path, "project").problems
    assert problem.path == path
    assert problem.message.startswith("cannot read the file")


def test_every_problem_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.md"
    path.write_text("---\nname: X\ntimeout: 1\nparameters:\n  a: 1\n---\necho '{{ a }}' {{ b }}\n")
    result = load_markdown(path, "project")
    assert len(result.problems) >= 4
    assert all(p.path == path and p.line for p in result.problems)
    assert [p.line for p in result.problems] == sorted(p.line for p in result.problems)


@pytest.mark.parametrize(
    ("name", "claimed"),
    [("t.md", True), ("t.MD", False), ("t.markdown", False), ("t.ts", False), ("t.md.bak", False)],
)
def test_only_md_files_are_claimed(tmp_path: Path, name: str, claimed: bool) -> None:
    path = tmp_path / name
    path.write_text(GOOD)
    result = tooldrop_load_file(path=path, scope="project", host=None)  # type: ignore[arg-type]
    assert isinstance(result, LoadResult) is claimed


def test_a_body_full_of_mistakes_reports_the_first_ones_and_counts_the_rest(load) -> None:
    body = "\n".join(f'echo "{{{{ x }}}}" {i}' for i in range(200))
    result = load(frontmatter(body, "  x:\n    type: string\n"))
    *shown, summary = result.problems
    assert len(shown) == 50
    assert [p.line for p in shown] == list(range(8, 58))
    assert summary.message == "... and 150 more problems in the body; fix the ones above first"


@pytest.mark.parametrize("value", ["{{ x }} lists pods", "{{ x }}"])
def test_unquoted_braces_in_the_frontmatter_get_a_hint(load, value) -> None:
    (problem,) = load(f"---\nname: t\ndescription: {value}\n---\necho\n").problems
    assert problem.line == 3
    assert "write text with {{ … }} in quotes" in problem.message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX named pipes")
def test_a_fifo_is_refused_even_with_a_writer(tmp_path: Path) -> None:
    # A pipe has no size and may never end: it is not a tool file (issue 13), and opening it
    # does not wait for a writer. Here one is waiting to write; it is not read either.
    import threading

    path = tmp_path / "piped.md"
    os.mkfifo(path)
    text = GOOD.encode()

    def write() -> None:
        with contextlib.suppress(OSError), open(path, "wb", buffering=0) as pipe:
            pipe.write(text)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    result = load_markdown(path, "project")
    assert not result.tools
    assert [p.message for p in result.problems] == ["cannot read the file: not a regular file"]
