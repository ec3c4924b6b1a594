"""``call``: validate, approve and run one tool, printing exactly what the model would see."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import click

from .._errors import RenderError
from .._model import Decision, ToolCall, ToolResult, ToolSpec
from ..host._host import ToolHost
from ..host._lifetime import stopped_by
from ._context import CliContext, pass_cli, skill_option
from ._format import allowed, echo_json, place_text, shown_path
from ._live import CallDisplay, isatty
from ._signals import exit_status, handle_stop_signals, say_stopped

__all__ = [
    "always_allow_note",
    "call_command",
    "describe_call",
    "parse_call_args",
    "prompt_for_approval",
]

#: Exit statuses of ``tooldrop call``.
EXIT_OK, EXIT_ERROR, EXIT_DENIED = 0, 1, 2


class CallArgsError(ValueError):
    """``--args`` or a ``KEY=VALUE`` pair could not be read."""


def _is_string_param(spec: ToolSpec | None, key: str) -> bool:
    schema = spec.parameters.get(key) if spec is not None else None
    if not isinstance(schema, Mapping):
        return False
    kind = schema.get("type")
    return kind == "string" or (isinstance(kind, list) and "string" in kind)


def _coerce(spec: ToolSpec | None, key: str, text: str) -> Any:
    if _is_string_param(spec, key):
        return text  # a string parameter takes the text as typed: 007 stays "007"
    try:
        return json.loads(text)
    except ValueError:
        return text  # not JSON: let the schema check say what it should have been


def parse_call_args(
    spec: ToolSpec | None, args_json: str | None, pairs: Sequence[str]
) -> dict[str, Any]:
    """The call's arguments: ``--args`` (a JSON object), then ``KEY=VALUE`` pairs over it.

    A pair's value is taken as text for ``string`` parameters, else read as JSON (``3``,
    ``true``, ``["a","b"]``) and kept as text when it is not JSON.

    :raises CallArgsError: ``--args`` is not a JSON object, or a pair has no ``=``.
    """
    args: dict[str, Any] = {}
    if args_json is not None:
        try:
            value = json.loads(args_json)
        except ValueError as exc:
            raise CallArgsError(f"--args is not valid JSON: {exc}") from exc
        if not isinstance(value, dict):
            raise CallArgsError(f"--args must be a JSON object, not {type(value).__name__}")
        args.update(value)
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            raise CallArgsError(f"expected KEY=VALUE, got {pair!r}")
        args[key] = _coerce(spec, key, text)
    return args


def describe_call(call: ToolCall, host: ToolHost) -> str:
    """What a person needs to decide: the tool, where it comes from, its arguments, its script."""
    spec = call.spec
    origin = spec.origin.describe()
    if spec.origin.path is not None:
        origin = f"{origin}, {shown_path(spec.origin.path)}"
    lines = [f"Tool: {spec.name} ({origin})"]
    if spec.description:
        lines.append(f"  {spec.description.strip().splitlines()[0]}")
    if host is not None:  # (a host that only formats calls may not have one)
        lines.append(f"Allowed: {allowed(spec, host)}")
    arguments = json.dumps(dict(call.args), indent=2, ensure_ascii=False, default=str)
    lines.append("Arguments:")
    lines.extend(f"  {line}" for line in arguments.splitlines())
    if call.script is not None:
        lines.append(f"Script ({spec.shell or 'default shell'}):")
        lines.extend(f"  | {line}" for line in call.script.splitlines() or [""])
    lines.extend(setting_lines(spec))
    return "\n".join(lines)


def setting_lines(spec: ToolSpec, indent: str = "") -> list[str]:
    """The tool's ``cwd:`` and every ``env:`` entry, as written: a variable can change what
    an innocent-looking script runs (a git config entry, a library path), so a person
    approving the call or trusting the project sees them all."""
    lines = []
    if spec.cwd is not None:
        lines.append(f"{indent}Runs in: {spec.cwd}")
    if spec.env:
        lines.append(f"{indent}Environment:")
        lines.extend(f"{indent}  {name}={value!r}" for name, value in spec.env.items())
    return lines


CHOICES = {"y": "yes", "n": "no", "a": "always allow", "e": "edit the arguments"}
#: Whole words a person may type instead of the letter.
WORDS = {"y": "yes", "n": "no", "a": "always", "e": "edit"}


def _edit_args(args: Mapping[str, Any]) -> dict[str, Any] | None:
    """Open ``args`` in ``$EDITOR``; ``None`` when left unchanged or not a JSON object."""
    before = json.dumps(dict(args), indent=2, ensure_ascii=False, default=str) + "\n"
    after = click.edit(before, extension=".json", require_save=True)
    if after is None:
        click.echo("Arguments unchanged.", err=True)
        return None
    try:
        value = json.loads(after)
    except ValueError as exc:
        click.echo(f"Not valid JSON ({exc}); arguments unchanged.", err=True)
        return None
    if not isinstance(value, dict):
        click.echo("The arguments must be a JSON object; arguments unchanged.", err=True)
        return None
    return value


def _edit_problems(call: ToolCall, host: ToolHost, args: Mapping[str, Any]) -> list[str]:
    """Why ``args``, edited at the prompt, could not run ``call``'s tool: what the schema and
    the validating plugins say, then what the renderer refuses; empty when they would run.

    Checked here, before the edit is handed back, so that a slip in the editor is shown and
    asked about again rather than ending the call (the pipeline refuses invalid arguments).
    """
    from ..schemas._schema import apply_defaults, drop_null_optionals  # not at start-up

    spec = call.spec
    current = drop_null_optionals(spec, args)
    messages: list[str] = []
    for group in host.hook.tooldrop_validate_args(spec=spec, args=current, host=host):
        messages.extend(message for message in group or () if message not in messages)
    if messages or call.script is None:
        return messages
    edited = ToolCall(spec=spec, args=apply_defaults(spec, current), mode=host.mode)
    try:
        host.hook.tooldrop_render(call=edited, host=host)
    except RenderError as exc:
        return [str(exc)]
    return []


def always_allow_note(spec: ToolSpec, host: ToolHost) -> str:
    """Where an "always allow" given now would hold, and when it would apply."""
    where = place_text(*host.grants.place_of(spec))
    note = f"[a] always allow: remembered for this version of {spec.name}, for {where} only"
    if not host.is_trusted(spec):
        note += "; it applies once you trust the project (`tooldrop trust`)"
    return note + "."


def prompt_for_approval(call: ToolCall, host: ToolHost) -> Decision | None:
    """Ask on the terminal whether ``call`` may run: yes, no, always allow, or edit.

    The tool, its arguments and the rendered script are shown first. *Always allow* is
    remembered for this version of the tool (not offered for tools that ask every time);
    *edit* opens the arguments in ``$EDITOR``, and the edited call is validated, rendered and
    shown again; edited arguments that would not run are shown with what is wrong, and the
    question is asked again (a second edit starts from them). Enter alone means *no*. The
    question goes to stderr, so stdout carries only the tool's result.
    Returns ``None`` when stdin is not a terminal: nobody can answer, and the call is denied.
    """
    if not isatty(sys.stdin):
        return None
    click.echo(describe_call(call, host), err=True)
    choices = dict(CHOICES)
    if call.spec.requires_approval:
        del choices["a"]
    elif host is not None:
        click.echo(always_allow_note(call.spec, host), err=True)
    menu = ", ".join(f"[{key}] {label}" for key, label in choices.items()) + " (Enter: no)"
    args: Mapping[str, Any] = call.args
    while True:
        try:
            answer = click.prompt(
                f"Run it? {menu}",
                type=click.Choice([*choices, *(WORDS[key] for key in choices)]),
                default="n",
                show_choices=False,
                show_default=False,
                err=True,
            )[0]
        except click.Abort:  # Ctrl-C or end of input at the prompt
            click.echo("", err=True)
            return Decision.deny("the user declined")
        if answer == "y":
            return Decision.allow("approved at the prompt")
        if answer == "a":
            return Decision.allow("always allowed at the prompt", remember=True)
        if answer == "n":
            return Decision.deny("the user declined")
        edited = _edit_args(args)
        if edited is None:
            continue
        problems = [] if host is None else _edit_problems(call, host, edited)
        if not problems:
            return Decision.edit(edited)
        args = edited
        shown = json.dumps(edited, ensure_ascii=False, default=str)
        click.echo(f"The edited arguments would not run: {shown}", err=True)
        click.echo("\n".join(f"  {problem}" for problem in problems), err=True)


def result_json(result: ToolResult) -> dict[str, Any]:
    """A call's result for ``--json``: the model's text and what a script branches on."""
    return {
        "text": result.text,
        "is_error": result.is_error,
        "denied": result.denied,
        "exit_code": result.exit_code,
        "timed_out": result.timed_out,
        "truncated": result.truncated,
        "duration": round(result.duration, 3),
    }


@click.command("call")
@click.argument("name")
@click.argument("pairs", nargs=-1, metavar="[KEY=VALUE]...")
@click.option("--args", "args_json", metavar="JSON", help="Arguments as a JSON object.")
@click.option("--yes", "-y", is_flag=True, help="Answer yes to every approval prompt.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"text", "is_error", "denied", "exit_code", "timed_out", "truncated", "duration"}.',
)
@skill_option("Call as skill bundle NAME's agent (its scoped tools are callable only so).")
@pass_cli
def call_command(
    ctx: CliContext,
    name: str,
    pairs: tuple[str, ...],
    args_json: str | None,
    yes: bool,
    as_json: bool,
    skill: str | None,
) -> None:
    """Call tool NAME and print exactly the text the model would see.

    On a terminal a call still running half a second after its first output shows the
    output as it comes, then only what the model's text adds to it (EXIT_CODE: 0, a
    timeout); a pipe or --json gets the model's text alone. KEY=VALUE
    pairs override --args. Exit status: 0 ok, 1 error result, 2 denied, 128+N stopped by
    signal N (SIGTERM, SIGHUP, SIGINT), the tool's processes killed first.
    """
    host = ctx.host
    ctx.selected_skill(skill)
    try:
        args = parse_call_args(host.lookup(name, skill), args_json, pairs)
    except CallArgsError as exc:
        click.echo(f"tooldrop: {exc}", err=True)
        sys.exit(EXIT_ERROR)

    # On a terminal the output streams as it comes; the model's text stays what it was.
    display = CallDisplay(name, limit=host.output_limit, stream=not as_json)

    def ask(call: ToolCall) -> Decision | None:
        if yes:
            return Decision.allow("--yes")
        display.paused = True  # the prompt has the terminal
        try:
            decision = prompt_for_approval(call, host)
        finally:
            display.paused = False
        if decision is None:
            click.echo("tooldrop: no terminal to ask for approval on; pass --yes", err=True)
        return decision

    with handle_stop_signals(), display:
        result = host.call(name, args, ask=ask, skill=skill, on_output=display.on_output)
    signum = stopped_by()
    if signum is not None:  # SIGTERM, SIGHUP or SIGINT: the tool's processes are gone
        display.end_line()
        say_stopped(signum)
        sys.exit(exit_status(signum))
    if as_json:
        echo_json(result_json(result))
    else:
        display.finish(result)
    spec = host.get(name)
    if result.is_error and spec is not None and not host.is_trusted(spec):
        # Refused or hidden because the project is untrusted: say so, and what to run.
        click.echo(host.untrusted_notice(), err=True)
    if result.denied:
        sys.exit(EXIT_DENIED)
    sys.exit(EXIT_ERROR if result.is_error else EXIT_OK)
