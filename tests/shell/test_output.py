"""The text the model sees for what a real script printed and how it exited."""

from __future__ import annotations

import pytest

from tooldrop import truncate, truncation_marker


def test_stdout_only(run):
    result = run("echo hello")
    assert result.text == "EXIT_CODE: 0\nhello"
    assert (result.exit_code, result.is_error, result.truncated) == (0, False, False)


def test_stderr_and_stdout(run):
    # The reference's own case: exactly this text.
    assert run("echo oops >&2; exit 3", shell="sh").text == "EXIT_CODE: 3\nSTDERR:\noops\nSTDOUT:\n"
    result = run("echo out; echo err >&2")
    assert result.text == "EXIT_CODE: 0\nSTDERR:\nerr\nSTDOUT:\nout"


def test_non_zero_exit_is_a_result_not_an_error(run):
    result = run("printf 'vulnerability table here\\n'; exit 1")
    assert result.text == "EXIT_CODE: 1\nvulnerability table here"
    assert result.exit_code == 1
    assert not result.is_error


@pytest.mark.parametrize(
    ("printf", "shown"),
    [
        ("a\\034", "a\x1c"),  # not whitespace to JavaScript: kept (Python's rstrip drops it)
        ("a\\302\\205", "a\x85"),  # NEL: kept too
        ("a\\357\\273\\277", "a"),  # U+FEFF is, to JavaScript: trimmed
        ("a\\342\\200\\250 \\t", "a"),  # LINE SEPARATOR, space, tab
    ],
)
def test_output_is_trimmed_as_javascript_trims(run, printf, shown):
    assert run(f"printf '{printf}'").text == f"EXIT_CODE: 0\n{shown}"


def test_empty_output(run):
    assert run("true").text == "EXIT_CODE: 0\n"


def test_streams_are_right_trimmed_only(run):
    assert run("printf '  lead\\n\\n  \\t\\r\\n'").text == "EXIT_CODE: 0\n  lead"
    # stderr that is only whitespace counts as empty: no STDERR section
    assert run("echo x; printf ' \\n\\n' >&2").text == "EXIT_CODE: 0\nx"


@pytest.mark.parametrize(("script", "code"), [("kill -9 $$", 137), ("kill -TERM $$", 143)])
def test_signal_death_is_128_plus_n(run, script, code):
    result = run(f"echo before; {script}; echo after")
    assert result.text == f"EXIT_CODE: {code}\nbefore"
    assert result.exit_code == code
    assert not result.is_error


def test_exit_code_above_255_wraps_like_the_shell(run):
    assert run("exit 300").text == "EXIT_CODE: 44\n"


def test_utf8_split_across_writes_stays_whole(run):
    result = run(
        "printf '\\303'; sleep 0.05; printf '\\251 \\360\\237'; sleep 0.05; printf '\\230\\200'"
    )
    assert result.text == "EXIT_CODE: 0\né 😀"


def test_invalid_utf8_becomes_replacement_characters(run):
    assert run("printf 'a\\377b\\303'").text == "EXIT_CODE: 0\na\ufffdb\ufffd"


def test_long_output_is_cut_like_the_reference(run):
    # The reference's case: 3000 lines, 25902 characters, cut to 2000 around the marker.
    lines = "\n".join(f"line{i}" for i in range(3000))
    result = run("i=0; while [ $i -lt 3000 ]; do echo line$i; i=$((i+1)); done", shell="sh")
    full = f"EXIT_CODE: 0\n{lines}"
    assert len(full) == 25902
    assert result.text == truncate(full, 2000)[0]
    assert len(result.text) == 2000
    assert truncation_marker(25902) in result.text
    assert result.text.startswith("EXIT_CODE: 0\nline0\n")
    assert result.text.endswith("line2999")
    assert result.truncated


def test_output_limit_is_the_hosts(pack, new_host):
    pack.add("many", "seq 1 5000; seq 1 3000 >&2")
    host = new_host(output_limit=300)
    result = host.call("many", {})
    out = "\n".join(str(i) for i in range(1, 5001))
    err = "\n".join(str(i) for i in range(1, 3001))
    assert result.text == truncate(f"EXIT_CODE: 0\nSTDERR:\n{err}\nSTDOUT:\n{out}", 300)[0]
    assert len(result.text) == 300
    assert result.truncated


def test_output_at_the_limit_is_untouched(pack, new_host):
    body = "x" * (2000 - len("EXIT_CODE: 0\n"))
    pack.add("exact", f"printf '%s' {body}")
    result = new_host().call("exact", {})
    assert result.text == f"EXIT_CODE: 0\n{body}"
    assert not result.truncated


def test_whitespace_flood_is_trimmed_to_nothing(run):
    result = run("echo start; yes '' | head -n 200000")
    assert result.text == "EXIT_CODE: 0\nstart"
    assert not result.truncated
