"""``list``, ``show``, ``check`` and ``plugins``: look at tools without running any."""

from __future__ import annotations

import json
import sys
from collections import defaultdict

import click

from .._model import SCOPES, Problem, ToolSpec
from ..host._discover import load_paths
from ..host._host import ToolHost
from ..skills._skills import in_context
from ._context import CliContext, pass_cli, skill_option
from ._format import (
    allowed,
    echo_json,
    first_line,
    grant_state,
    no_tool,
    on_a_terminal,
    paint,
    place_text,
    plugin_json,
    problem_json,
    problem_line,
    shown_path,
    skill_json,
    terminal_width,
    tool_json,
)

__all__ = ["check_command", "list_command", "plugins_command", "show_command"]


#: How a listing shows what a remembered grant does for a tool.
_GRANT = {"applies": "always allowed (grant)", "waits for trust": "grant waits for trust"}


def _policy(spec: ToolSpec, grant: str = "") -> str:
    parts: list[str] = [spec.approval]
    if spec.origin.visibility == "scoped":
        parts.insert(0, "scoped")
    if spec.read_only:
        parts.append("read-only")
    if spec.requires_approval:
        parts.append("asks every time")
    if grant:
        parts.append(_GRANT[grant])
    return " · ".join(parts)


def _all_problems(ctx: CliContext) -> list[Problem]:
    host_problems = ctx.host.problems()  # first: building the host reads the config files
    return [*ctx.settings_problems, *host_problems]


def _echo_problems(problems: list[Problem]) -> None:
    # Counted as `check` counts them: notes are shown but are not problems.
    failing = sum(p.severity != "info" for p in problems)
    notes = len(problems) - failing
    heads = [f"Problems ({failing})"] * bool(failing) + [f"notes ({notes})"] * bool(notes)
    click.echo("\n" + paint(", ".join(heads).capitalize(), fg="red" if failing else "yellow"))
    for problem in problems:
        click.echo(f"  {problem_line(problem)}")


def _group(spec: ToolSpec) -> tuple[int, str, str]:
    origin = spec.origin
    rank = _RANK[origin.scope]
    if origin.skill is not None:
        return rank, f"skill {origin.skill}", origin.scope
    return rank, origin.source, origin.scope


_RANK: dict[str, int] = {scope: i for i, scope in enumerate(SCOPES)}


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help='Print {"tools": [...], "problems": [...]}.')
@skill_option("List what skill bundle NAME's agent is offered instead of the main agent.")
@pass_cli
def list_command(ctx: CliContext, as_json: bool, skill: str | None) -> None:
    """List tools grouped by source, scope and skill bundle, with load problems under them.

    Tools of a skill bundle are grouped under it; scoped ones (offered only to the bundle's
    agent) are marked. With --skill NAME, only the tools that bundle's agent is offered.
    """
    host = ctx.host
    selected = ctx.selected_skill(skill)
    specs = host.all_tools()
    if selected is not None:
        specs = [s for s in specs if in_context(s, selected)]
    available = {spec.name: host.is_available(spec) for spec in specs}
    problems = _all_problems(ctx)
    covered = host.grants.granted(specs)
    grants = {s.name: grant_state(s, host, s.name in covered) for s in specs}
    if as_json:
        echo_json(
            {
                "tools": [
                    tool_json(s, available=available[s.name], grant=grants[s.name]) for s in specs
                ],
                "skills": [skill_json(s) for s in host.skills()],
                "problems": [problem_json(p) for p in problems],
                "disabled": sorted(host.disabled_tools),
            }
        )
        return
    shown = [s for s in specs if available[s.name]]
    hidden = [s.name for s in specs if not available[s.name]]
    title = f"Tools ({len(shown)}) · {host.mode} mode"
    if selected is not None:
        agent = selected.agent
        title += f" · as skill {selected.name}'s agent" + (f" {agent.name}" if agent else "")
    click.echo(title)
    groups: dict[tuple[int, str, str], list[ToolSpec]] = defaultdict(list)
    for spec in shown:
        groups[_group(spec)].append(spec)
    # A terminal gets columns cut to its width; a pipe gets every first line whole, unpadded.
    width = terminal_width() if on_a_terminal() else None
    for (_, source, scope), members in sorted(groups.items()):
        click.echo("\n" + paint(_header(ctx, source, scope, members), bold=True))
        policies = {s.name: _policy(s, grants[s.name]) for s in members}
        name_width = max(len(s.name) for s in members)
        policy_width = max(map(len, policies.values()))
        for spec in sorted(members, key=lambda s: s.name):
            name = paint(f"{spec.name:<{name_width}}", fg="cyan")
            policy = paint(policies[spec.name], dim=True)
            if width is None:
                description = first_line(spec.description, None)
                click.echo(f"  {name}  {description}  {policy}")
            else:
                room = max(width - name_width - policy_width - 6, 20)
                description = first_line(spec.description, room)
                click.echo(f"  {name}  {description:<{room}}  {policy}")
    if not shown:
        click.echo("\n  (no tools)")
    if hidden:
        click.echo(f"\nHidden in {host.mode} mode ({len(hidden)}): {', '.join(sorted(hidden))}")
    if host.disabled_tools:  # never loaded, so in no group above: say where they went
        names = sorted(host.disabled_tools)
        click.echo(f"\nDisabled by disabledTools in config.yaml ({len(names)}): {', '.join(names)}")
    if problems:
        _echo_problems(problems)


def _header(ctx: CliContext, source: str, scope: str, members: list[ToolSpec]) -> str:
    host = ctx.host
    skill = host.skill(members[0].origin.skill or "") if members[0].origin.skill else None
    if skill is not None:
        where = f"  {shown_path(skill.path)}"
        if skill.visibility == "global":
            extra = "  (tools global)"
        elif skill.agent is not None:
            extra = f"  (tools scoped to its agent {skill.agent.name})"
        else:
            extra = "  (tools scoped, but it has no agent)"
    else:
        folders = {shown_path(s.origin.path.parent) for s in members if s.origin.path is not None}
        where = f"  {', '.join(sorted(folders))}" if folders else ""
        extra = ""
    if scope == "project" and not host.is_trusted():
        extra += "  (not trusted: every call asks first, grants too; see `tooldrop trust`)"
    return f"{source} · {scope}{where}{extra}"


@click.command("show")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print the tool as JSON.")
@pass_cli
def show_command(ctx: CliContext, name: str, as_json: bool) -> None:
    """Show one tool: where it came from, its policy and its JSON Schema."""
    host = ctx.host
    spec = host.get(name)
    if spec is None:
        click.echo(no_tool(host, name, [s.name for s in host.all_tools()]), err=True)
        sys.exit(1)
    available = host.is_available(spec)
    grant = grant_state(spec, host)
    if as_json:
        echo_json(tool_json(spec, available=available, grant=grant))
        return
    origin = spec.origin
    where = shown_path(origin.path)
    if where and origin.line:
        where = f"{where}:{origin.line}"
    click.echo(spec.name)
    for line in spec.description.strip().splitlines():
        click.echo(f"  {line}")
    click.echo(f"\n  source     {origin.describe()}{'  ' + where if where else ''}")
    if origin.skill is not None:
        skill = host.skill(origin.skill)
        agent = skill.agent.name if skill is not None and skill.agent else None
        offered = (
            f"only skill {origin.skill}'s agent" + (f" {agent}" if agent else " (it has none)")
            if origin.visibility == "scoped"
            else "every agent"
        )
        click.echo(f"  skill      {origin.skill} ({origin.visibility}: offered to {offered})")
    click.echo(f"  policy     {_policy(spec)} · timeout {spec.timeout_ms} ms")
    state = "yes" if available else "no, hidden"
    click.echo(f"  available  {state} in {host.mode} mode")
    click.echo(f"  runner     {spec.runner}" + (f" ({spec.shell})" if spec.shell else ""))
    click.echo(f"  allowed    {allowed(spec, host)}")
    click.echo(f"  grant      {_grant_line(spec, host, grant)}")
    if spec.cwd:
        click.echo(f"  cwd        {spec.cwd}")
    for key, value in spec.env.items():
        click.echo(f"  env        {key}={value}")
    click.echo("\n  JSON Schema")
    for line in json.dumps(spec.input_schema, indent=2, ensure_ascii=False).splitlines():
        click.echo(f"    {line}")


def _grant_line(spec: ToolSpec, host: ToolHost, grant: str) -> str:
    """Whether a remembered "always allow" covers the tool, and where it holds."""
    if spec.requires_approval:
        return "never remembered: it asks on every call"
    where = place_text(*host.grants.place_of(spec))
    if grant == "applies":
        return f"always allowed: this version, for {where} (see `tooldrop grants`)"
    if grant == "waits for trust":
        return (
            f"remembered for this version, for {where}; it applies once the project is "
            "trusted (`tooldrop trust`)"
        )
    return f'none for this version (an "always allow" would hold for {where})'


@click.command("check")
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--json", "as_json", is_flag=True, help="Print the problems as a JSON list.")
@pass_cli
def check_command(ctx: CliContext, paths: tuple[str, ...], as_json: bool) -> None:
    """Validate tool files: every scanned dir, or just PATHS. Exit 1 on any problem.

    One line per problem: file:line: field: message. Notes (such as a project tool overriding
    a personal one) are printed but do not fail the check.
    """
    if paths:
        registry, problems = load_paths(ctx.host, paths)
        count = len(registry)
    else:
        problems = _all_problems(ctx)
        count = len(ctx.host.all_tools())
    failing = [p for p in problems if p.severity != "info"]
    if as_json:
        echo_json([problem_json(p) for p in problems])
    else:
        for problem in problems:
            click.echo(problem_line(problem))
        summary = f"{count} tool{'s' * (count != 1)} loaded"
        if failing:
            summary += f", {len(failing)} problem{'s' * (len(failing) != 1)}"
        click.echo(summary if failing else f"{summary}, no problems", err=True)
    sys.exit(1 if failing else 0)


@click.command("plugins")
@click.option("--json", "as_json", is_flag=True, help="Print the plugins as a JSON list.")
@pass_cli
def plugins_command(ctx: CliContext, as_json: bool) -> None:
    """List plugins: loaded ones with their hooks and versions, and load failures."""
    infos = ctx.plugin_set.infos
    if as_json:
        echo_json([plugin_json(info) for info in infos])
        return
    for info in infos:
        version = f"{info.distribution} {info.version}" if info.distribution else info.origin
        click.echo(f"{info.name}  ({version}, {info.origin})  {info.module}")
        if info.error:
            click.echo(f"  FAILED: {info.error}")
        else:
            click.echo(f"  hooks: {', '.join(info.hooks) or '(none)'}")
    for problem in ctx.plugin_set.problems:
        if not any(info.error and problem.field == f"plugin {info.name}" for info in infos):
            click.echo(problem_line(problem))
