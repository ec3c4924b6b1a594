"""Why a call could not start. Both become error results; neither reaches the host."""

from __future__ import annotations

__all__ = ["SetupError", "StartError"]


class SetupError(Exception):
    """The call was refused before anything was spawned; the message is for the model."""


class StartError(Exception):
    """The shell could not be started (missing binary, bad cwd, NUL byte in the script)."""
