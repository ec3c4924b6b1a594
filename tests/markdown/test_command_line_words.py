"""How the run-again warnings read a command's text: where the last simple command starts
(quotes, backticks, ``$( … )`` and redirections like ``2>&1`` end no command) and the words
bash splits it into (blanks inside quotes and substitutions split nothing).

First directly, ``command_words`` on the text before a value (the value is the last word,
written ``x`` here); then through a tool file, where the reading decides the warning.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldrop_markdown._cmdline import command_words

from .conftest import bash_runs, frontmatter

# (text, the words of its last simple command, redirections left out)
WORDS = [
    # Separators end a command; quoted, escaped or substituted ones do not.
    pytest.param("echo a;eval x", ["eval", "x"], id="semicolon"),
    pytest.param("echo a|eval x", ["eval", "x"], id="pipe"),
    pytest.param("echo a && eval x", ["eval", "x"], id="and"),
    pytest.param("(eval x", ["eval", "x"], id="subshell-first"),
    pytest.param("echo a; (eval x", ["eval", "x"], id="subshell-after"),
    pytest.param("echo a;(eval x", ["eval", "x"], id="subshell-right-after-semicolon"),
    pytest.param("echo ';' eval x", ["echo", "';'", "eval", "x"], id="single-quoted-semicolon"),
    pytest.param("echo ';' ; eval x", ["eval", "x"], id="semicolon-after-single-quoted"),
    pytest.param("'a;b' x", ["'a;b'", "x"], id="single-quote-first"),
    pytest.param("echo '';eval x", ["eval", "x"], id="empty-single-quotes"),
    pytest.param('echo "";eval x', ["eval", "x"], id="empty-double-quotes"),
    pytest.param("echo $'';eval x", ["eval", "x"], id="empty-ansi-quotes"),
    pytest.param('eval "a\\";b" x', ["eval", '"a\\";b"', "x"], id="escaped-double-quote"),
    pytest.param('echo "a\\\\";eval x', ["eval", "x"], id="escaped-backslash-ends-quote"),
    pytest.param("eval $'a;b' x", ["eval", "$'a;b'", "x"], id="ansi-quoted-semicolon"),
    pytest.param("eval $'a\\';b' x", ["eval", "$'a\\';b'", "x"], id="ansi-escaped-quote"),
    pytest.param("echo $'\\';';eval x", ["eval", "x"], id="ansi-escaped-quote-then-semicolon"),
    pytest.param('echo "a b', ["echo", '"a b'], id="unclosed-double-quote"),
    pytest.param("echo 'a b", ["echo", "'a b"], id="unclosed-single-quote"),
    pytest.param("echo X;eval $X x", ["eval", "$X", "x"], id="capital-x-is-no-quote"),
    pytest.param("eval a\\;b x", ["eval", "a\\;b", "x"], id="escaped-semicolon"),
    pytest.param("eval a\\; x", ["eval", "a\\;", "x"], id="escaped-semicolon-then-blank"),
    pytest.param("echo \\;;eval x", ["eval", "x"], id="escaped-then-real-semicolon"),
    pytest.param("eval a\\ b x", ["eval", "a\\ b", "x"], id="escaped-blank"),
    pytest.param("sh -c \\\nx", ["sh", "-c", "x"], id="line-continuation"),
    # Backticks hold separators and blanks.
    pytest.param("echo `a`;eval x", ["eval", "x"], id="backticks-then-semicolon"),
    pytest.param("echo ``;eval x", ["eval", "x"], id="empty-backticks"),
    pytest.param("echo `a;b` eval x", ["echo", "`a;b`", "eval", "x"], id="semicolon-in-backticks"),
    pytest.param("echo `a\\`;b`;eval x", ["eval", "x"], id="escaped-backtick-in-backticks"),
    pytest.param("echo `a\\\\`;eval x", ["eval", "x"], id="escaped-backslash-in-backticks"),
    pytest.param("bash -c `a b` x", ["bash", "-c", "`a b`", "x"], id="blank-in-backticks"),
    # $( … ), $(( … )) and ${ … } are one word, their parentheses no subshell.
    pytest.param("eval $(a b) x", ["eval", "$(a b)", "x"], id="substitution-with-blank"),
    pytest.param("eval $(a) x", ["eval", "$(a)", "x"], id="substitution"),
    pytest.param("eval $() x", ["eval", "$()", "x"], id="empty-substitution"),
    pytest.param("eval $(X a) x", ["eval", "$(X a)", "x"], id="substitution-capital-x"),
    pytest.param("eval $( (a) b) x", ["eval", "$( (a) b)", "x"], id="subshell-in-substitution"),
    pytest.param("eval ${a:-b c} x", ["eval", "${a:-b c}", "x"], id="parameter-with-blank"),
    pytest.param("eval $(a;b) x", ["eval", "$(a;b)", "x"], id="semicolon-in-substitution"),
    pytest.param("eval $(a|b) x", ["eval", "$(a|b)", "x"], id="pipe-in-substitution"),
    pytest.param("eval $(a\nb) x", ["eval", "$(a\nb)", "x"], id="newline-in-substitution"),
    pytest.param("eval $(a && (b)) x", ["eval", "$(a && (b))", "x"], id="and-in-substitution"),
    pytest.param("echo $(a); eval x", ["eval", "x"], id="semicolon-after-substitution"),
    pytest.param("echo $(a); (eval x", ["eval", "x"], id="subshell-after-substitution"),
    pytest.param("echo $((1+2)); (eval x", ["eval", "x"], id="subshell-after-arithmetic"),
    pytest.param("eval $((x)) x", ["eval", "$((x))", "x"], id="arithmetic"),
    pytest.param(
        'sudo -u me sh -c "$(date +%s)" x', ["sudo", "-u", "me", "sh", "-c", '"$(date +%s)"', "x"],
        id="quoted-substitution",
    ),
    # Redirections end no command, and are left out with their targets.
    pytest.param("eval a 2>&1 x", ["eval", "a", "x"], id="dup-stderr"),
    pytest.param("eval a <&0 x", ["eval", "a", "x"], id="dup-stdin"),
    pytest.param("eval a &>f x", ["eval", "a", "x"], id="both-to-file"),
    pytest.param("eval a &> f x", ["eval", "a", "x"], id="both-to-file-apart"),
    pytest.param("eval a >|f x", ["eval", "a", "x"], id="clobber"),
    pytest.param("eval a <<<b x", ["eval", "a", "x"], id="here-string"),
    pytest.param("eval a > f x", ["eval", "a", "x"], id="target-apart"),
    pytest.param("echo a |& eval x", ["eval", "x"], id="pipe-both"),
    pytest.param("echo a & eval x", ["eval", "x"], id="background"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "words"), WORDS)
def test_command_words(text: str, words: list[str]) -> None:
    assert command_words(text) == words


MARKER = "PWNED"
VALUE = f"\ntouch {MARKER}"
PARAMS = "  x:\n    type: string\n"

# (body, whether bash runs the value as code: then the tool file warns)
RUNS = [
    pytest.param("echo ';' ; eval {{ x }}", True, id="semicolon-after-quoted-one"),
    pytest.param("echo ';' eval {{ x }}", False, id="quoted-semicolon"),
    pytest.param('echo "a;b" eval {{ x }}', False, id="double-quoted-semicolon"),
    pytest.param("echo $'\\';' eval {{ x }}", False, id="ansi-quoted-semicolon"),
    pytest.param("echo $'\\';'; eval {{ x }}", True, id="semicolon-after-ansi-quote"),
    pytest.param("echo `echo a;echo b` eval {{ x }}", False, id="semicolon-in-backticks"),
    pytest.param("echo `echo a`; eval {{ x }}", True, id="semicolon-after-backticks"),
    pytest.param("echo $(echo a;echo b) eval {{ x }}", False, id="semicolon-in-substitution"),
    pytest.param("echo $(echo a); eval {{ x }}", True, id="semicolon-after-substitution"),
    pytest.param("eval $(true;echo :) {{ x }}", True, id="eval-of-substitution-with-semicolon"),
    pytest.param("eval $(echo :|cat) {{ x }}", True, id="eval-of-substitution-with-pipe"),
    pytest.param("eval : 2>&1 {{ x }}", True, id="dup-stderr"),
    pytest.param("eval : &>f {{ x }}", True, id="both-to-file"),
    pytest.param("eval : >|f {{ x }}", True, id="clobber"),
    pytest.param("eval : <&0 {{ x }}", True, id="dup-stdin"),
    pytest.param("eval : <<<b {{ x }}", True, id="here-string"),
    pytest.param("echo a |& eval {{ x }}", True, id="pipe-both"),
    pytest.param("echo a && eval {{ x }}", True, id="and"),
    pytest.param("eval :\\; {{ x }}", True, id="escaped-semicolon-given-to-eval"),
    pytest.param("echo a\\; eval {{ x }}", False, id="escaped-semicolon"),
    pytest.param("sh -c \\\n {{ x }}", True, id="line-continuation"),
    pytest.param("# eval\necho {{ x }}", False, id="comment"),
    pytest.param("(eval {{ x }})", True, id="subshell"),
]


def bash_runs_it(tmp_path: Path, body: str) -> bool:
    return bash_runs(tmp_path, body, VALUE, MARKER)


@pytest.mark.parametrize(("body", "runs"), RUNS)
def test_the_tool_file_warns_when_bash_runs_the_value(
    load, tmp_path: Path, body: str, runs: bool
) -> None:
    assert bash_runs_it(tmp_path, body) == runs
    result = load(frontmatter(body, PARAMS, "shell: bash\n"))
    assert len(result.tools) == 1, [p.format() for p in result.problems]
    warned = [p.message for p in result.problems if p.severity == "warning"]
    if runs:
        assert any("{{ x }} is given to " in m and "runs it as shell code" in m for m in warned)
    else:
        assert warned == []
