"""tooldrop-toml: a sample third-party tooldrop plugin for tools written as TOML files.

The plugin is :mod:`tooldrop_toml.plugin` (entry point ``toml`` in group ``tooldrop``); the
names here are its pieces, for tests and for hosts that compose plugins themselves.
"""

from __future__ import annotations

from ._command import Command, Placeholder, render_argv, render_script
from ._loader import input_schema, load_toml

__all__ = ["Command", "Placeholder", "input_schema", "load_toml", "render_argv", "render_script"]
