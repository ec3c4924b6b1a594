"""The ``markdown`` plugin: loads ``*.md`` tool files and renders their templates.

(First cut: loads name, description and approval so the registry can be exercised; the full
format arrives with the markdown-tools issue.)
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import yaml

from tooldrop import LoadResult, Origin, Problem, Scope, ToolCall, ToolHost, ToolSpec, hookimpl


@hookimpl
def tooldrop_load_file(path: Path, scope: Scope, host: ToolHost) -> LoadResult | None:
    if path.suffix != ".md":
        return None
    data = path.read_bytes()
    text = data.decode("utf-8")
    if not text.startswith("---"):
        return LoadResult(problems=[Problem(path=path, message="Missing YAML frontmatter")])
    _, front, body = text.split("---", 2)
    meta = yaml.safe_load(front) or {}
    origin = Origin(
        source="markdown", scope=scope, path=path, line=1, content_hash=hashlib.sha256(data).hexdigest()
    )
    spec = ToolSpec(
        name=meta["name"],
        description=meta["description"],
        input_schema={"type": "object", "properties": {}, "additionalProperties": False},
        approval=meta.get("approval") or "always",
        read_only=bool(meta.get("read_only", meta.get("approval") == "never")),
        origin=origin,
        runner="shell",
        payload=body.strip(),
    )
    return LoadResult(tools=[spec])


@hookimpl
def tooldrop_render(call: ToolCall, host: ToolHost) -> str | None:
    if call.spec.origin.source != "markdown":
        return None
    return str(call.spec.payload)
