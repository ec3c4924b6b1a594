"""What ``tooldrop call`` prints on a terminal after streaming: only what the model's text adds.

The real terminal is exercised in tests/shell/test_cli_newcomer.py; here the display is fed
chunks directly, to hold each shape of model text to the rule.
"""

from __future__ import annotations

import pytest

from tooldrop import ToolResult
from tooldrop.cli import _live
from tooldrop.cli._live import CallDisplay


@pytest.fixture
def display(monkeypatch: pytest.MonkeyPatch) -> CallDisplay:
    monkeypatch.setattr(_live, "isatty", lambda stream: True)
    shown = CallDisplay("t", limit=1000)
    shown.HELD = 0  # stream from the first chunk on
    return shown


@pytest.mark.parametrize(
    ("chunks", "model", "stdout", "stderr"),
    [
        (
            [("start\nend\n", "stdout")],
            "EXIT_CODE: 0\nstart\nend",
            "start\nend\n",
            "EXIT_CODE: 0\n",
        ),
        ([("0\n", "stdout")], "EXIT_CODE: 0\n0", "0\n", "EXIT_CODE: 0\n"),  # not EXIT_CODE's 0
        ([("no newline", "stdout")], "EXIT_CODE: 3\nno newline", "no newline\n", "EXIT_CODE: 3\n"),
        (
            [("out\n", "stdout"), ("err\n", "stderr")],
            "EXIT_CODE: 0\nSTDERR:\nerr\nSTDOUT:\nout",
            "out\n",
            "err\nEXIT_CODE: 0\n",
        ),
        (
            [("before\n", "stdout")],
            "Custom tool timed out after 500ms\n\nSTDOUT:\nbefore",
            "before\n",
            "Custom tool timed out after 500ms\n",
        ),
        (
            [("out\n", "stdout")],
            "EXIT_CODE: 1\nout\nsandbox: writing /etc was blocked\n",
            "out\n",
            "EXIT_CODE: 1\nsandbox: writing /etc was blocked\n",
        ),
        (  # a backend that reframes its output: the model's text follows whole
            [("a\nb\n", "stdout")],
            "a and b",
            "a\nb\na and b\n",
            "The model gets:\n",
        ),
    ],
)
def test_after_streamed_output_only_what_the_model_text_adds_follows(
    display, capsys, chunks, model, stdout, stderr
):
    with display:
        for text, stream in chunks:
            display(text, stream)
    display.finish(ToolResult(text=model))
    assert capsys.readouterr() == (stdout, stderr)


def test_a_cut_text_follows_whole_after_a_line_saying_so(display, capsys):
    with display:
        display("x" * 50 + "\n", "stdout")
    display.finish(ToolResult(text="EXIT_CODE: 0\nxx…", truncated=True))
    out, err = capsys.readouterr()
    assert out == "x" * 50 + "\nEXIT_CODE: 0\nxx…\n"
    assert err == "The model gets (cut to the output limit):\n"


def test_output_of_a_call_that_ends_while_held_is_not_streamed(monkeypatch, capsys):
    monkeypatch.setattr(_live, "isatty", lambda stream: True)
    display = CallDisplay("t", limit=1000)
    with display:
        display("hi\n", "stdout")  # the call ends at once: well within the hold
    display.finish(ToolResult(text="EXIT_CODE: 0\nhi"))
    assert capsys.readouterr() == ("EXIT_CODE: 0\nhi\n", "")


def test_held_output_streams_once_the_hold_is_over(monkeypatch, capsys):
    monkeypatch.setattr(_live, "isatty", lambda stream: True)
    display = CallDisplay("t", limit=1000)
    display.HOLD = 0.05
    with display:
        display("start\n", "stdout")
        for _ in range(200):  # the display's thread prints it within a tick or two
            if capsys.readouterr().out == "start\n":
                break
            display._done.wait(0.05)
        else:
            pytest.fail("held output was never printed")
    display.finish(ToolResult(text="EXIT_CODE: 0\nstart"))
    assert capsys.readouterr() == ("", "EXIT_CODE: 0\n")


def test_off_a_terminal_nothing_streams(capsys):
    display = CallDisplay("t", limit=1000)  # capsys: stdout is not a terminal
    assert display.on_output is None
    display.finish(ToolResult(text="EXIT_CODE: 0\nhi"))
    assert capsys.readouterr() == ("EXIT_CODE: 0\nhi", "")
