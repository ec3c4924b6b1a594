"""tooldrop: drop files into a folder, get tools an LLM agent can call.

The public API lives here; everything else is private (``_modules``) or a documented plugin
module (:mod:`tooldrop.hookspecs`, :mod:`tooldrop.approval`).
"""

from __future__ import annotations

from typing import Any

from ._convert import get_converter, json_type_name, problems_from_error, structure
from ._errors import (
    InvalidArgumentsError,
    PluginError,
    RenderError,
    SandboxError,
    ToolDropError,
    UnknownSkillError,
    UnknownToolError,
)
from ._files import FileRefused, read_regular_file
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
from .hookspecs import hookimpl
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


def __getattr__(name: str) -> Any:
    if name == "converter":  # built on first use: importing tooldrop should not import cattrs
        return get_converter()
    if name == "__version__":
        from importlib.metadata import version

        return version("tooldrop-core")
    raise AttributeError(f"module 'tooldrop' has no attribute {name!r}")
