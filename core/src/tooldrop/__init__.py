"""tooldrop: drop files into a folder, get tools an LLM agent can call.

The public API lives here; everything else is private (``_modules``) or a documented plugin
module (:mod:`tooldrop.hookspecs`, :mod:`tooldrop.approval`).
"""

from __future__ import annotations

import typing as _typing

from ._errors import (
    InvalidArgumentsError,
    PluginError,
    RenderError,
    SandboxError,
    ToolDropError,
    UnknownSkillError,
    UnknownToolError,
)
from ._model import (
    MODES,
    SANDBOX_SETTINGS,
    Approval,
    Command,
    Confinement,
    Decision,
    LoadResult,
    Mode,
    Origin,
    OutputCallback,
    Problem,
    SandboxSetting,
    Scope,
    Severity,
    ToolCall,
    ToolDir,
    ToolResult,
    ToolSpec,
    Visibility,
)
from .hookspecs import hookimpl

if _typing.TYPE_CHECKING:
    from ._convert import get_converter, json_type_name, problems_from_error, structure
    from ._files import FileRefused, read_regular_file
    from .calls._cancel import CancelToken
    from .calls._output import (
        DEFAULT_OUTPUT_LIMIT,
        join_truncated,
        split_budget,
        truncate,
        truncation_marker,
    )
    from .calls._pending import PendingCall, describe_call
    from .calls._sandbox import wrap_command
    from .exports._export import (
        BUILTIN_EXPORTERS,
        EXPORT_FORMATS,
        NAME_RULES,
        ExportedTools,
        Exporter,
        ExportFormat,
        NameRule,
        export_tools,
        mcp_annotations,
        why_not_strict,
    )
    from .host._agentctx import AgentContext
    from .host._host import ToolHost
    from .host._lifetime import running_calls, stop_all
    from .host._plugins import PluginInfo
    from .host._settings import Settings, load_settings
    from .policy._envrules import FORBIDDEN_ENV, forbidden_env_pattern, is_forbidden_env
    from .pytools._tool import Tool, ToolDefinitionError, to_spec, tool
    from .schemas._pattern import PatternError, compile_pattern
    from .schemas._schema import validate_args
    from .skills._manifest import Manifest, Subscription
    from .skills._skills import Agent, Skill

# Every other public name is imported on first use (PEP 562): the model, the errors and
# ``hookimpl`` are all a plugin needs to register, and a start-up that only lists tools should
# not pay for the call pipeline, the exports, the Python-tool machinery or the schema checks.
_HOMES = {
    "get_converter": "_convert",
    "json_type_name": "_convert",
    "problems_from_error": "_convert",
    "structure": "_convert",
    "FileRefused": "_files",
    "read_regular_file": "_files",
    "CancelToken": "calls._cancel",
    "DEFAULT_OUTPUT_LIMIT": "calls._output",
    "join_truncated": "calls._output",
    "split_budget": "calls._output",
    "truncate": "calls._output",
    "truncation_marker": "calls._output",
    "PendingCall": "calls._pending",
    "describe_call": "calls._pending",
    "wrap_command": "calls._sandbox",
    "BUILTIN_EXPORTERS": "exports._export",
    "EXPORT_FORMATS": "exports._export",
    "NAME_RULES": "exports._export",
    "ExportedTools": "exports._export",
    "Exporter": "exports._export",
    "ExportFormat": "exports._export",
    "NameRule": "exports._export",
    "export_tools": "exports._export",
    "mcp_annotations": "exports._export",
    "why_not_strict": "exports._export",
    "AgentContext": "host._agentctx",
    "ToolHost": "host._host",
    "running_calls": "host._lifetime",
    "stop_all": "host._lifetime",
    "PluginInfo": "host._plugins",
    "Settings": "host._settings",
    "load_settings": "host._settings",
    "FORBIDDEN_ENV": "policy._envrules",
    "forbidden_env_pattern": "policy._envrules",
    "is_forbidden_env": "policy._envrules",
    "Tool": "pytools._tool",
    "ToolDefinitionError": "pytools._tool",
    "to_spec": "pytools._tool",
    "tool": "pytools._tool",
    "PatternError": "schemas._pattern",
    "compile_pattern": "schemas._pattern",
    "validate_args": "schemas._schema",
    "Manifest": "skills._manifest",
    "Subscription": "skills._manifest",
    "Agent": "skills._skills",
    "Skill": "skills._skills",
}

__all__ = [
    "BUILTIN_EXPORTERS",
    "DEFAULT_OUTPUT_LIMIT",
    "EXPORT_FORMATS",
    "FORBIDDEN_ENV",
    "MODES",
    "NAME_RULES",
    "SANDBOX_SETTINGS",
    "Agent",
    "AgentContext",
    "Approval",
    "CancelToken",
    "Command",
    "Confinement",
    "Decision",
    "ExportFormat",
    "ExportedTools",
    "Exporter",
    "FileRefused",
    "InvalidArgumentsError",
    "LoadResult",
    "Manifest",
    "Mode",
    "NameRule",
    "Origin",
    "OutputCallback",
    "PatternError",
    "PendingCall",
    "PluginError",
    "PluginInfo",
    "Problem",
    "RenderError",
    "SandboxError",
    "SandboxSetting",
    "Scope",
    "Settings",
    "Severity",
    "Skill",
    "Subscription",
    "Tool",
    "ToolCall",
    "ToolDefinitionError",
    "ToolDir",
    "ToolDropError",
    "ToolHost",
    "ToolResult",
    "ToolSpec",
    "UnknownSkillError",
    "UnknownToolError",
    "Visibility",
    "compile_pattern",
    "converter",
    "describe_call",
    "export_tools",
    "forbidden_env_pattern",
    "get_converter",
    "hookimpl",
    "is_forbidden_env",
    "join_truncated",
    "json_type_name",
    "load_settings",
    "mcp_annotations",
    "problems_from_error",
    "read_regular_file",
    "running_calls",
    "split_budget",
    "stop_all",
    "structure",
    "to_spec",
    "tool",
    "truncate",
    "truncation_marker",
    "validate_args",
    "why_not_strict",
    "wrap_command",
]


def __getattr__(name: str) -> _typing.Any:
    home = _HOMES.get(name)
    if home is not None:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
        globals()[name] = value  # next time, a plain attribute
        return value
    if name == "converter":  # built on first use: importing tooldrop should not import cattrs
        from ._convert import get_converter

        return get_converter()
    if name == "__version__":
        from importlib.metadata import version

        return version("tooldrop-core")
    raise AttributeError(f"module 'tooldrop' has no attribute {name!r}")
