"""Exceptions. Calls never raise these at the model: they become error results.

::

    ToolDropError
    ├── UnknownToolError    (also a LookupError) no tool of that name is loaded
    ├── UnknownSkillError   (also a LookupError) no skill bundle of that name is loaded
    ├── InvalidArgumentsError                    ``host.render`` got arguments the schema refuses
    ├── RenderError                              a renderer refuses to render the arguments safely
    ├── SandboxError                             a call that must run confined cannot be
    └── PluginError                              a plugin failed to load (strict mode, ``register``)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "InvalidArgumentsError",
    "PluginError",
    "RenderError",
    "SandboxError",
    "ToolDropError",
    "UnknownSkillError",
    "UnknownToolError",
]


class ToolDropError(Exception):
    """Base class of tooldrop's exceptions."""


class UnknownToolError(ToolDropError, LookupError):
    """No tool of this name is loaded (or it is hidden in this mode)."""

    def __init__(self, name: str, message: str | None = None) -> None:
        super().__init__(message or f'Unknown tool "{name}"')
        self.name = name


class UnknownSkillError(ToolDropError, LookupError):
    """No skill bundle of this name is loaded, so it has no agent context."""

    def __init__(self, name: str) -> None:
        super().__init__(f'Unknown skill "{name}"')
        self.name = name


class InvalidArgumentsError(ToolDropError, ValueError):
    """The arguments do not meet the tool's schema; ``messages`` says how, one per line."""

    def __init__(self, messages: Sequence[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = tuple(messages)


class RenderError(ToolDropError):
    """Raised by a ``tooldrop_render`` implementation that cannot render the call safely.

    The message is shown to the model; nothing runs.
    """


class SandboxError(ToolDropError):
    """A call must run confined (``sandbox: required``) and cannot be; nothing ran.

    Raised by ``tooldrop_wrap_command`` implementations and by :func:`tooldrop.wrap_command`;
    the backend turns the message into the call's error result, so write it for the model.
    """


class PluginError(ToolDropError):
    """A plugin could not be loaded (raised in strict mode, and by ``ToolHost.register``)."""
