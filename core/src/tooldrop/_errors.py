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

from collections.abc import Iterable, Sequence

__all__ = [
    "InvalidArgumentsError",
    "PluginError",
    "RenderError",
    "SandboxError",
    "ToolDropError",
    "UnknownSkillError",
    "UnknownToolError",
]


#: Names listed in an unknown-tool message: a model needs the idea, not a project's 400 names.
_SHOWN_NAMES = 30


class ToolDropError(Exception):
    """Base class of tooldrop's exceptions."""


class UnknownToolError(ToolDropError, LookupError):
    """No tool of this name is loaded (or it is hidden in this mode).

    Given ``known`` (the names the caller may call), the message lists them, sorted, and
    suggests the closest ones: ``Unknown tool "wether". Available tools: weather. Did you
    mean "weather"?``. ``str(error)`` is then the text the model gets for an unknown tool,
    the same whichever host, adapter or CLI produced it.
    """

    def __init__(
        self, name: str, message: str | None = None, *, known: Iterable[str] | None = None
    ) -> None:
        text, suggestions = _unknown("tool", name, known)
        super().__init__(message or text)
        self.name = name
        #: The known names closest to ``name``, closest first (at most three; empty without
        #: ``known``).
        self.suggestions = suggestions


class UnknownSkillError(ToolDropError, LookupError):
    """No skill bundle of this name is loaded, so it has no agent context.

    Given ``known`` (the loaded bundles' names), the message lists them and suggests the
    closest, as :class:`UnknownToolError` does.
    """

    def __init__(self, name: str, *, known: Iterable[str] | None = None) -> None:
        text, suggestions = _unknown("skill", name, known)
        super().__init__(text)
        self.name = name
        #: The known names closest to ``name``, closest first (at most three).
        self.suggestions = suggestions


def _unknown(kind: str, name: str, known: Iterable[str] | None) -> tuple[str, tuple[str, ...]]:
    """``Unknown tool "x". Available tools: a, b. Did you mean "a"?`` and the suggestions."""
    names = sorted(set(known or ()))
    suggestions: tuple[str, ...] = ()
    if names:
        import difflib  # only when a name was mistyped

        suggestions = tuple(difflib.get_close_matches(name, names, n=3, cutoff=0.75))
    text = f'Unknown {kind} "{name}"'
    if known is not None:
        shown = ", ".join(names[:_SHOWN_NAMES]) + (", ..." if len(names) > _SHOWN_NAMES else "")
        text += f". Available {kind}s: {shown or 'none'}"
    if suggestions:
        text += ". Did you mean " + " or ".join(f'"{n}"' for n in suggestions) + "?"
    return text, suggestions


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
