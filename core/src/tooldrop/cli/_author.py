"""``render`` and ``new``: write and try tool files without running them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click

from .._errors import InvalidArgumentsError, RenderError
from ..skills._manifest import PLACEHOLDER_DESCRIPTION as PLACEHOLDER
from ..skills._manifest import SKILL_NAME
from ._call import CallArgsError, parse_call_args
from ._context import CliContext, pass_cli, skill_option
from ._format import echo_json, no_tool, shown_path

__all__ = ["new_command", "render_command", "unsafe_file_name"]


def _fail(message: str) -> NoReturn:
    click.echo(f"tooldrop: {message}", err=True)
    sys.exit(1)


@click.command("render")
@click.argument("name")
@click.argument("pairs", nargs=-1, metavar="[KEY=VALUE]...")
@click.option("--args", "args_json", metavar="JSON", help="Arguments as a JSON object.")
@click.option(
    "--json", "as_json", is_flag=True, help='Print {"script"} or {"errors"} (exit 1) as JSON.'
)
@skill_option("Render as skill bundle NAME's agent (for its scoped tools).")
@pass_cli
def render_command(
    ctx: CliContext,
    name: str,
    pairs: tuple[str, ...],
    args_json: str | None,
    as_json: bool,
    skill: str | None,
) -> None:
    """Print the script NAME would run for these arguments; nothing is executed.

    Arguments are validated and defaults applied exactly as for a call. Only the script goes
    to stdout (so `tooldrop render t --args '{...}' > t.sh` is the exact script); problems go
    to stderr with exit status 1.
    """
    host = ctx.host
    ctx.selected_skill(skill)

    def fail(*messages: str) -> NoReturn:
        if as_json:
            echo_json({"errors": list(messages)})
        else:
            for message in messages:
                click.echo(message, err=True)
        sys.exit(1)

    spec = host.lookup(name, skill)
    if spec is None:
        fail(no_tool(host, name, [s.name for s in host.tools(skill)]))
    try:
        args = parse_call_args(spec, args_json, pairs)
        script = host.render(name, args, skill=skill)
    except (CallArgsError, RenderError) as exc:
        fail(f"tooldrop: {exc}")
    except InvalidArgumentsError as exc:
        fail(*exc.messages)
    if as_json:
        echo_json({"script": script})
        return
    click.echo(script, nl=False)
    if sys.stdout.isatty() and not script.endswith("\n"):
        click.echo("")  # a terminal gets its newline; a pipe gets the script byte for byte


def unsafe_file_name(name: str) -> str | None:
    """Why ``name`` cannot be a file directly inside a tools directory, or ``None``."""
    if not name or name in (".", ".."):
        return f'"{name}" is not a file name'
    if "/" in name or "\\" in name or "\0" in name or Path(name).is_absolute():
        return f'"{name}" would leave the tools directory; give a plain name such as k8s-pods'
    return None


@click.command("new")
@click.argument("name", required=False)
@click.option("--personal", is_flag=True, help="Write into your personal tools (or skills) dir.")
@click.option(
    "--python",
    "as_python",
    is_flag=True,
    help="A Python module tool (always personal: importing a module runs it).",
)
@click.option(
    "--kind",
    metavar="KIND",
    default=None,
    help="The kind of tool file, for formats plugins add (e.g. toml); default: markdown.",
)
@click.option(
    "--skill",
    metavar="SKILL",
    default=None,
    help="Scaffold skill bundle SKILL (skill.yaml, an agent, tools/); with NAME, put the new "
    "tool in that bundle's tools/ (making the bundle first when it does not exist).",
)
@pass_cli
def new_command(
    ctx: CliContext,
    name: str | None,
    personal: bool,
    as_python: bool,
    kind: str | None,
    skill: str | None,
) -> None:
    """Write a commented scaffold for a new tool NAME (k8s-pods is the tool k8s_pods).

    The file goes into the project's tools dir, or the personal one with --personal (Python
    tools always go there). With --skill SKILL it goes into that skill bundle's tools/, and
    `tooldrop new --skill SKILL` alone scaffolds the bundle. An existing file is never
    overwritten. Prints the new file's (or bundle's) path.
    """
    host = ctx.host
    if as_python and kind not in (None, "python"):
        _fail(f"--python and --kind {kind} ask for two kinds of file; give one")
    kind = "python" if as_python else (kind or "markdown")
    as_python = kind == "python"
    if as_python and skill is not None and not personal:
        _fail("a Python tool in a skill bundle must be personal (--personal): importing it runs it")
    if skill is not None:
        bundle = scaffold_bundle(ctx, skill, personal=personal or as_python, quiet=name is not None)
        if name is None:
            return
        directory = bundle / "tools"
    elif name is None:
        _fail("give the NAME of the new tool, or --skill SKILL for a new skill bundle")
    else:
        directory = host.personal_tools_dir if personal or as_python else host.project_tools_dir
    assert name is not None
    problem = unsafe_file_name(name)
    if problem is not None:
        _fail(problem)
    try:
        made = host.hook.tooldrop_scaffold(name=name, kind=kind, host=host)
    except ValueError as exc:  # the plugin's word on a name it cannot use
        _fail(str(exc))
    except Exception as exc:  # noqa: BLE001 - a broken plugin is reported, not a traceback
        _fail(f"writing the {kind} scaffold failed: {type(exc).__name__}: {exc}")
    if made is None:
        _fail(f"no plugin writes {kind} tools (is tooldrop-{kind} installed?)")
    file_name, text = made
    # The plugin names the file; it still may not leave the directory.
    problem = unsafe_file_name(file_name)
    if problem is not None:
        _fail(f"the {kind} plugin chose a bad file name: {problem}")
    target = directory / file_name
    _write_new(target, text)
    click.echo(shown_path(target))
    click.echo("Edit it, then check it with `tooldrop check`.", err=True)


def _write_new(target: Path, text: str) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # "x": create, never replace (also refuses a dangling symlink in the way).
        with target.open("x", encoding="utf-8", newline="") as file:
            file.write(text)
    except FileExistsError:
        _fail(f"{shown_path(target)} already exists; nothing was written")
    except OSError as exc:
        _fail(f"cannot write {shown_path(target)}: {exc.strerror or exc}")


_SKILL_YAML = """\
# A skill bundle: tools offered only to this bundle's agent (agents/), by default.
# See https://tooldrop.readthedocs.io/ (docs/skills.md).
name: {name}
description: {description}
version: 0.1.0
# scoped: only this bundle's agent is offered its tools; global: every agent is.
tools_visibility: scoped
"""

_AGENT = """\
---
name: {name}-agent
description: The {name} skill's agent. Say when a host should hand work to it.
# tools: [some_tool]  # an allow-list; leave it out to offer every tool this agent may see
---
You are the {name} agent. Describe its job, and how to use its tools, here.
"""


def scaffold_bundle(ctx: CliContext, name: str, *, personal: bool, quiet: bool = False) -> Path:
    """Make skill bundle ``name`` (``skill.yaml``, ``agents/``, ``tools/``, ``commands/``)
    unless it exists; its directory."""
    if not SKILL_NAME.fullmatch(name):
        _fail(
            f'"{name}" is not a skill name: it must match /^[a-z][a-z0-9-]*$/ '
            "(kebab-case starting with a letter)"
        )
    host = ctx.host
    bundle = (host.personal_skills_dir if personal else host.project_skills_dir) / name
    if (bundle / "skill.yaml").exists():
        if not quiet:
            _fail(f"{shown_path(bundle)} already exists; nothing was written")
        return bundle
    _write_new(bundle / "skill.yaml", _SKILL_YAML.format(name=name, description=PLACEHOLDER))
    _write_new(bundle / "agents" / f"{name}-agent.md", _AGENT.format(name=name))
    for member in ("tools", "commands"):
        (bundle / member).mkdir(exist_ok=True)
    click.echo(shown_path(bundle))
    if not quiet:
        click.echo(
            f"Edit {shown_path(bundle / 'skill.yaml')}, add tools with "
            f"`tooldrop new NAME --skill {name}`, then check it with `tooldrop check`.",
            err=True,
        )
    return bundle
