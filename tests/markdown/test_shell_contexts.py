"""Where the shell lexer says each point of a script stands (the quoting context a
placeholder there would be read in), table-driven and fast.

Each row is a script with ``¶`` marks where a template tag would stand; the lexer reads
the text between the marks in chunks, the way the template checks feed it, and says after
each chunk where the next character stands. The expected contexts are the words the load
problems show the model ("inside $( … )", "in a # comment", ...).
"""

from __future__ import annotations

import pytest

from tooldrop_markdown._shell import ShellLexer

from .conftest import frontmatter

MARK = "¶"
NAMES = {
    "at the top level": "top",
    "inside $( … )": "cmd",
    "inside backticks": "bt",
    "inside double quotes": "dq",
    "inside single quotes": "sq",
    "inside $'…' quotes": "ansi",
    "inside ${ … }": "param",
    "inside arithmetic (( … ))": "arith",
    "in a # comment": "comment",
    "inside a heredoc body": "heredoc",
}


def contexts(script: str) -> list[str]:
    """The context at each mark, plus ``+$`` / ``+<<`` when the chunk ended in a plain
    ``$`` or inside a heredoc delimiter (what a tag right there would be glued to)."""
    lexer = ShellLexer()
    found: list[str] = []
    chunks = script.split(MARK)
    base = 0
    for number, chunk in enumerate(chunks):
        lexer.feed(chunk, base)
        base += len(chunk)
        if number < len(chunks) - 1:
            name = NAMES[lexer.where(lexer.state())]
            name += "+$" if lexer.dollar_at_end else ""
            name += "+<<" if lexer.delimiter_open else ""
            found.append(name)
    return found


ROWS = [
    # quotes, and what comes right after one closes
    ("sq", "echo '¶'", ["sq"]),
    ("after-sq-no-comment", "echo 'a'#¶", ["top"]),
    ("dq-backtick", 'echo "`¶`¶"¶', ["bt", "dq", "top"]),
    ("bt-closes-then-sq", "`a`'¶'", ["sq"]),
    ("ansi", "echo $'¶'", ["ansi"]),
    ("ansi-closes-then-sq", "$'a''¶'", ["sq"]),
    ("ansi-empty-then-sq", "$'' '¶'", ["sq"]),
    ("dollar-dq", 'echo $"¶"', ["dq"]),
    ("dollar-dq-closes", 'echo $"" ¶', ["top"]),
    ("dollar-quote-in-dq-is-text", "echo \"$'¶'\"", ["dq"]),
    ("dollar-dq-in-dq-closes", 'echo "$"¶', ["top"]),
    # escapes and line continuations
    ("escaped-char-then-sq", "echo \\a'¶'", ["sq"]),
    ("escaped-char-no-comment", "echo \\a#¶", ["top"]),
    ("continuation-at-word-start", "echo \\\n# x¶", ["comment"]),
    ("continuation-mid-word", "echo a\\\n# x¶", ["top"]),
    # comments
    ("comment", "echo #¶", ["comment"]),
    ("hash-in-word", "echo a#¶", ["top"]),
    ("hash-in-word-then-sq", "echo a#'¶'", ["sq"]),
    ("newline-then-sq", "echo\n'¶'", ["sq"]),
    ("dollar-dollar-no-comment", "echo $$#¶", ["top"]),
    ("dollar-dollar-then-sq", "echo $$'¶'", ["sq"]),
    ("dollar-hash-no-comment", "echo $#¶", ["top"]),
    ("dollar-at-end", "echo $¶ x", ["top+$"]),
    # $( … ), with parentheses and case patterns
    ("cmd-then-sq", "echo $('¶')", ["sq"]),
    ("cmd-subshell", "echo $( (a) ¶)¶", ["cmd", "top"]),
    ("cmd-subshell-open", "echo $( (echo ¶) )¶", ["cmd", "top"]),
    ("cmd-in-subshell-arith", "$( (echo $((1)) )¶ )¶", ["cmd", "top"]),
    ("cmd-arith-closes-both", "$(echo $((1)) ¶)¶", ["cmd", "top"]),
    ("cmd-arith-one-paren", "$(x $((1)¶ )¶", ["cmd", "top"]),
    ("cmd-nested-subshells", "$( ( (a) ) ¶)¶", ["cmd", "top"]),
    ("cmd-param-in-subshell", "$( (echo ${a}¶ ) )¶", ["cmd", "top"]),
    # a # right after $( starts a comment, as in bash, even inside a word or quotes
    ("cmd-comment-in-word", "echo a$(# c )¶\n)¶", ["comment", "top"]),
    ("cmd-comment-in-dq", 'echo "$(# c )¶\n)"¶', ["comment", "top"]),
    ("cmd-comment-after-escape-in-dq", 'echo "\\\\$(#¶\n)"¶', ["comment", "top"]),
    ("case-pattern", "$(case x in a) echo ¶;; esac)¶", ["cmd", "top"]),
    ("case-open-pattern", "$(case x in (a) echo ¶;; esac)¶", ["cmd", "top"]),
    ("esac-as-word", "x $(echo esac)¶", ["top"]),
    # ${ … }
    ("param-braces", "echo ${a:-{b}¶}¶", ["param", "top"]),
    ("param-nested-braces", "${a:-{{b}}¶}¶", ["param", "top"]),
    ("param-then-sq", "echo ${a}'¶'", ["sq"]),
    ("param-sq", "echo ${'¶'}", ["sq"]),
    # arithmetic
    ("arith", "echo $(( (¶1) + 2 ))¶", ["arith", "top"]),
    ("arith-nested", "echo $(((1)¶))¶", ["arith", "top"]),
    ("arith-parens-nested", "$(( ((1)+(2)) ¶))¶", ["arith", "top"]),
    ("arith-one-paren-closes", "$(( (1) )¶)", ["top"]),
    ("arith-empty-parens", "$(( ()) ¶", ["top"]),
    ("arith-cmd-after-parens", "$(( (a)$(¶b) ))", ["cmd"]),
    ("arith-then-sq", "echo $((1))'¶'", ["sq"]),
    ("arith-one-paren-then-sq", "echo $((1)'¶'", ["sq"]),
    ("arith-command", "((¶))¶", ["arith", "top"]),
    ("arith-command-nested", "((( 1 )¶ ))¶", ["arith", "top"]),
    # here-strings and heredocs
    ("here-string-sq", "cat <<<'¶'", ["sq"]),
    ("here-string-no-heredoc", "cat <<< x\necho ¶", ["top"]),
    ("heredoc", "cat <<E\n¶\nE\necho ¶", ["heredoc", "top"]),
    ("heredoc-end-split", "cat <<E\nE¶\necho ¶", ["heredoc", "top"]),
    ("heredoc-space", "cat << E\nx¶\nE\necho ¶", ["heredoc", "top"]),
    ("heredoc-quoted", "cat <<'E'\nx¶\nE\necho ¶", ["heredoc", "top"]),
    ("heredoc-empty-quotes", "cat <<''E\nx¶\nE\necho ¶", ["heredoc", "top"]),
    ("heredoc-quoted-then-text", "cat <<'E'x\nq¶\nEx\necho ¶", ["heredoc", "top"]),
    ("heredoc-escaped", "cat <<\\EF\nq¶\nEF\necho ¶", ["heredoc", "top"]),
    ("heredoc-escape-split", "cat <<\\E¶\nq\nE\necho ¶", ["top+<<", "top"]),
    ("heredoc-backslash-last", "cat <<E\\¶\n", ["top+<<"]),
    ("heredoc-open-quote", "cat <<'E ¶", ["top+<<"]),
    ("heredoc-tabs-only", "cat <<-E\nXE\n¶", ["heredoc"]),
    ("heredoc-tabs", "cat <<-E\n\tq¶\n\tE\necho ¶", ["heredoc", "top"]),
]


@pytest.mark.parametrize(("script", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_the_context_at_each_mark(script: str, expected: list[str]) -> None:
    assert contexts(script) == expected


UNCLOSED = [
    ("echo $(a", 5, "$( … )"),
    ("echo ${a", 5, "${ … }"),
    ("echo $((1", 5, "arithmetic (( … ))"),
    ("echo ((1", 5, "arithmetic (( … ))"),
    ('echo $"abc', 5, "double quotes"),
    ("echo `a", 5, "backticks"),
    ('echo "`a', 6, "backticks"),
]


@pytest.mark.parametrize(("script", "offset", "where"), UNCLOSED)
def test_an_unclosed_context_is_reported_where_it_opens(
    script: str, offset: int, where: str
) -> None:
    lexer = ShellLexer()
    lexer.feed(script, 0)
    lexer.finish()
    assert (offset, f"the script ends inside {where} opened here; the shell will refuse it") == (
        lexer.problems[-1][:2]
    )


PARAMS = "  x:\n    type: string\n  b:\n    type: boolean\n  xs:\n    type: array\n"


THROUGH_LOAD = [
    # a section must close in the context it opened in
    ("echo $( ( {{# b }} ) {{/ b }} )", "starts inside $( … ) but"),
    ("cat <<E {{# b }}\nE\necho {{/ b }}", "starts at the top level but"),
    ("echo ${{ x }}", "a $ right before {{ x }}"),
    # one error each, not also "a # right after a section's closing tag"
    ('echo "{{# b }}"{{/ b }}#x', "starts inside double quotes but"),
    ("echo \\{{# b }}x{{/ b }}#", "a backslash right before {{# b }}"),
    # which words are an assignment before an array placeholder
    ('"\\1"A={{ xs }}', "right after A="),  # an escape in quotes is not in the word
    ("A$={{ xs }}", None),
    ("A$$={{ xs }}", None),
    ("A#={{ xs }}", None),
    ("A={{ xs }}", "array placeholder {{ xs }} right after A="),
]


@pytest.mark.parametrize(("body", "phrase"), THROUGH_LOAD)
def test_what_the_checks_see_through_the_lexer(load, body: str, phrase: str | None) -> None:
    result = load(frontmatter(body, PARAMS))
    errors = [p.message for p in result.problems if p.severity == "error"]
    if phrase is None:
        assert not [e for e in errors if "right after" in e], errors
    else:
        assert len(errors) == 1 and phrase in errors[0], errors


BALANCED = [
    # two heredocs with the same delimiter: a section may span from one body to the other
    "cat <<E\n{{# b }}\nE\ncat <<E\n{{/ b }}\nE",
    # ... or from after one heredoc operator to after another one
    "cat <<E {{# b }}\nE\ncat <<E {{/ b }}\nE",
]


@pytest.mark.parametrize("body", BALANCED)
def test_a_section_across_like_heredocs_is_balanced(load, body: str) -> None:
    result = load(frontmatter(body, PARAMS))
    assert [p.message for p in result.problems if p.severity == "error"] == []
