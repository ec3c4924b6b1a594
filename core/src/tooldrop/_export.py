"""Tool definitions for provider APIs and MCP, all made from the one :class:`ToolSpec`.

Pure functions: nothing here loads, runs or mutates a tool. Each format's shape follows the
provider's documented tool format (see ``_DOCS``). Two rules hold everywhere:

* ``strict`` is decided per tool from its schema, never assumed: OpenAI gets it explicitly
  (``true`` or ``false``; the Responses API would otherwise normalize a schema into strict mode
  and make optional fields mandatory), Anthropic gets ``"strict": true`` only when it qualifies.
  :func:`why_not_strict` says why a schema does not.
* A tool whose name breaks a target's naming rule is left out of that export, with a
  :class:`Problem` naming the tool, its file and the rule, instead of an API error later.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal, get_args

from attrs import frozen

from ._export_gemini import gemini_declaration
from ._export_strict import AnthropicBudget, why_not_strict
from ._model import Problem, Severity, ToolSpec

__all__ = [
    "EXPORT_FORMATS",
    "NAME_RULES",
    "ExportFormat",
    "ExportedTools",
    "NameRule",
    "export_tools",
    "mcp_annotations",
    "why_not_strict",
]

#: A provider's tool-definition format: what :func:`export_tools` and ``tooldrop schema`` write.
ExportFormat = Literal["openai", "openai-responses", "anthropic", "gemini", "mcp"]
#: Every :data:`ExportFormat`, in the order the CLI lists them.
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

    format: ExportFormat
    problems: list[Problem]

    def __init__(
        self,
        definitions: Iterable[dict[str, Any]] = (),
        *,
        format: ExportFormat,
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


def export_tools(specs: Iterable[ToolSpec], fmt: ExportFormat) -> ExportedTools:
    """Definitions of ``specs`` for ``fmt``, with the problems met along the way.

    :param specs: The tools, usually ``host.tools()``.
    :param fmt: ``openai`` (Chat Completions), ``openai-responses``, ``anthropic``, ``gemini``
        (function declarations; wrap them in ``{"functionDeclarations": [...]}``) or ``mcp``.
    :returns: The definitions, in the order of ``specs``; ``.problems`` lists each tool left
        out (its name breaks the target's rule) as an error, and why a tool is not strict or
        took Gemini's JSON Schema form as an info.
    :raises ValueError: for an unknown format.
    """
    if fmt not in EXPORT_FORMATS:
        known = ", ".join(EXPORT_FORMATS)
        raise ValueError(f"unknown export format {fmt!r}; expected one of: {known}")
    out = ExportedTools(format=fmt)
    label, rule = _LABELS[fmt], NAME_RULES[fmt]
    budget = AnthropicBudget()
    for spec in specs:
        if not rule.fits(spec.name):
            message = (
                f'tool "{spec.name}" is left out of the {label} export: names there must match '
                f"^{rule.pattern}$ ({rule.words}); rename the tool"
            )
            out.problems.append(_problem(spec, message))
            continue
        schema = _plain(spec.input_schema)
        note = ""
        if fmt == "openai" or fmt == "openai-responses":
            definition, reasons = _openai(spec, schema, flat=fmt == "openai-responses")
            note = f"not strict: {'; '.join(reasons)}" if reasons else ""
        elif fmt == "anthropic":
            definition, reasons = _anthropic(spec, schema, budget)
            note = f"not strict: {'; '.join(reasons)}" if reasons else ""
        elif fmt == "gemini":
            definition, note = gemini_declaration(spec.name, spec.description, schema)
        else:
            definition = _mcp(spec, schema)
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
