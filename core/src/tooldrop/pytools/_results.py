"""What a Python tool returned, as the text the model sees (DESIGN §8, Copse's coercion).

============================================  =============================================
``execute`` returned                           the model sees
============================================  =============================================
``str``                                        it, verbatim
``None``                                       ``""``
``{"content": [...], "isError": ...}``         the text items joined by newlines; a truthy
                                               ``isError`` makes it an error result
``bytes``                                      it, decoded as UTF-8 (bad bytes → U+FFFD)
a :class:`tooldrop.ToolResult`                 it, as it is
other JSON values (dict, list, number, bool)   ``json.dumps(value, ensure_ascii=False)``
anything else                                  ``[unserializable custom tool result]``
raised an exception                            an error: ``<ExceptionType>: <message>``
============================================  =============================================

Dataclasses, attrs instances, enums and paths inside a JSON value are written as their
fields, value and string, so a typed tool can return its own records.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
from collections.abc import Mapping
from typing import Any

import attrs

from .._model import ToolResult

__all__ = ["REPORTED_ERROR", "UNSERIALIZABLE", "result_from_exception", "result_from_value"]

UNSERIALIZABLE = "[unserializable custom tool result]"
#: The text of an error envelope that carries no text of its own.
REPORTED_ERROR = "Custom tool reported an error"


def _plain(value: object) -> Any:
    """``json.dumps``' fallback for the records a typed tool may return."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if attrs.has(type(value)):
        return attrs.asdict(value)  # type: ignore[arg-type]  # attrs.has() narrowed it at runtime
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _is_envelope(value: object) -> bool:
    if not isinstance(value, Mapping):
        return False
    content = value.get("content")
    return isinstance(content, list) and all(
        isinstance(item, Mapping) and isinstance(item.get("type"), str) for item in content
    )


def _item_text(item: Mapping[str, Any]) -> str:
    """One MCP content item as text; what is not text is named, not dumped."""
    kind = item["type"]
    if kind == "text":
        text = item.get("text")
        return text if isinstance(text, str) else ""
    if kind in ("image", "audio"):
        return f"[{kind}: {item.get('mimeType') or 'unknown type'}]"
    if kind == "resource":
        resource = item.get("resource")
        if isinstance(resource, Mapping):
            if isinstance(resource.get("text"), str):
                return str(resource["text"])
            return f"[resource: {resource.get('uri') or 'embedded'}]"
        return "[resource]"
    if kind == "resource_link":
        return f"[resource link: {item.get('uri') or ''}]"
    return f"[{kind} content]"


def result_from_value(value: object) -> ToolResult:
    """The :class:`ToolResult` for a value ``execute`` returned (never raises)."""
    if isinstance(value, str):
        return ToolResult(text=value)
    if value is None:
        return ToolResult(text="")
    if isinstance(value, ToolResult):
        return value
    if isinstance(value, bytes | bytearray | memoryview):
        return ToolResult(text=bytes(value).decode("utf-8", errors="replace"))
    if _is_envelope(value):
        assert isinstance(value, Mapping)
        text = "\n".join(_item_text(item) for item in value["content"])
        if value.get("isError"):
            return ToolResult.error(text or REPORTED_ERROR)
        return ToolResult(text=text)
    try:
        return ToolResult(
            text=json.dumps(value, ensure_ascii=False, allow_nan=False, default=_plain)
        )
    except (TypeError, ValueError, RecursionError):  # sets, objects, circular, NaN
        return ToolResult(text=UNSERIALIZABLE)
    except Exception:  # noqa: BLE001 - a __getattr__ or asdict() that raises is still a result.
        return ToolResult(text=UNSERIALIZABLE)


def result_from_exception(exc: BaseException) -> ToolResult:
    """An error result naming the exception: ``ValueError: no such city``.

    The model sees no traceback: it cannot use one, and it may show paths and source.
    """
    try:
        message = str(exc).strip()
    except Exception:  # noqa: BLE001 - an exception whose __str__ raises still names its type.
        message = ""
    name = type(exc).__name__
    return ToolResult.error(f"{name}: {message}" if message else name)
