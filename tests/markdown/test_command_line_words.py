"""How the run-again warnings read a command's text: where the last simple command starts
(quotes, backticks, ``$( … )`` and redirections like ``2>&1`` end no command) and the words
bash splits it into (blanks inside quotes and substitutions split nothing).

First directly, ``command_words`` on the text before a value (the value is the last word,
written ``x`` here); then through a tool file, where the reading decides the warning.
"""

from __future__ import annotations

import pytest

from tooldrop_markdown._cmdline import command_words

from .conftest import frontmatter

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
