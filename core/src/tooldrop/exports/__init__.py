"""Tool definitions for provider APIs (OpenAI, Anthropic, Gemini, MCP), made from one ToolSpec.

Built-in implementations of the ``tooldrop_exporters`` hook; a plugin adds a format the same way.
"""
