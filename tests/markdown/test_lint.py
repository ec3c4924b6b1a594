"""Load-time checks of where placeholders stand in the script (DESIGN §5.6).

Each refused form is also *shown* to be dangerous: rendered the way the reference renders it
(no checks) and run by real bash, the value runs as code.
"""

from __future__ import annotations

import subprocess

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tooldrop_markdown import posix_quote, render
from tooldrop_markdown._fields import Param
from tooldrop_markdown._lint import _Checker, _run, _run_again, _scan_run_again, lint
from tooldrop_markdown._template import parse, tokenize

from .conftest import frontmatter

PARAMS = (
    "  x:\n    type: string\n  y:\n    type: string\n  n:\n    type: integer\n"
    "  b:\n    type: boolean\n  xs:\n    type: array\n"
    "  c:\n    type: string\n    enum: [red, green]\n"
)


def body_problems(load, body: str, severity: str = "error") -> list[str]:
    result = load(frontmatter(body, PARAMS))
    return [p.message for p in result.problems if p.field == "body" and p.severity == severity]


@pytest.mark.parametrize(
    "body",
    [
        "echo {{ x }}",
        "cmd --opt={{ x }} a{{ x }}b {{ x }}{{ y }}",
        "ls{{# b }} -a{{/ b }}",
        "kubectl get pods{{# x }} -l {{ x }}{{/ x }}",
        'echo "{{# b }}-v{{/ b }}" {{ x }}',  # a section inside quotes, no placeholder in them
        "echo 'lit'{{ x }}'lit' \"lit\"{{ x }}",
        'echo \\"{{ x }}\\"',  # escaped quotes are plain characters
        'echo "$(date)" `date` $(( 1 + 2 )) ${HOME:-/} {{ x }}',
        "grep -e {{ x }} <(cat file) | sort",
        "cat <<< {{ x }}",
        "cat <<EOF\n$HOME\nEOF\necho {{ x }}",
        "cat <<-'EOF'\n\tliteral\n\tEOF\necho {{ x }}",
        "case {{ x }} in\n  a) echo {{ y }};;\nesac",
        "[[ {{ x }} == a* ]] && echo yes",
        "V={{ x }} cmd\narr=({{ xs }})\nprintf '%s\\n' {{ xs }}",
        "# comment with {{ n }} and {{ b }} and {{ c }}\necho {{ x }}",
        "# {{ undeclared }} and {{# whatever }}…{{/ whatever }}\necho",
        "echo a#{{ x }}",  # not a comment: # inside a word
        "docker ps --format '{{.Names}}' {{ x }}",
        "kubectl get -o go-template='{''{end}}' {{ x }}",
        'echo $(printf %s "a)") {{ x }}',
        "x=$(case a in a) echo b;; esac) && echo {{ x }}",
        'f() { echo "$1"; }\nf {{ x }}',
        "echo {{ x }} # trailing comment",
        "for (( i=0; i<3; i++ )); do echo {{ x }}; done",
    ],
)
def test_accepted(load, body: str) -> None:
    result = load(frontmatter(body, PARAMS))
    assert [p.format() for p in result.problems] == []
    assert len(result.tools) == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            'echo "{{ x }}"',
            "placeholder {{ x }} stands inside double quotes; values are already "
            "single-quoted, so remove the quotes",
        ),
        (
            'kubectl get pods -l "{{ x }}"',
            "inside double quotes",
        ),  # the reference's own docs example
        ('echo "a $(echo b) {{ x }}"', "inside double quotes"),
        ("echo '{{ x }}'", "placeholder {{ x }} stands inside single quotes"),
        ("echo $'{{ x }}'", "inside $'…' quotes"),
        ("echo `echo {{ x }}`", "inside backticks"),
        (
            "echo $(echo {{ x }})",
            "inside $( … ); values stay out of command substitutions: assign it to a "
            'variable first (x={{ x }} on a line of its own) and use "$x" inside',
        ),
        ('echo "$(echo {{ x }})"', "inside $( … )"),
        ("echo $(echo $(echo {{ x }}))", "inside $( … )"),
        ("echo ${HOME:-{{ x }}}", "inside ${ … }"),
        ("echo $(( {{ n }} + 1 ))", "inside arithmetic (( … ))"),
        ("(( {{ n }} > 1 )) && echo", "inside arithmetic (( … ))"),
        ("cat <<EOF\n{{ x }}\nEOF", "inside a heredoc body"),
        ("cat <<'EOF'\nvalue: {{ x }}\nEOF", "inside a heredoc body"),
        ("cat <<-EOF\n\t{{ x }}\n\tEOF", "inside a heredoc body"),
        ("cat <<A <<B\na\nA\n{{ x }}\nB", "inside a heredoc body"),
        # The delimiter is the whole word (X too): an empty line does not end this heredoc.
        ("cat <<X\n\necho {{ x }}\nX", "inside a heredoc body, where quotes are not removed"),
        # tree-sitter-bash does not read two heredocs on one line: refused, never guessed
        ("cat <<A <<B\na\nA\nb\nB\necho {{ x }}", "a script that the checks cannot parse"),
        (
            "# note: {{ x }}\necho",
            "stands in a # comment; a value with a newline would end the comment",
        ),
        ("echo ok # {{ xs }}", "in a # comment"),
        ("echo \\{{ x }}", "a backslash right before {{ x }}"),
        ("echo ${{ x }}", "a $ right before {{ x }} turns the quoted value into $'…'"),
        ("cat <<{{ x }}\nx\n", "stands in a heredoc delimiter"),
        (
            "V={{ xs }} cmd",
            "array placeholder {{ xs }} right after V= assigns the first element and runs "
            "the others",
        ),
        ("echo {{ nope }}", '{{ nope }} names no declared parameter; add "nope" under parameters:'),
        ("echo {{ X }}", 'did you mean "x"?'),
        ("echo {{# nope }}a{{/ nope }}", "{{# nope }} names no declared parameter"),
        ("kubectl get -o go-template='{{end}}'", "split the braces with shell quotes: '{''{end}}'"),
        (
            'echo {{# b }}"{{/ b }} x"',
            "section {{# b }} starts at the top level but its {{/ b }} stands inside double quotes",
        ),
        (
            "echo {{# b }}${HOME{{/ b }}}",
            "section {{# b }} starts at the top level but its {{/ b }} stands inside ${ … }",
        ),
        (
            "echo {{# b }}$(( 1{{/ b }} ))",
            "section {{# b }} starts at the top level but its {{/ b }} stands inside "
            "arithmetic (( … ))",
        ),
        (
            "echo {{# b }}$(x{{/ b }})",
            "keep quotes, $( … ), backticks, comments and heredocs balanced",
        ),
        ("# {{# b }}\necho {{ x }}{{/ b }}", "starts in a # comment"),
        ("{{# b }}cat <<EOF\n{{/ b }}x\nEOF", "inside a heredoc body"),
        (
            "echo {{# b }}x{{/ b }}# y",
            "a # right after a section's closing tag starts a comment only when",
        ),
    ],
)
def test_refused(load, body: str, message: str) -> None:
    result = load(frontmatter(body, PARAMS))
    assert result.tools == ()
    messages = [p.message for p in result.problems]
    assert any(message in text for text in messages), messages


@pytest.mark.parametrize(
    ("param", "refused"),
    [
        ("type: number", False),
        ("type: integer", False),
        ("type: boolean", False),
        ("type: string\n    enum: [red, green]", False),
        ("type: string", True),
        ('type: string\n    enum: [red, "a\\nb"]', True),
    ],
)
def test_a_comment_takes_only_values_without_a_newline(load, param: str, refused: bool) -> None:
    # A value that cannot hold a newline cannot end the comment and run as code.
    result = load(frontmatter("# note: {{ v }}\necho", f"  v:\n    {param}\n"))
    assert [p.message for p in result.problems] == (
        [
            "placeholder {{ v }} stands in a # comment; a value with a newline would end the "
            "comment and run as code. Take it out of the comment"
        ]
        if refused
        else []
    )
    assert len(result.tools) == (0 if refused else 1)


@pytest.mark.parametrize(
    ("word", "variable"), [("V=", "V"), ("AX+=", "AX"), ("a[0]=", "a"), ("_q[i]+=", "_q")]
)
def test_an_array_after_an_assignment_names_the_variable(load, word: str, variable: str) -> None:
    assert body_problems(load, f"{word}{{{{ xs }}}} cmd") == [
        f"array placeholder {{{{ xs }}}} right after {word} assigns the first element and "
        f"runs the others as a command; write {variable}=({{{{ xs }}}}) for a bash array, or "
        "pass it as arguments"
    ]


def test_problems_point_at_the_line_of_the_placeholder(load) -> None:
    text = frontmatter('echo ok\necho fine\necho "{{ x }}"\n\necho `{{ y }}`', PARAMS)
    result = load(text)
    body_start = text.split("\n").index("echo ok") + 1
    assert [(p.line, p.field) for p in result.problems] == [
        (body_start + 2, "body"),
        (body_start + 4, "body"),
    ]


def test_an_unterminated_quote_is_a_warning(load) -> None:
    result = load(frontmatter("echo 'oops {{ x }}", PARAMS))
    # The placeholder is inside the quote: an error; the quote never closing: a warning.
    assert {p.severity for p in result.problems} == {"error", "warning"}
    assert any("the script ends inside single quotes" in p.message for p in result.problems)


@pytest.mark.parametrize(
    ("opener", "where", "parse"),
    [
        ("'", "single quotes", "near line 3 of the body, column 6: \"'a"),
        ('"', "double quotes", "near line 3 of the body, column 6: '\"a"),
        ("$'", "$'…' quotes", "near line 3 of the body, column 6: \"$'a"),
        ("`", "backticks", "line 3 of the body, column 6: '`a"),
        ("$(", "$( … )", "line 3 of the body, column 6: '$(a"),
    ],
)
def test_an_unclosed_quote_is_reported_where_it_opens(
    load, opener: str, where: str, parse: str
) -> None:
    # The parser runs out of text at the end of the body; the line to fix is where the
    # quote or substitution opens, three lines before that.
    body = f"echo start\necho {{{{ x }}}}\necho {opener}a\necho more\necho done"
    text = frontmatter(body, PARAMS)
    result = load(text)
    body_start = text.split("\n").index("echo start") + 1
    found = {(p.line, p.severity): p.message for p in result.problems}
    assert set(found) == {(body_start + 1, "error"), (body_start + 2, "warning")}, found
    assert found[body_start + 2, "warning"] == (
        f"the script ends inside {where} opened here; the shell will refuse it"
    )
    assert f"cannot parse ({parse}" in found[body_start + 1, "error"]
    if opener in ("`", "$("):
        closer = ")" if opener == "$(" else "`"
        assert f"is never closed, a missing {closer!r})" in found[body_start + 1, "error"]


@pytest.mark.parametrize(
    ("tag", "sigil"), [("{{ # x }}", "#"), ("{{\t^ x }}", "^"), ("{{  / x}}", "/")]
)
def test_a_space_before_a_sigil_is_noted(load, tag: str, sigil: str) -> None:
    result = load(frontmatter(f"echo {tag}", PARAMS))
    assert len(result.tools) == 1
    (warning,) = result.problems
    assert warning.severity == "warning"
    assert warning.message == (
        f'"{tag}" is not a section tag: remove the space between {{{{ and {sigil}'
    )


@pytest.mark.parametrize("helper", ["{{#if x}}", "{{#each xs}}", "{{# unless b }}", "{{#with c}}"])
def test_a_handlebars_block_helper_is_noted_and_stays_text(load, helper: str) -> None:
    result = load(frontmatter(f"echo start\n{helper}\necho done", PARAMS))
    assert len(result.tools) == 1  # text, as before: a heredoc may write a Handlebars file
    (warning,) = result.problems
    assert (warning.severity, warning.line) == ("warning", 1 + frontmatter("", PARAMS).count("\n"))
    assert warning.message.startswith(f'"{helper}" is Handlebars, not a section tag')
    assert "{{#x}}…{{/x}} renders when x is set" in warning.message
    payload = result.tools[0].payload
    assert render(payload, {"x": "v"}, posix_quote) == f"echo start\n{helper}\necho done"


def test_a_body_with_crlf_line_ends_warns(load) -> None:
    result = load("---\r\nname: t\r\ndescription: d\r\n---\r\necho a\r\necho b\r\n")
    assert len(result.tools) == 1
    (warning,) = result.problems
    assert "CRLF" in warning.message


def test_undeclared_names_are_not_checked_when_parameters_are_unreadable(load) -> None:
    result = load(frontmatter("echo {{ x }}", extra="parameters: 5\n"))
    assert [p.field for p in result.problems] == ["parameters"]


# What each refused form would do, rendered without the checks (as the reference renders).

PWNED = "PWNED"


def unchecked(body: str, **args: object) -> str:
    template, _ = parse(body, tokenize(body))
    script = render(template, args, posix_quote)
    done = subprocess.run(["/bin/bash", "-c", script], capture_output=True, text=True, timeout=10)
    return done.stdout + done.stderr


@pytest.mark.parametrize(
    ("body", "args"),
    [
        ('echo "{{ x }}"', {"x": f"$(echo {PWNED})"}),
        ("echo '{{ x }}'", {"x": f"; echo {PWNED}; #"}),
        ("echo `echo {{ x }}`", {"x": f"`; echo {PWNED}; `"}),
        ("cat <<EOF\n{{ x }}\nEOF", {"x": f"$(echo {PWNED})"}),
        ("# {{ x }}", {"x": f"\necho {PWNED} #"}),
        ("echo \\{{ x }}", {"x": f"; echo {PWNED} #"}),
        ("echo ${{ x }}", {"x": f"\\'; echo {PWNED} #"}),
        ("V={{ xs }}", {"xs": ["x", "echo", PWNED]}),
        ("echo $(( {{ x }} ))", {"x": f"a[$(echo {PWNED} >&2)]"}),
    ],
)
def test_each_refused_form_really_runs_the_value(body: str, args: dict[str, object]) -> None:
    # Each body line is the value printed back as data when quoting works; PWNED alone on
    # a line (or in an error message) means the value ran.
    output = unchecked(body, **args)
    assert PWNED in output.replace(f"echo {PWNED}", "")


PLAIN = st.lists(
    st.sampled_from(["echo", " ", "\t", "\n", ";", "|", "&", ">", ")", "=", "V=", "a[1]=", "-x",
                     "{{ x }}", "{{ xs }}", "{{ nope }}", "{{# b }}", "{{/ b }}", "{{^ b }}",
                     "{", "}", "{{", "}}", "{{ / b }}", "+="]),
    max_size=25,
).map("".join)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(body=PLAIN)
@example(body="V={{ xs }} {{ nope }}\na[1]+={{# b }}{{/ b }}{{ xs }}")
@example(body="echo b{{# b }}c {{/ b }}{{ xs }}")  # b false glues the array to "b"
@example(body="echo {{ xs }}{{# b }} c{{/ b }}d")
def test_the_top_level_shortcut_agrees_with_the_full_lexer(body: str) -> None:
    # Bodies without quotes, escapes, $, #, < or ( take a shortcut; it must find exactly
    # what the full lexer finds.
    tokens = tokenize(body)
    params = {
        "x": Param(type="string"),
        "xs": Param(type="array"),
        "b": Param(type="boolean"),
    }
    declared = set(params)
    found = lint(tokens, params, declared)
    assert found == _run(_Checker, tokens, params, declared)
    if body.startswith("V={{ xs }} {{ nope }}"):
        assert len(found) == 3  # two array assignments, one undeclared name


COMMANDS = st.lists(
    st.sampled_from(["eval", "ev", "al", "trap", "sh", "ba", "bash", "/bin/", "ssh", "su", "do",
                     "sudo", "env", "A=1", "-c", "-lc", " ", "\n", ";", "|", "&&", "(", ")",
                     "{{ x }}", "{{ xs }}", "{{# b }}", "{{/ b }}", "{{^ b }}", "echo"]),
    max_size=20,
).map("".join)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(body=COMMANDS)
@example(body="ev{{# b }}al {{ x }}")
@example(body="/bin/s{{^ b }}{{/ b }}h -c {{ x }}")
def test_the_run_again_shortcut_misses_no_warning(body: str) -> None:
    # A body whose text names none of eval, sh, ssh... is not scanned for them; the scan
    # must find nothing there either (a command may be split by section tags).
    tokens = tokenize(body)
    at_top = {t.start for t in tokens if t.kind == "var"}
    assert _run_again(tokens, at_top) == _scan_run_again(tokens, at_top)
    if body.startswith("ev{{# b }}al"):
        assert _run_again(tokens, at_top)


@pytest.mark.parametrize(
    ("body", "command"),
    [
        ("eval {{ x }}", "eval"),
        ("trap {{ x }} EXIT", "trap"),
        ("bash -c {{ x }}", "bash"),
        ("sudo -E /bin/sh -c {{ x }}", "sh"),
        ("cd /tmp && env A=1 bash -lc x -c {{ x }}", "bash"),
        ("ssh host {{ x }}", "ssh"),
        ("ssh -p 22 host ls {{ x }}", "ssh"),
        # an assignment before the command holding a value is still an assignment
        ("X={{ y }} sh -c {{ x }}", "sh"),
        ("env X={{ y }} bash -c {{ x }}", "bash"),
        # a word that may expand to nothing, even quoted: the value may become the script
        ("sh -c $@ {{ x }}", "sh"),
        ('sh -c "$@" {{ x }}', "sh"),
        ('bash -c "${args[@]}" {{ x }}', "bash"),
    ],
)
def test_values_run_again_as_code_warn(load, body: str, command: str) -> None:
    result = load(frontmatter(body, PARAMS))
    assert len(result.tools) == 1  # sometimes that is the tool's purpose: a warning
    (warning,) = result.problems
    assert warning.severity == "warning"
    assert f"{{{{ x }}}} is given to {command}" in warning.message


@pytest.mark.parametrize(
    "body",
    [
        "bash ./script.sh {{ x }}",
        "echo eval {{ x }}",
        "ssh-keygen -f {{ x }}",
        'eval "$(ssh-agent)"; echo {{ x }}',
        "bash -c 'exit 0'; echo {{ x }}",
        'sh -c "$*" {{ x }}',  # one word even empty: the value is $0, data
        'sh -c "$x" {{ x }}',
    ],
)
def test_plain_arguments_of_those_commands_do_not_warn(load, body: str) -> None:
    assert load(frontmatter(body, PARAMS)).problems == ()


#: Builtins that read an argument as a variable name, a subscript or arithmetic (bash runs
#: `a[$(…)]` there), written out by hand with what makes them do it.
NAME_TAKING_BY_HAND = [
    "read", "mapfile", "readarray", "let", "declare", "typeset", "local", "export",
    "readonly", "unset", "getopts opts", "wait", "compgen", "complete", "compopt", "alias",
    "bind", "enable", "hash", "printf -v", "test -v", "[ -v",
]  # fmt: skip


@pytest.mark.parametrize("builtin", NAME_TAKING_BY_HAND)
@pytest.mark.parametrize("prefix", ["", "command ", "builtin ", "time "])
def test_a_value_given_to_a_builtin_that_reads_names_is_refused(load, builtin, prefix) -> None:
    assert body_problems(load, f"{prefix}{builtin} {{{{ x }}}}"), (prefix, builtin)


@pytest.mark.parametrize("name", ["RANDOM", "SRANDOM", "OPTIND", "HISTCMD", "PATH", "BASH_ARGV0"])
def test_a_value_assigned_to_a_variable_bash_evaluates_is_refused(load, name) -> None:
    assert body_problems(load, f"{name}={{{{ x }}}} echo hi"), name


def test_a_section_after_sixteen_others_is_still_checked(load) -> None:
    # Sixteen sections of plain arguments, then one whose absence (b false) leaves the value
    # where the command name goes: it must be read like the first.
    body = "echo" + "{{# b }} a{{/ b }}" * 16 + "\n{{# b }}ls {{/ b }}{{ x }} a"
    assert any("stands where the command name goes" in m for m in body_problems(load, body))


@pytest.mark.parametrize("count", [16, 17])
def test_a_body_with_more_shapes_than_the_checks_read_is_refused(load, count: int) -> None:
    # Each section holds a quoted word, so each shape is parsed; past sixteen, refused.
    body = "echo {{ x }}" + '{{# b }} "a"{{/ b }}' * count
    expected = [] if count == 16 else [
        "placeholder {{ x }} stands in a body with more than 16 sections that change the script "
        "when left out, more shapes than the checks read; use fewer sections, or sections that "
        "only add whole arguments to a command"
    ]  # fmt: skip
    assert body_problems(load, body) == expected


def test_an_undeclared_placeholder_gets_one_message_not_a_position_too(load) -> None:
    # It names no parameter (it renders as nothing): that is the message, not also where it
    # stands.
    result = load(frontmatter('{{ nope }} --help "a"', PARAMS))
    (problem,) = result.problems
    assert problem.message.startswith(
        '{{ nope }} names no declared parameter; add "nope" under parameters:'
    )


def test_placeholders_are_judged_when_parameters_are_unreadable(load) -> None:
    # Without the parameters, every name counts as declared: the positions are still read.
    result = load(frontmatter('echo "a" {{ x }}\n{{ y }} --help', extra="parameters: 5\n"))
    assert [(p.field, p.message[:60]) for p in result.problems] == [
        ("parameters", result.problems[0].message[:60]),
        ("body", "placeholder {{ y }} stands where the command name goes, so t"),
    ]


def test_a_placeholder_the_lexer_refused_is_not_reported_again_in_a_broken_script(load) -> None:
    errors = body_problems(load, 'echo "{{ x }}" {{ y }} )')
    assert len(errors) == 2, errors
    assert errors[0].startswith("placeholder {{ x }} stands inside double quotes")
    assert errors[1].startswith("placeholder {{ y }} stands in a script that the checks cannot")


def test_the_parse_error_is_placed_by_line_and_character_from_the_first_byte(load) -> None:
    # The section tag renders as nothing, so the script starts with the newline; é is one
    # column, not two bytes.
    (error,) = body_problems(load, "{{# x }}\necho é {{ x }} ){{/ x }}")
    assert "cannot parse (near line 2 of the body, column 12: ')')" in error


@pytest.mark.parametrize(
    ("script", "quoted"),
    [
        ("echo  a\tb", "'echo a b'"),
        ("x" * 30, "'" + "x" * 30 + "'"),
        ("x" * 31, "'" + "x" * 30 + "…'"),
    ],
)
def test_a_snippet_quotes_a_node_on_one_line_and_at_most_30_characters(
    script: str, quoted: str
) -> None:
    from tooldrop_markdown._bashtree import parser, snippet

    root = parser().parse(script.encode()).root_node
    assert snippet(root.children[0]) == quoted
    assert snippet(None) == "unknown"
