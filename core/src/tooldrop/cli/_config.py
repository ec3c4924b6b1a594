"""The settings the CLI reads are the host's own: see :mod:`tooldrop.host._settings`."""

from __future__ import annotations

from ..host._settings import Settings, load_settings

__all__ = ["Settings", "load_settings"]
