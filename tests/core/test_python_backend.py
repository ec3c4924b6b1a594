"""The core runs Python tools itself: a plugin's ``tooldrop.Tool`` works without tooldrop-python.

Each case runs in a fresh interpreter where ``tooldrop_python`` cannot be imported at all
(``sys.modules`` blocks it), with the plugin set composed explicitly (no entry points), so
nothing but the core can be what ran the tool.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: A tool pack with every shape ``register`` takes, sync and async, plus a slow one.
PACK = '''
import asyncio, dataclasses, enum, time
import tooldrop
from tooldrop import CancelToken, Tool, tool

class Unit(enum.Enum):
    C = "c"
    F = "f"

@dataclasses.dataclass
class Place:
    city: str
    zip: str = ""

@tool(approval="never")
def forecast(place: Place, days: int = 1, unit: Unit = Unit.C) -> dict:
    """Forecast for a place."""
    return {"city": place.city, "days": days, "unit": type(unit).__name__ + "." + unit.name}

@tool(approval="never")
async def shout(text: str) -> str:
    """Shout, asynchronously."""
    await asyncio.sleep(0)
    return text.upper()

@tool(approval="never", timeout_ms=200)
def stubborn(cancel: CancelToken) -> str:
    """Never returns on its own."""
    cancel.wait(30)
    return "cancelled late"

def failing(args):
    raise ValueError("no such city: " + args["city"])

@tooldrop.hookimpl
def tooldrop_register_tools(register):
    register(forecast)
    register(shout)
    register(stubborn)
    register(Tool(name="echo", description="Echo.", execute=lambda args: args, approval="never"))
    register({"name": "failing", "description": "Fails.", "execute": failing,
              "approval": "never", "inputSchema": {"properties": {"city": {"type": "string"}}}})
'''

DRIVER = """
import json, sys
sys.modules["tooldrop_python"] = None  # importing it now raises ImportError
sys.path.insert(0, sys.argv[1])
import {module} as pack
from tooldrop import ToolHost

host = ToolHost(project_dir=sys.argv[1], user_dir=sys.argv[1], plugins=[pack], settings=None)
out = {{"problems": [p.format() for p in host.problems()],
        "plugins": [[p.name, p.origin] for p in host.plugins()],
        "python_plugin_imported": "tooldrop_python.plugin" in sys.modules}}
for name, args in json.loads(sys.argv[2]):
    result = host.call(name, args)
    out[name] = [result.text, result.is_error]
print(json.dumps(out))
"""


def run(tmp_path: Path, module: str, source: str, calls: list[tuple[str, dict]]) -> dict:
    (tmp_path / f"{module}.py").write_text(source, encoding="utf-8")
    driver = DRIVER.format(module=module)
    done = subprocess.run(
        [sys.executable, "-c", driver, str(tmp_path), json.dumps(calls)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_plugins_python_tools_run_with_the_core_alone(tmp_path):
    calls = [
        ("forecast", {"place": {"city": "Paris"}, "unit": "f"}),
        ("shout", {"text": "hi"}),
        ("echo", {"a": [1]}),
        ("failing", {"city": "Atlantis"}),
        ("stubborn", {}),
    ]
    out = run(tmp_path, "pack", PACK, calls)
    assert out["problems"] == []
    assert not out["python_plugin_imported"]
    assert ["tooldrop.python", "builtin"] in out["plugins"]
    assert out["forecast"] == ['{"city": "Paris", "days": 1, "unit": "Unit.F"}', False]
    assert out["shout"] == ["HI", False]
    assert out["echo"] == ['{"a": [1]}', False]
    assert out["failing"] == ["ValueError: no such city: Atlantis", True]
    assert out["stubborn"] == ["Custom tool timed out after 200ms", True]


def test_a_plugins_own_python_backend_goes_before_the_cores(tmp_path):
    """The core's backend is the last resort (``trylast``): a plugin may run Python tools
    its own way (in a subprocess, say) without ``tryfirst``."""
    source = PACK + textwrap.dedent(
        """
        @tooldrop.hookimpl
        def tooldrop_execute(call):
            if call.spec.runner == "python" and call.spec.name == "echo":
                return tooldrop.ToolResult(text="ran elsewhere")
            return None
        """
    )
    out = run(tmp_path, "elsewhere", source, [("echo", {}), ("shout", {"text": "a"})])
    assert out["echo"] == ["ran elsewhere", False]
    assert out["shout"] == ["A", False]


def docs_plugin_example() -> str:
    """The first example of docs/plugins.md: the module a reader copies to start a plugin."""
    page = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    found = re.search(r"```python\n(# tooldrop_weather\.py\n.*?)```", page, re.S)
    assert found, "docs/plugins.md no longer starts with the tooldrop_weather.py example"
    return found.group(1)


def test_the_docs_first_plugin_example_works_with_the_core_alone(tmp_path):
    out = run(tmp_path, "tooldrop_weather", docs_plugin_example(), [("weather", {"city": "Paris"})])
    assert out["problems"] == []
    assert out["weather"] == ["Sunny in Paris", False]


@pytest.mark.parametrize("selected", ["", "markdown"])
def test_the_core_backend_is_essential_whatever_tooldrop_plugins_selects(tmp_path, selected):
    driver = (
        "import json, tooldrop\n"
        "host = tooldrop.ToolHost(project_dir='.', user_dir='.')\n"
        "print(json.dumps([[p.name, p.origin] for p in host.plugins()]))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "TOOLDROP_PLUGINS": selected, "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", driver],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
        check=True,
    )
    assert ["tooldrop.python", "builtin"] in json.loads(done.stdout)
