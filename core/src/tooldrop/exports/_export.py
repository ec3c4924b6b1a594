"""Tool definitions for provider APIs and MCP, all made from the one :class:`ToolSpec`.

Pure functions: nothing here loads, runs or mutates a tool. Each format's shape follows the
provider's documented tool format (see ``_DOCS``). Two rules hold everywhere:

* ``strict`` is decided per tool from its schema, never assumed: OpenAI gets it explicitly
  (``true`` or ``false``; the Responses API would otherwise normalize a schema into strict mode
  and make optional fields mandatory), Anthropic gets ``"strict": true`` only when it qualifies.
  :func:`why_not_strict` says why a schema does not.
* A tool whose name breaks a target's naming rule is left out of that export, with a
  :class:`Problem` naming the tool, its file and the rule, instead of an API error later.

Each format is an :class:`Exporter`. The built-in ones are below; a plugin adds its own through
the ``tooldrop_exporters`` hook, and :meth:`ToolHost.export` offers both.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, get_args

from attrs import frozen

from .._model import Problem, Severity, ToolSpec
from ._gemini import gemini_declaration
from ._strict import AnthropicBudget, why_not_strict

__all__ = [
    "BUILTIN_EXPORTERS",
    "EXPORT_FORMATS",
    "NAME_RULES",
    "ExportFormat",
    "ExportedTools",
    "Exporter",
    "NameRule",
    "export_tools",
    "mcp_annotations",
    "why_not_strict",
]

#: The names of the built-in formats (plugins may add more: see :class:`Exporter`).
ExportFormat = Literal["openai", "openai-responses", "anthropic", "gemini", "mcp"]
#: Every built-in format's name, in the order the CLI lists them.
EXPORT_FORMATS: tuple[ExportFormat, ...] = get_args(ExportFormat)

#: Where each format is documented; the test schemas in ``tests/core/export_schemas/`` follow these.
_DOCS = {
    "openai": "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools",
    "openai-responses": "https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools",
    "anthropic": "https://docs.claude.com/en/api/messages#body-tools",
    "gemini": "https://ai.google.dev/api/caching#FunctionDeclaration",
    "mcp": "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool",
}
_LABELS = {
    "openai": "OpenAI Chat Completions",
    "openai-responses": "OpenAI Responses",
    "anthropic": "Anthropic",
    "gemini": "Gemini",
    "mcp": "MCP",
}


@frozen
class NameRule:
    """A target's rule for tool names: the regular expression and how to say it in words."""

    #: The regular expression a name must match in full.
    pattern: str
    #: The same rule in words, for messages.
    words: str

    def fits(self, name: str) -> bool:
        return re.fullmatch(self.pattern, name) is not None


_OPENAI_NAMES = NameRule(
    r"[a-zA-Z0-9_-]{1,64}", "only letters, digits, _ and -, at most 64 characters"
)
#: The naming rule of each export format.
NAME_RULES: Mapping[ExportFormat, NameRule] = {
    "openai": _OPENAI_NAMES,
    "openai-responses": _OPENAI_NAMES,
    "anthropic": _OPENAI_NAMES,
    # The Gemini API allows . : and -, Vertex AI wants a letter or _ first: both hold here.
    "gemini": NameRule(
        r"[A-Za-z_][A-Za-z0-9_.:-]{0,63}",
        "a letter or _ first, then letters, digits, _ . : and -, at most 64 characters",
    ),
    "mcp": NameRule(
        r"[A-Za-z0-9._-]{1,128}", "only letters, digits, _ . and -, at most 128 characters"
    ),
}


class ExportedTools(list[dict[str, Any]]):
    """Tool definitions ready to send, plus the problems met while making them.

    It is a plain list of JSON-ready dicts (``json.dumps(tools)`` and
    ``client.chat.completions.create(tools=tools)`` just work) that also carries:

    :ivar format: The export format.
    :ivar problems: Tools left out (severity ``error``, e.g. a name the target refuses) and
        notes (severity ``info``, e.g. why a tool is not strict).
    """

    format: str
    problems: list[Problem]

    def __init__(
        self,
        definitions: Iterable[dict[str, Any]] = (),
        *,
        format: str,
        problems: Iterable[Problem] = (),
    ) -> None:
        super().__init__(definitions)
        self.format = format
        self.problems = list(problems)

    def __repr__(self) -> str:
        return f"<ExportedTools {self.format}: {len(self)} tools, {len(self.problems)} problems>"


def _plain(value: Any) -> Any:
    """A deep copy made of dicts and lists, so a host may change what it gets."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _problem(
    spec: ToolSpec, message: str, severity: Severity = "error", field: str = "name"
) -> Problem:
    return Problem(
        path=spec.origin.path,
        line=spec.origin.line,
        field=field,
        message=message,
        severity=severity,
    )


# -- the formats ----------------------------------------------------------------------------


def mcp_annotations(spec: ToolSpec) -> dict[str, bool]:
    """The MCP tool annotations for ``spec``: ``readOnlyHint`` and ``destructiveHint``.

    ``readOnlyHint`` is the tool's ``read_only``. ``destructiveHint`` is true unless the tool is
    read-only or its author declared it needs no approval (``approval: never`` without
    ``requires_approval``): a tool that asks first is one that may destroy something.
    ``idempotentHint`` and ``openWorldHint`` are left out, so MCP's defaults (not idempotent,
    open world) apply: a shell script may do anything, and we cannot tell.
    """
    safe = spec.approval == "never" and not spec.requires_approval
    return {"readOnlyHint": spec.read_only, "destructiveHint": not spec.read_only and not safe}


def _openai(spec: ToolSpec, schema: dict[str, Any], flat: bool) -> tuple[dict[str, Any], list[str]]:
    reasons = why_not_strict(schema, "openai")
    function: dict[str, Any] = {
        "name": spec.name,
        "description": spec.description,
        "parameters": schema,
        "strict": not reasons,
    }
    if flat:
        return {"type": "function", **function}, reasons
    return {"type": "function", "function": function}, reasons


def _anthropic(
    spec: ToolSpec, schema: dict[str, Any], budget: AnthropicBudget
) -> tuple[dict[str, Any], list[str]]:
    definition: dict[str, Any] = {
        "name": spec.name,
        "description": spec.description,
        "input_schema": schema,
    }
    reasons = why_not_strict(schema, "anthropic") or budget.spend(schema)
    if not reasons:
        definition["strict"] = True  # sent only when true, as Anthropic's docs show it
    return definition, reasons


def _mcp(spec: ToolSpec, schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": spec.name,
        "description": spec.description,
        "inputSchema": schema,
        "annotations": mcp_annotations(spec),
    }


#: What an exporter's ``define`` returns: the definition, and a note for ``.problems``
#: (why the tool is not strict, say), or ``""``.
Defined = tuple[dict[str, Any], str]


@frozen(kw_only=True)
class Exporter:
    """One export format: how it names tools and how it defines one.

    A plugin returns these from ``tooldrop_exporters``; ``host.export(name)`` and ``tooldrop
    schema --format name`` then offer the format. The core does the rest for every format:
    tools whose names break :attr:`name_rule` are left out with a problem, each schema is a
    fresh copy ``define`` may change, and a definition that is not JSON is left out too.
    """

    #: The format's name, as ``host.export()`` and ``tooldrop schema --format`` take it.
    name: str
    #: Its name for people, in messages (``OpenAI Chat Completions``).
    label: str
    #: The tool names the target accepts.
    name_rule: NameRule
    #: ``define(spec, schema, state) -> (definition, note)`` for one tool. ``schema`` is a
    #: copy of the tool's input schema; ``state`` is a dict shared by the calls of one export
    #: (for limits across tools, such as Anthropic's strict-tool budget).
    define: Callable[[ToolSpec, dict[str, Any], dict[str, Any]], Defined]
    #: Where the format is documented.
    docs: str = ""


def _not_strict(reasons: list[str]) -> str:
    return f"not strict: {'; '.join(reasons)}" if reasons else ""


def _define_openai(spec: ToolSpec, schema: dict[str, Any], state: dict[str, Any]) -> Defined:
    definition, reasons = _openai(spec, schema, flat=False)
    return definition, _not_strict(reasons)


def _define_responses(spec: ToolSpec, schema: dict[str, Any], state: dict[str, Any]) -> Defined:
    definition, reasons = _openai(spec, schema, flat=True)
    return definition, _not_strict(reasons)


def _define_anthropic(spec: ToolSpec, schema: dict[str, Any], state: dict[str, Any]) -> Defined:
    budget = state.setdefault("budget", AnthropicBudget())
    definition, reasons = _anthropic(spec, schema, budget)
    return definition, _not_strict(reasons)


def _define_gemini(spec: ToolSpec, schema: dict[str, Any], state: dict[str, Any]) -> Defined:
    return gemini_declaration(spec.name, spec.description, schema)


def _define_mcp(spec: ToolSpec, schema: dict[str, Any], state: dict[str, Any]) -> Defined:
    return _mcp(spec, schema), ""


_DEFINE = {
    "openai": _define_openai,
    "openai-responses": _define_responses,
    "anthropic": _define_anthropic,
    "gemini": _define_gemini,
    "mcp": _define_mcp,
}
#: The formats the core ships, in the order the CLI lists them.
BUILTIN_EXPORTERS: tuple[Exporter, ...] = tuple(
    Exporter(
        name=fmt,
        label=_LABELS[fmt],
        name_rule=NAME_RULES[fmt],
        define=_DEFINE[fmt],
        docs=_DOCS[fmt],
    )
    for fmt in EXPORT_FORMATS
)


def _find(fmt: str | Exporter, exporters: Iterable[Exporter] | None) -> Exporter:
    if isinstance(fmt, Exporter):
        return fmt
    known = {e.name: e for e in (BUILTIN_EXPORTERS if exporters is None else exporters)}
    if fmt not in known:
        raise ValueError(f"unknown export format {fmt!r}; expected one of: {', '.join(known)}")
    return known[fmt]


def export_tools(
    specs: Iterable[ToolSpec],
    fmt: str | Exporter,
    *,
    exporters: Iterable[Exporter] | None = None,
) -> ExportedTools:
    """Definitions of ``specs`` for ``fmt``, with the problems met along the way.

    :param specs: The tools, usually ``host.tools()``.
    :param fmt: ``openai`` (Chat Completions), ``openai-responses``, ``anthropic``, ``gemini``
        (function declarations; wrap them in ``{"functionDeclarations": [...]}``), ``mcp``,
        another format's name in ``exporters``, or an :class:`Exporter` itself.
    :param exporters: The formats to look ``fmt`` up in (default: :data:`BUILTIN_EXPORTERS`;
        ``host.export`` passes the host's, plugins' formats included).
    :returns: The definitions, in the order of ``specs``; ``.problems`` lists each tool left
        out (its name breaks the target's rule) as an error, and why a tool is not strict or
        took Gemini's JSON Schema form as an info.
    :raises ValueError: for an unknown format.
    """
    exporter = _find(fmt, exporters)
    out = ExportedTools(format=exporter.name)
    label, rule = exporter.label, exporter.name_rule
    state: dict[str, Any] = {}
    for spec in specs:
        if not rule.fits(spec.name):
            message = (
                f'tool "{spec.name}" is left out of the {label} export: names there must match '
                f"^{rule.pattern}$ ({rule.words}); rename the tool"
            )
            out.problems.append(_problem(spec, message))
            continue
        definition, note = exporter.define(spec, _plain(spec.input_schema), state)
        try:
            json.dumps(definition, allow_nan=False)
        except (TypeError, ValueError) as exc:
            message = (
                f'tool "{spec.name}" is left out of the {label} export: its schema is not '
                f"JSON ({exc})"
            )
            out.problems.append(_problem(spec, message, field="input_schema"))
            continue
        out.append(definition)
        if note:
            out.problems.append(_problem(spec, note, "info", "input_schema"))
    return out
