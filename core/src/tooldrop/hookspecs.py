"""The hook contract between tooldrop's host and its plugins.

Every concrete part of tooldrop (the markdown loader, the Python-module loader, the shell
backends, the MCP server, the default approval policy) is a plugin implementing some of these
hooks, registered through the ``tooldrop`` entry-point group exactly as a third party's plugin.

Hooks are called with keyword arguments only, and an implementation may accept any subset of
a hook's parameters, so new parameters can be added later without breaking plugins.
Implementations must not give their parameters default values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    import click

    from ._model import (
        Command,
        Confinement,
        Decision,
        LoadResult,
        Problem,
        Scope,
        ToolCall,
        ToolDir,
        ToolResult,
        ToolSpec,
    )
    from .exports._export import Exporter
    from .host._host import ToolHost

__all__ = ["PROJECT_NAME", "hookimpl", "hookspec"]

PROJECT_NAME = "tooldrop"
hookspec = pluggy.HookspecMarker(PROJECT_NAME)
#: Decorate your plugin's functions with this to implement a hook.
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)


# -------------------------------------------------------------------------
# discovery and loading hooks
# -------------------------------------------------------------------------


@hookspec
def tooldrop_tool_dirs(host: ToolHost) -> Iterable[ToolDir] | None:
    """Return extra directories of tool files to scan, each with the scope its tools get.

    The host always scans the personal tools dir and the project tools dir; this hook adds
    others (a team share, a bundle's ``tools/`` folder). Directories are scanned by scope:
    ``plugin`` first, then ``personal``, then ``project``, so a later scope overrides an
    earlier one (see :ref:`precedence`).

    :param host: The host that is scanning.
    :returns: Any number of :class:`tooldrop.ToolDir`, or ``None``.

    Use in plugins: a plugin that knows where more tools live. A directory that does not
    exist is skipped quietly.
    """


@hookspec(firstresult=True)
def tooldrop_load_file(path: Path, scope: Scope, host: ToolHost) -> LoadResult | None:
    """Claim one file of a tools directory and load it into tools and problems.

    Stops at first non-None result, see :ref:`firstresult`.

    :param path: The file, absolute; a regular file directly inside a tools directory.
    :param scope: ``project``, ``personal`` or ``plugin``: the scope of its directory.
    :param host: The host that is loading.
    :returns: A :class:`tooldrop.LoadResult` when this plugin handles the file (usually
        decided by its suffix), else ``None`` so another loader may claim it.

    Use in plugins: a loader for a file format. A file that fails to load is a
    :class:`tooldrop.Problem` in the result, never an exception; the host turns a raised
    exception into a problem naming the file all the same.
    """


@hookspec
def tooldrop_register_tools(register: Callable[[Any], None], host: ToolHost) -> None:
    """Register tools directly, for tool packs shipped with pip.

    :param register: Call it once per tool with a :class:`tooldrop.Tool`, a
        :class:`tooldrop.ToolSpec`, or a function decorated with :func:`tooldrop.tool`. The
        host stamps each tool with the plugin that registered it (source
        ``entrypoint:<plugin>``, scope ``plugin``) and applies the precedence rules.
    :param host: The host that is loading.

    Use in plugins: tool packs. An exception raised here is reported as a problem of this
    plugin; the tools it registered before raising are kept, and the other plugins still
    run. A ``wrapper=True`` implementation runs around the others; the tools it registers
    itself are stamped with its own plugin.
    """


@hookspec
def tooldrop_validate_spec(spec: ToolSpec, host: ToolHost) -> Iterable[Problem] | None:
    """Lint a loaded tool before it enters the registry.

    :param spec: The tool, as its loader produced it.
    :param host: The host that is loading.
    :returns: Problems found, or ``None``. A problem of severity ``error`` keeps the tool from
        loading; warnings and infos are reported and the tool loads.

    Use in plugins: house rules (a naming convention, a required description length).
    """


# -------------------------------------------------------------------------
# call hooks, in the order a call goes through them
# -------------------------------------------------------------------------


@hookspec
def tooldrop_validate_args(
    spec: ToolSpec, args: Mapping[str, Any], host: ToolHost
) -> Sequence[str] | None:
    """Check a call's arguments before anything is rendered or run.

    :param spec: The tool being called.
    :param args: The arguments as the model sent them (defaults not yet applied).
    :param host: The host making the call.
    :returns: Messages for the model, one per problem (``⚒ Missing required parameter:
        namespace``), or ``None`` / an empty list when the arguments are fine. Any message
        fails the call with an error result, and nothing runs.

    The core's own implementation checks the tool's JSON Schema.
    """


@hookspec(firstresult=True)
def tooldrop_render(call: ToolCall, host: ToolHost) -> str | None:
    """Produce the exact script a backend will run for this call.

    Stops at first non-None result, see :ref:`firstresult`.

    :param call: The call, with validated arguments and defaults applied; ``call.script``
        is still ``None``.
    :param host: The host making the call.
    :returns: The script, or ``None`` when this plugin does not render this kind of tool
        (tools that nobody renders run without a script, like Python tools).

    Raise :class:`tooldrop.RenderError` with a message for the model when the arguments
    cannot be rendered safely (cmd.exe refuses values containing ``%``); the call then fails
    with that message and nothing runs.
    """


@hookspec(firstresult=True)
def tooldrop_available(spec: ToolSpec, host: ToolHost) -> bool | None:
    """Say whether a tool is offered at all in the host's current mode.

    Stops at first non-None result, see :ref:`firstresult`.

    :param spec: The tool.
    :param host: The host; ``host.mode`` is the mode.
    :returns: ``False`` hides the tool from listings, exports and MCP, and refuses calls to
        it; ``True`` offers it; ``None`` defers to the next plugin (offered when none decides).

    The default policy (:mod:`tooldrop.approval`) hides tools that could never be approved
    in ``plan`` and ``headless`` modes. Override it with a ``tryfirst=True`` implementation.
    """


@hookspec(firstresult=True)
def tooldrop_approve(call: ToolCall, host: ToolHost) -> Decision | None:
    """Decide whether a rendered call may run.

    Stops at first non-None result, see :ref:`firstresult`.

    :param call: The call, with its rendered ``script`` when the tool has one: approve what
        will actually run, not just the tool's name.
    :param host: The host making the call.
    :returns: :meth:`Decision.allow() <tooldrop.Decision.allow>`, :meth:`Decision.deny(reason)
        <tooldrop.Decision.deny>` or :meth:`Decision.ask() <tooldrop.Decision.ask>` (a person
        decides, see :func:`tooldrop_ask`), or ``None`` to defer to the next plugin. When no
        plugin decides, the host asks.

    The default policy (:mod:`tooldrop.approval`) implements the approval × mode table of
    the docs. Override it with a ``tryfirst=True`` implementation; audit every decision with
    a ``wrapper=True`` one. An exception raised here denies the call.

    Whatever the implementations return, the core then applies its own guarantees: an
    ``allow`` for a project tool of an untrusted project (``host.is_trusted(call.spec)`` is
    ``False``) or for a ``requires_approval`` tool becomes an ``ask``; a ``deny`` stays a deny.
    """


@hookspec(firstresult=True)
def tooldrop_ask(call: ToolCall, host: ToolHost) -> Decision | bool | None:
    """Ask a person whether a call may run.

    Stops at first non-None result, see :ref:`firstresult`.

    Only consulted when approval said *ask* and the caller of :meth:`ToolHost.call` passed
    no ``ask`` callback of its own.

    :param call: The call, with its rendered ``script``.
    :param host: The host making the call.
    :returns: ``True`` / ``False``, or a :class:`tooldrop.Decision` (to remember the answer,
        or to run with edited arguments); ``None`` when this plugin cannot ask anyone.
        With no answer at all the call is denied: a headless host never hangs on a prompt.

    Use in hosts: wire your UI's confirmation dialog here.
    """


@hookspec(firstresult=True)
def tooldrop_execute(call: ToolCall, host: ToolHost) -> ToolResult | None:
    """Run an approved call and return what the model sees.

    Stops at first non-None result, see :ref:`firstresult`.

    :param call: The approved call. ``call.spec.runner`` says which backend it is for;
        ``call.cancel`` is set when the call is cancelled or times out; ``call.on_output``,
        when not ``None``, takes the output as it comes (``call.on_output(text, "stdout")``).
    :param host: The host making the call; ``host.output_limit`` caps the text.
    :returns: A :class:`tooldrop.ToolResult`, or ``None`` when this backend does not run
        ``call.spec.runner`` tools.

    Use in plugins: backends. Enforce ``call.spec.timeout_ms`` and return promptly when
    ``call.cancel`` is set. A raised exception becomes an error result for the model.
    """


@hookspec(firstresult=True)
def tooldrop_confinement(spec: ToolSpec, host: ToolHost) -> Confinement | None:
    """Say how a tool's processes would be confined if it were called now.

    Stops at first non-None result, see :ref:`firstresult`.

    :param spec: The tool.
    :param host: The host; ``host.sandbox`` is the user's setting (``off``, ``auto``,
        ``required``).
    :returns: A :class:`tooldrop.Confinement` (what the tool may write, whether it has the
        network), or ``None`` when this plugin would not confine it (the setting is ``off``,
        the sandbox does not work here, or the tool is not of a kind it confines).

    Use in plugins: sandboxes. ``tooldrop show``, ``tooldrop trust`` and the approval prompt
    show the answer, and the approval policy lets an untrusted project's read-only tools run
    without asking only when it is not ``None`` (and the user opted in). Answer cheaply: it is
    asked once per such call. A plugin answering here must confine the command in
    :func:`tooldrop_wrap_command` as it said.
    """


@hookspec
def tooldrop_wrap_command(call: ToolCall, command: Command, host: ToolHost) -> Command | None:
    """Rewrite the process a backend is about to start: confine it, prefix it, change its env.

    :param call: The approved call the process is for.
    :param command: The command so far: ``argv``, ``env``, ``cwd``, and the ``confinement``
        an earlier implementation applied (``None`` if none did).
    :param host: The host making the call.
    :returns: A new :class:`tooldrop.Command` (build it with :func:`attrs.evolve`), or
        ``None`` to leave the command as it is.

    Backends call it through :func:`tooldrop.wrap_command`, which hands each
    implementation the previous one's command, in hook order. Set ``confinement`` when
    the command now runs confined, and ``explain`` to add one line to a result the sandbox
    made fail. Raise :class:`tooldrop.SandboxError` to refuse the call (nothing runs; the
    message is the model's error result). When ``host.sandbox`` is ``required`` and no
    implementation set ``confinement``, :func:`tooldrop.wrap_command` refuses the call.
    Because each implementation is called with the previous one's result, this hook takes no
    hook wrappers: a plugin with a ``wrapper=True`` implementation of it is refused when it
    registers. Order yours with ``tryfirst`` / ``trylast``.
    """


@hookspec
def tooldrop_after_call(call: ToolCall, result: ToolResult, host: ToolHost) -> None:
    """Observe a finished call: audit logs, metrics.

    :param call: The call as it was run (or refused).
    :param result: Its result. It cannot be changed here.
    :param host: The host that made the call.

    Called for every call that found its tool, whatever the outcome (invalid arguments,
    denied, timed out, run). Each implementation fails on its own: one that raises is
    reported on stderr and the others still see the call. Hook wrappers, ``tryfirst`` and
    ``trylast`` apply as to any other hook.
    """


# -------------------------------------------------------------------------
# export hooks
# -------------------------------------------------------------------------


@hookspec
def tooldrop_exporters(host: ToolHost) -> Iterable[Exporter] | None:
    """Add tool-definition formats for ``host.export()`` and ``tooldrop schema --format``.

    :param host: The host asking.
    :returns: :class:`tooldrop.Exporter` objects, or ``None``.

    The built-in formats (:data:`tooldrop.BUILTIN_EXPORTERS`: ``openai``, ``openai-responses``,
    ``anthropic``, ``gemini``, ``mcp``) come first; a plugin's exporter with the name of a
    built-in one replaces it, and of two plugins' exporters with one name the later one wins
    (order them with ``tryfirst`` / ``trylast``). A plugin whose implementation raises is
    reported as a problem, and the other formats stay available.
    """


# -------------------------------------------------------------------------
# command-line hooks
# -------------------------------------------------------------------------


@hookspec(firstresult=True)
def tooldrop_scaffold(name: str, kind: str, host: ToolHost) -> tuple[str, str] | None:
    """Write the text of a new tool file for ``tooldrop new``.

    Stops at first non-None result, see :ref:`firstresult`.

    :param name: The tool name as the user typed it (``k8s-pods``).
    :param kind: ``markdown`` or ``python`` (``tooldrop new --python``); plugins may add
        their own kinds.
    :param host: The host; the CLI decides the directory and never overwrites a file.
    :returns: ``(file_name, text)`` for a file of this kind, else ``None``.
    """


@hookspec
def tooldrop_register_commands(cli: click.Group) -> None:
    """Add commands to the ``tooldrop`` command-line interface.

    :param cli: The top-level click group; add commands with ``@cli.command()``.

    Use in plugins: ``tooldrop-mcp`` adds ``tooldrop serve`` this way.
    """
