"""tooldrop's tools in agent frameworks, approval included.

One module per framework, each importing its framework only when it is imported itself:
:mod:`tooldrop_adapters.pydantic_ai`, :mod:`tooldrop_adapters.openai_agents`,
:mod:`tooldrop_adapters.langchain` and :mod:`tooldrop_adapters.llm`. What they share is here.
"""

from __future__ import annotations

from ._common import Ask, Errors, ToolError

__all__ = ["Ask", "Errors", "ToolError"]
