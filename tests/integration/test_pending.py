"""``host.prepare``: a pending call that says what would run and runs exactly that, once.

Real markdown tools, the real shell backend, real files on disk: every "nothing ran" is checked
by a marker file the script would have created.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tooldrop.approval
import tooldrop_markdown.plugin
import tooldrop_shell.plugin
from tooldrop import PendingCall, ToolCall, ToolHost, ToolResult, hookimpl

TOOL = """---
name: {name}
description: Write a word to a marker file, then echo it.
approval: {approval}
parameters:
  word:
    type: string
    description: the word
  times:
    type: integer
    default: 2
---
printf '%s' {{{{word}}}} > {marker}
echo {{{{word}}}} {{{{times}}}}
"""


class Seen:
    """Records every finished call (``tooldrop_after_call``)."""

    def __init__(self) -> None:
        self.calls: list[tuple[ToolCall, ToolResult]] = []

    @hookimpl
    def tooldrop_after_call(self, call: ToolCall, result: ToolResult) -> None:
        self.calls.append((call, result))


@pytest.fixture
def place(tmp_path: Path):
    project = tmp_path / "project"
    user = tmp_path / "user"
    (project / ".tooldrop" / "tools").mkdir(parents=True)
    (user / "tools").mkdir(parents=True)
    return project, user


def write(folder: Path, name: str, approval: str, marker: Path) -> Path:
    path = folder / f"{name}.md"
    path.write_text(TOOL.format(name=name, approval=approval, marker=marker))
    return path


@pytest.fixture
def host(place, tmp_path: Path):
    project, user = place
    write(user / "tools", "quiet", "never", tmp_path / "quiet.ran")
    write(user / "tools", "guarded", "always", tmp_path / "guarded.ran")
    seen = Seen()
    with ToolHost(
        project_dir=project,
        user_dir=user,
        plugins=[tooldrop.approval, tooldrop_markdown.plugin, tooldrop_shell.plugin, seen],
    ) as made:
        made.seen = seen  # type: ignore[attr-defined]
        yield made


def test_a_call_that_needs_no_one_runs_as_prepared(host, tmp_path):
    pending = host.prepare("quiet", {"word": "hello"})
    assert isinstance(pending, PendingCall)
    assert (pending.needs_approval, pending.result) == (False, None)
    assert pending.args == {"word": "hello", "times": 2}
    assert pending.script == host.render("quiet", {"word": "hello"})
    assert not (tmp_path / "quiet.ran").exists(), "prepare ran the tool"
    result = pending.run()
    assert (result.text, result.is_error) == ("EXIT_CODE: 0\nhello 2", False)
    assert (tmp_path / "quiet.ran").read_text() == "hello"


def test_an_always_tool_waits_for_a_person_and_says_why(host, tmp_path):
    pending = host.prepare("guarded", {"word": "x"})
    assert pending.needs_approval
    assert "approval is always" in pending.reason
    assert "Script:" in pending.preview and pending.script in pending.preview
    assert '"word": "x"' in pending.preview
    assert not (tmp_path / "guarded.ran").exists()


@pytest.mark.parametrize("answer", [None, False])
def test_without_a_yes_nothing_runs(host, tmp_path, answer):
    result = host.prepare("guarded", {"word": "x"}).run(approved=answer)
    assert result.is_error and result.denied
    expected = "no one to ask" if answer is None else "the user declined"
    assert expected in result.text
    assert not (tmp_path / "guarded.ran").exists()


def test_a_no_denies_even_a_call_that_needs_no_one(host, tmp_path):
    result = host.prepare("quiet", {"word": "x"}).run(approved=False)
    assert result.denied
    assert not (tmp_path / "quiet.ran").exists()


def test_a_yes_runs_exactly_the_script_that_was_shown(host, tmp_path):
    word = "it's $(touch pwned) `id` ; rm -rf ~"
    pending = host.prepare("guarded", {"word": word})
    result = pending.run(approved=True)
    assert result.text == f"EXIT_CODE: 0\n{word} 2"
    assert (tmp_path / "guarded.ran").read_text() == word
    [(call, finished)] = host.seen.calls
    assert call is pending.call
    assert call.script == pending.script
    assert finished == result
    assert not (tmp_path / "pwned").exists()


def test_a_pending_call_runs_once(host):
    pending = host.prepare("quiet", {"word": "x"})
    pending.run()
    with pytest.raises(RuntimeError, match="already ran"):
        pending.run()


def test_an_edited_tool_file_is_refused_after_approval(host, place, tmp_path):
    _, user = place
    pending = host.prepare("guarded", {"word": "x"})
    # Shown the script for one version; the file is then swapped for another.
    write(user / "tools", "guarded", "never", tmp_path / "other.ran")
    result = pending.run(approved=True)
    assert result.is_error and not result.denied
    assert "changed after the call was prepared" in result.text
    assert "guarded.md was edited" in result.text
    assert not (tmp_path / "guarded.ran").exists()
    assert not (tmp_path / "other.ran").exists()


def test_a_deleted_tool_file_is_refused(host, place, tmp_path):
    _, user = place
    pending = host.prepare("guarded", {"word": "x"})
    (user / "tools" / "guarded.md").unlink()
    result = pending.run(approved=True)
    assert "changed after the call was prepared" in result.text
    assert not (tmp_path / "guarded.ran").exists()


def test_a_reload_that_changes_the_tool_is_refused(host, place, tmp_path):
    _, user = place
    pending = host.prepare("guarded", {"word": "x"})
    path = user / "tools" / "guarded.md"
    original = path.read_bytes()
    path.write_text(path.read_text().replace("then echo it", "then echo it again"))
    host.reload()
    path.write_bytes(original)  # back on disk as it was, but the loaded tool is another one
    result = pending.run(approved=True)
    assert "it was reloaded" in result.text
    assert not (tmp_path / "guarded.ran").exists()


def test_invalid_arguments_are_the_models_result_and_nothing_runs(host, tmp_path):
    pending = host.prepare("guarded", {"word": "x", "times": "many"})
    assert pending.call is None and pending.result is not None
    assert not pending.needs_approval
    assert pending.result.text == (
        '⚒ Parameter "times" has wrong type — expected integer, got string'
    )
    result = pending.run(approved=True)
    assert result.text == pending.result.text and result.is_error
    assert not (tmp_path / "guarded.ran").exists()
    # The observers hear about the refused call once, when its result is delivered.
    assert [c.args for c, _ in host.seen.calls] == [{"word": "x", "times": "many"}]


def test_an_unknown_tool_is_an_error_result(host):
    pending = host.prepare("nope")
    assert pending.spec is None and pending.result is not None
    assert pending.result.text.startswith('Unknown tool "nope"')
    assert pending.run().is_error


def test_the_fingerprint_follows_what_would_run(host, place):
    _, user = place
    first = host.prepare("guarded", {"word": "x"})
    assert first.fingerprint == host.prepare("guarded", {"word": "x", "times": 2}).fingerprint
    assert first.fingerprint != host.prepare("guarded", {"word": "y"}).fingerprint
    path = user / "tools" / "guarded.md"
    path.write_text(path.read_text().replace("echo {{word}}", "echo  {{word}}"))
    host.reload()
    assert first.fingerprint != host.prepare("guarded", {"word": "x"}).fingerprint


def test_an_untrusted_projects_tool_needs_a_person_whatever_its_approval(place, tmp_path):
    project, user = place
    write(project / ".tooldrop" / "tools", "local", "never", tmp_path / "local.ran")
    plugins = [tooldrop.approval, tooldrop_markdown.plugin, tooldrop_shell.plugin]
    with ToolHost(project_dir=project, user_dir=user, plugins=plugins, mode="yolo") as host:
        pending = host.prepare("local", {"word": "x"})
        assert pending.needs_approval
        assert "tooldrop trust" in pending.reason
        result = pending.run()
        assert result.denied and "tooldrop trust" in result.text
        assert not (tmp_path / "local.ran").exists()
        host.trust()
        assert not host.prepare("local", {"word": "x"}).needs_approval


def test_aprepare_and_arun(host):
    async def main():
        pending = await host.aprepare("guarded", {"word": "async"})
        assert pending.needs_approval
        return await pending.arun(approved=True)

    assert asyncio.run(main()).text == "EXIT_CODE: 0\nasync 2"


def test_cancelling_arun_stops_the_tool(place, tmp_path):
    asyncio.run(cancel_arun(place, tmp_path))


async def cancel_arun(place, tmp_path):
    project, user = place
    started = tmp_path / "started"
    (user / "tools" / "slow.md").write_text(
        f"---\nname: slow\ndescription: d\napproval: never\n---\ntouch {started}; sleep 60\n"
    )
    plugins = [tooldrop.approval, tooldrop_markdown.plugin, tooldrop_shell.plugin]
    with ToolHost(project_dir=project, user_dir=user, plugins=plugins) as host:
        pending = host.prepare("slow")
        task = asyncio.create_task(pending.arun())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while not started.exists():
            assert loop.time() < deadline, "the tool never started"
            await asyncio.sleep(0.02)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert pending.call is not None and pending.call.cancel.cancelled


# -- prepare agrees with call: the ask callback is consulted exactly when prepare says so ----

CASE = st.tuples(
    st.sampled_from(["never", "destructive", "always"]),
    st.sampled_from(["normal", "auto-accept", "architect", "yolo", "plan", "headless"]),
    st.sampled_from(["personal", "project", "project-trusted"]),
    st.booleans(),
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=CASE)
def test_prepare_says_needs_approval_exactly_when_call_would_ask(tmp_path_factory, case):
    approval, mode, where, always_allowed = case
    root = tmp_path_factory.mktemp("case")
    project, user = root / "project", root / "user"
    folder = user / "tools" if where == "personal" else project / ".tooldrop" / "tools"
    folder.mkdir(parents=True)
    project.mkdir(exist_ok=True)
    write(folder, "t", approval, root / "ran")
    plugins = [tooldrop.approval, tooldrop_markdown.plugin, tooldrop_shell.plugin]
    allow = ["t"] if always_allowed else []
    with ToolHost(
        project_dir=project, user_dir=user, plugins=plugins, mode=mode, always_allow=allow
    ) as host:
        if where == "project-trusted":
            host.trust()
        pending = host.prepare("t", {"word": "w"})
        asked: list[str] = []
        host.call("t", {"word": "w"}, ask=lambda call: asked.append(call.script or "") or False)
        if pending.result is not None:
            assert asked == []
            assert "not available" in pending.result.text
        else:
            assert pending.needs_approval == bool(asked)
            assert asked in ([], [pending.script])
