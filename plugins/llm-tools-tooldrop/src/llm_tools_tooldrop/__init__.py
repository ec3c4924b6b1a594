"""The llm plugin: registers the :class:`~tooldrop_adapters.llm.Tooldrop` toolbox.

``llm install llm-tools-tooldrop``, then ``llm -T Tooldrop "..."`` (or
``-T 'Tooldrop("path/to/project")'``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import llm

from tooldrop_adapters.llm import Tooldrop

__all__ = ["Tooldrop", "register_tools"]


@llm.hookimpl
def register_tools(register: Callable[[Any], None]) -> None:
    register(Tooldrop)
