"""tooldrop_adapters: a tested ``__all__``, and no framework imported until its adapter is."""

from __future__ import annotations

import subprocess
import sys
import types

import pytest

import tooldrop_adapters


def test_all_is_sorted_and_complete():
    assert list(tooldrop_adapters.__all__) == sorted(tooldrop_adapters.__all__)
    public = {
        name
        for name, value in vars(tooldrop_adapters).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType)
        and name != "annotations"
    }
    assert public == set(tooldrop_adapters.__all__)


def test_importing_the_package_imports_no_framework():
    frameworks = ("pydantic_ai", "agents", "langchain_core", "langgraph", "llm", "mcp")
    code = (
        "import sys, tooldrop_adapters; "
        f"print(sorted(m for m in {frameworks!r} if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("adapter", ["pydantic_ai", "openai_agents", "langchain", "llm"])
def test_the_adapters_need_no_mcp_server(adapter):
    """A framework user's install has no MCP server: no adapter imports it, nor mcp itself
    (the OpenAI Agents SDK imports mcp on its own, for its own MCP support)."""
    code = (
        f"import sys, tooldrop_adapters.{adapter}; "
        "print(sorted({m.split('.')[0] for m in sys.modules "
        "if m.split('.')[0] in ('mcp', 'tooldrop_mcp')}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    expected = "['mcp']" if adapter == "openai_agents" else "[]"
    assert done.stdout.strip() == expected
