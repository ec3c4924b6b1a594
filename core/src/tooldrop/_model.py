"""The tool model every plugin speaks: frozen, slotted, keyword-only attrs classes.

The classes are deliberately dumb. Loading, validation and policy live in plugins and in the
host; the model only carries values and formats them for people.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

import attrs
from attrs import field, frozen

from .calls._cancel import CancelToken

__all__ = [
    "Approval",
    "Command",
    "Confinement",
    "Decision",
    "LoadResult",
    "Mode",
    "Origin",
    "OutputCallback",
    "Problem",
    "SandboxSetting",
    "Scope",
    "Severity",
    "ToolCall",
    "ToolDir",
    "ToolResult",
    "ToolSpec",
    "Visibility",
]

#: Where a tool came from: the project's tools dir, the personal config dir, or a pip plugin.
Scope = Literal["project", "personal", "plugin"]
#: When a call needs a person's approval (DESIGN §7.1).
Approval = Literal["never", "always", "destructive"]
#: The host's approval mode. ``architect`` behaves as ``auto-accept``.
Mode = Literal["normal", "auto-accept", "architect", "yolo", "plan", "headless"]
#: Who is offered a skill bundle's tools: only the bundle's own agent, or every agent.
Visibility = Literal["scoped", "global"]
#: How bad a :class:`Problem` is. Only ``error`` keeps a tool from loading.
Severity = Literal["error", "warning", "info"]
#: Whether shell tools run confined: never, when a sandbox works, or always (else refused).
SandboxSetting = Literal["off", "auto", "required"]

#: ``on_output(text, stream)``: a running call's output as it comes, decoded, in chunks of
#: any size, ``stream`` being ``"stdout"`` or ``"stderr"`` (see :attr:`ToolCall.on_output`).
OutputCallback = Callable[[str, Literal["stdout", "stderr"]], None]

SCOPES: tuple[Scope, ...] = ("plugin", "personal", "project")
APPROVALS: tuple[Approval, ...] = ("never", "always", "destructive")
#: Every approval mode, in the order the CLI lists them (``--mode`` choices).
MODES: tuple[Mode, ...] = ("normal", "auto-accept", "architect", "yolo", "plan", "headless")
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
#: Every sandbox setting (``--sandbox`` choices, ``sandbox:`` in the personal config).
SANDBOX_SETTINGS: tuple[SandboxSetting, ...] = ("off", "auto", "required")


def _as_path(value: str | os.PathLike[str] | None) -> Path | None:
    # Path(path) parses the path again; with 10,000 tools that is measurable.
    return value if value is None or type(value) is type(_HERE) else Path(value)


_HERE = Path()


def _read_only_default(value: object, self: Any) -> object:
    return self.approval == "never" if value is None else value


def _tools(value: Iterable[ToolSpec]) -> tuple[ToolSpec, ...]:
    return tuple(value)


def _problems(value: Iterable[Problem]) -> tuple[Problem, ...]:
    return tuple(value)


def _strings(value: Iterable[str]) -> tuple[str, ...]:
    return value if type(value) is tuple else tuple(value)


def _ints(value: Iterable[int]) -> tuple[int, ...]:
    return tuple(value)


@frozen(kw_only=True)
class Origin:
    """Where a tool was defined, for listings, error messages, grants and trust."""

    #: ``markdown``, ``python``, or ``entrypoint:<plugin>`` for tools a plugin registered.
    source: str
    #: ``project``, ``personal`` or ``plugin``: decides precedence, trust and what a grant covers.
    scope: Scope
    #: The file that defines the tool; ``None`` for tools made in code.
    path: Path | None = field(default=None, converter=_as_path)
    #: 1-based line of the definition in ``path``, when known.
    line: int | None = None
    #: A hex digest of what defines the tool (the file's bytes for file tools). Editing the
    #: definition changes it, which voids remembered grants and project trust.
    content_hash: str = ""
    #: The skill bundle the tool belongs to (its ``skill.yaml`` name), or ``None``.
    skill: str | None = None
    #: A bundle tool's visibility: ``scoped`` (only its bundle's agent is offered it) or
    #: ``global``; ``None`` for tools outside bundles.
    visibility: Visibility | None = None

    def describe(self) -> str:
        """``markdown (project)``, ``markdown (project, skill k8s, scoped)``: for listings."""
        if self.skill is None:
            return f"{self.source} ({self.scope})"
        return f"{self.source} ({self.scope}, skill {self.skill}, {self.visibility})"


@frozen(kw_only=True)
class ToolSpec:
    """One loaded tool: everything needed to list, export, approve and run it."""

    #: The name the model calls, after any host prefix (``custom__weather``).
    name: str
    #: What the tool does, for the model (and the first line in listings).
    description: str
    #: A JSON Schema for the arguments; always ``{"type": "object", ...}``. Treat as read-only.
    input_schema: Mapping[str, Any] = field(hash=False)
    #: When a call needs a person: ``never``, ``destructive`` or ``always`` (see the approval docs).
    approval: Approval = "always"
    #: The tool changes nothing: ``plan`` mode offers it, and read-only calls may run together.
    #: Left out (``None``), it is ``approval == "never"``: the rule of every tool format, kept
    #: here so that a policy relying on it cannot be fooled by a loader that forgot it.
    read_only: bool = field(
        default=None,
        converter=attrs.Converter(_read_only_default, takes_self=True),  # type: ignore[misc]
    )
    #: Always ask, whatever the mode or remembered grants; never remembered.
    requires_approval: bool = False
    #: The call fails with a timeout error after this many milliseconds.
    timeout_ms: int = 30_000
    #: Working directory, relative to the project root; may use ``${VAR}``.
    cwd: str | None = None
    #: Extra environment variables for the process (``${VAR}`` expanded); names on
    #: :data:`FORBIDDEN_ENV` are refused.
    env: Mapping[str, str] = field(factory=dict, hash=False)
    #: ``bash``, ``sh`` or ``cmd.exe``; ``None`` lets the backend choose.
    shell: str | None = None
    #: The tool asks for network access when it runs confined (a sandbox cuts it otherwise).
    network: bool = False
    #: Paths inside the project, relative to its root, the tool asks to write when it runs
    #: confined; a tool that is not read-only may write the whole project anyway.
    writable: tuple[str, ...] = field(default=(), converter=_strings)
    #: Leave what the script starts in the background running after the call (a dev server,
    #: say): the call ends when the shell exits. Otherwise the call's process group is killed
    #: once the call is over.
    keep_background: bool = False
    #: Where the tool was defined; its ``content_hash`` is what grants and trust key on.
    origin: Origin
    #: Which backend runs the tool: ``shell`` for rendered scripts (tooldrop-shell runs
    #: ``call.script`` under ``shell``), ``python`` for callables. A loader reuses a backend by
    #: naming its runner; a plugin with its own ``tooldrop_execute`` may claim a new one.
    runner: str
    #: The runner's own data: a template for ``shell``, a callable for ``python``. It must
    #: pickle when the loader marks its result ``cacheable``.
    payload: Any = field(default=None, hash=False, repr=False)

    @property
    def parameters(self) -> Mapping[str, Any]:
        """The schema's ``properties``, in declaration order."""
        props = self.input_schema.get("properties")
        return props if isinstance(props, Mapping) else {}

    @property
    def required(self) -> tuple[str, ...]:
        req = self.input_schema.get("required")
        return tuple(req) if isinstance(req, list | tuple) else ()


@frozen(kw_only=True)
class Problem:
    """Something wrong with a tool file, a plugin or a tool, with where it is."""

    #: What is wrong and, where it helps, how to fix it.
    message: str
    #: The file the problem is in, when there is one.
    path: Path | None = field(default=None, converter=_as_path)
    #: 1-based line in ``path``, when known.
    line: int | None = None
    #: Dotted path of the offending field (``parameters.namespace.pattern``); ``""`` for the file.
    field: str = ""
    #: Only ``error`` keeps a tool from loading; ``tooldrop check`` exits 1 on a warning or an
    #: error, 0 when there are only ``info`` notes.
    severity: Severity = "error"

    def location(self, relative_to: Path | None = None) -> str:
        """``path:line`` (``path`` relative to ``relative_to`` when it is inside it)."""
        if self.path is None:
            return ""
        shown: Path | str = self.path
        if relative_to is not None:
            try:
                shown = self.path.relative_to(relative_to)
            except ValueError:
                shown = self.path
        return f"{shown}:{self.line}" if self.line else str(shown)

    def format(self, relative_to: Path | None = None) -> str:
        """``file:line: field: message``, leaving out the parts that are unknown."""
        parts = [p for p in (self.location(relative_to), self.field) if p]
        return ": ".join([*parts, self.message])

    def __str__(self) -> str:
        return self.format()


@frozen(kw_only=True)
class ToolDir:
    """A directory of tool files and the scope its tools get."""

    #: The directory; a missing one is the normal case, not a problem.
    path: Path = field(converter=Path)
    #: The scope every tool loaded from it gets.
    scope: Scope


@frozen(kw_only=True)
class LoadResult:
    """What a loader made of one file: any number of tools and problems."""

    #: The tools the file defines (a file with errors usually defines none).
    tools: tuple[ToolSpec, ...] = field(default=(), converter=_tools)
    #: Everything wrong with the file, errors and warnings alike, each with its line.
    problems: tuple[Problem, ...] = field(default=(), converter=_problems)
    #: The result depends on nothing but the file's bytes and the loader's code, and pickles:
    #: the host may cache it and skip the loader while the file is unchanged.
    cacheable: bool = False


@frozen(kw_only=True)
class ToolCall:
    """One call on its way through the pipeline."""

    #: The tool being called.
    spec: ToolSpec
    #: Validated arguments with defaults applied. Treat as read-only.
    args: Mapping[str, Any] = field(hash=False)
    #: The exact script a shell backend will run; ``None`` for tools that are not rendered.
    script: str | None = None
    #: The host's mode when the call was made.
    mode: Mode = "normal"
    #: Set when the call is cancelled or times out; backends stop the work when it is.
    cancel: CancelToken = field(factory=CancelToken, eq=False, hash=False, repr=False)
    #: Who wants the output as it comes (``host.call(..., on_output=...)``), or ``None``. A
    #: backend that streams calls ``call.on_output(text, "stdout")`` (or ``"stderr"``) with
    #: each decoded chunk as it reads it, before it returns its result; one that cannot
    #: stream never calls it. The result's text is still the model's, framed and bounded.
    on_output: OutputCallback | None = field(default=None, eq=False, hash=False, repr=False)

    @property
    def name(self) -> str:
        return self.spec.name


@frozen(kw_only=True)
class Confinement:
    """What a sandbox lets a tool's processes do: the ``tooldrop_confinement`` hook's answer."""

    #: The sandbox, for people: ``bwrap``.
    by: str
    #: Absolute paths the tool may write (``()``: nothing outside its private ``/tmp``).
    writable: tuple[str, ...] = field(default=(), converter=_strings)
    #: The tool may open network connections.
    network: bool = False

    def describe(self, relative_to: Path | None = None) -> str:
        """``confined (bwrap): writes .cache only, no network``: one line for listings."""
        shown = []
        for path in self.writable:
            if relative_to is not None and Path(path) == relative_to:
                shown.append("the project")
                continue
            try:
                shown.append(str(Path(path).relative_to(relative_to)) if relative_to else path)
            except ValueError:
                shown.append(path)
        writes = f"writes {', '.join(shown)} only" if shown else "writes nothing"
        network = "network allowed" if self.network else "no network"
        return f"confined ({self.by}): {writes}, {network}"


@frozen(kw_only=True)
class Command:
    """A process a backend is about to start, as ``tooldrop_wrap_command`` may rewrite it."""

    #: The program and its arguments (``("/bin/bash", "-c", script)``).
    argv: tuple[str, ...] = field(converter=_strings)
    #: The environment; ``None`` inherits the host's.
    env: Mapping[str, str] | None = field(default=None, hash=False)
    #: The directory the process starts in (absolute).
    cwd: str
    #: Open file descriptors the process inherits under the same numbers (a sandbox's
    #: seccomp filter). Whoever adds one hands it over: the backend closes them all once the
    #: process has started, or failed to.
    pass_fds: tuple[int, ...] = field(default=(), converter=_ints)
    #: Set by the sandbox that confined the command; ``None`` while nothing has.
    confinement: Confinement | None = None
    #: Given the process's output, one line explaining a failure the sandbox caused (a
    #: refused write, a blocked connection), or ``None``; the backend adds it to the result.
    explain: Callable[[str], str | None] | None = field(default=None, eq=False, repr=False)


@frozen(kw_only=True)
class Decision:
    """An approval decision. Build one with :meth:`allow`, :meth:`deny` or :meth:`ask`."""

    #: ``allow`` runs the call, ``deny`` refuses it, ``ask`` puts it to a person.
    outcome: Literal["allow", "deny", "ask"]
    #: Why, in words the model (on a deny) or the person (on an ask) can act on.
    reason: str = ""
    #: Remember an ``allow`` for this tool's name and content hash ("always allow").
    remember: bool = False
    #: Arguments a person edited at the prompt; the call is validated, rendered and approved
    #: again with them.
    args: Mapping[str, Any] | None = field(default=None, hash=False)

    @classmethod
    def allow(cls, reason: str = "", *, remember: bool = False) -> Decision:
        return cls(outcome="allow", reason=reason, remember=remember)

    @classmethod
    def deny(cls, reason: str = "denied") -> Decision:
        return cls(outcome="deny", reason=reason)

    @classmethod
    def ask(cls, reason: str = "") -> Decision:
        return cls(outcome="ask", reason=reason)

    @classmethod
    def edit(cls, args: Mapping[str, Any]) -> Decision:
        """A person changed the arguments: validate, render and ask again."""
        return cls(outcome="ask", reason="arguments edited", args=dict(args))

    @property
    def allowed(self) -> bool:
        return self.outcome == "allow"


@frozen(kw_only=True)
class ToolResult:
    """What the model sees, and what the host may want to know about how it came about."""

    #: The text for the model (already within the host's ``output_limit``).
    text: str
    #: The call failed: invalid arguments, denied, a non-zero exit, a timeout or a crash.
    is_error: bool = False
    #: The process's exit status, for tools run as processes.
    exit_code: int | None = None
    #: The call was stopped at its ``timeout_ms``.
    timed_out: bool = False
    #: Output was cut to the host's ``output_limit``.
    truncated: bool = False
    #: The call never ran because approval was refused.
    denied: bool = False
    #: Wall-clock seconds from the call to its result.
    duration: float = 0.0

    @classmethod
    def error(cls, text: str, **kwargs: Any) -> ToolResult:
        return cls(text=text, is_error=True, **kwargs)
