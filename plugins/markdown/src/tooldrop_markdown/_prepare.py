"""The checks that come before structuring: unknown keys, nulls, the list form of parameters,
parameter names, and ``env``.

These need the whole mapping (or produce warnings), which per-field structure hooks cannot
do. The result is a mapping the converter can structure, plus the problems found so far as
``(field path, message, severity)``.
"""

from __future__ import annotations

import difflib
import math
import sys
from typing import Any

from attrs import define, field

from tooldrop import FORBIDDEN_ENV, Severity, forbidden_env_pattern, is_forbidden_env

from ._fields import ABSENT, NAME_PATTERN, NAME_RULE, PARAM_KEYS, TOP_KEYS
from ._quote import js_number

__all__ = ["FORBIDDEN_ENV", "Found", "Prepared", "forbidden_env", "prepare"]

Found = tuple[str, str, Severity]

#: Keys where ``null`` (``approval:`` with nothing after it) means "use the default". ``cwd``
#: is not one of them: the reference refuses ``cwd:`` with no value.
_NULL_IS_DEFAULT = ("parameters", "approval", "read_only", "timeout_ms", "env", "shell")
# In a parameter, ``default: null`` is a default of null and ``type`` is always checked.
_PARAM_NULL_IS_DEFAULT = PARAM_KEYS - {"type", "default"}


# Keys people write out of habit (JSON Schema, other tools), and what this format calls them.
_ALIASES = {
    "minimum": "min",
    "maximum": "max",
    "min_length": "minLength",
    "max_length": "maxLength",
    "minlength": "minLength",
    "maxlength": "maxLength",
    "timeout": "timeout_ms",
    "readonly": "read_only",
    "readOnly": "read_only",
    "params": "parameters",
    "args": "parameters",
    "arguments": "parameters",
    "inputSchema": "parameters",
    "input_schema": "parameters",
}


forbidden_env = is_forbidden_env  # one list, in the core, for every loader and backend


@define
class Prepared:
    data: dict[str, Any]
    found: list[Found] = field(factory=list)
    #: Every parameter name the file declares, valid or not (for the template checks).
    declared: set[str] = field(factory=set)
    #: ``parameters`` could not be read at all: the template checks cannot know the names.
    parameters_unknown: bool = False


def _unknown_key(path: str, key: object, known: frozenset[str]) -> Found:
    text = str(key)
    hint = _ALIASES.get(text)
    if hint is None or hint not in known:
        close = difflib.get_close_matches(text, sorted(known), n=1, cutoff=0.75)
        hint = close[0] if close else None
    message = f'unknown key "{text}" (ignored)'
    if hint:
        message += f'; did you mean "{hint}"?'
    return (f"{path}.{text}" if path else text, message, "warning")


def _env_text(value: Any) -> str:
    """A value as JavaScript's ``String()`` writes it (arrays join with commas)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool | int | float):
        return js_number(value)
    if isinstance(value, list):
        return ",".join(_env_text(item) for item in value)
    return "[object Object]"


def _prepare_env(value: Any, out: Prepared) -> None:
    if not isinstance(value, dict):
        out.found.append(("env", '"env" must be a mapping of name → value', "error"))
        del out.data["env"]
        return
    env: dict[str, str] = {}
    for key, raw in value.items():
        name = key if isinstance(key, str) else _env_text(key)
        path = f"env.{name}"
        if forbidden_env(name):
            message = (
                f"env may not set {name}: it changes how the shell or the programs it starts "
                f"behave, so it could run code that is not in this file (forbidden: "
                f"{forbidden_env_pattern(name)}; the whole list is in docs/security.md)"
            )
            out.found.append((path, message, "error"))
            continue
        if not name or "=" in name or "\0" in name:
            out.found.append((path, f"{name!r} is not a valid environment variable name", "error"))
            continue
        text = _env_text(raw)
        if isinstance(raw, list | dict):
            message = (
                f'a {"list" if isinstance(raw, list) else "mapping"} becomes the text "{text}" '
                "(as in Nanocoder); write the value as a quoted string"
            )
            out.found.append((path, message, "warning"))
        if "\0" in text:
            message = "the value holds a NUL byte, which no program accepts"
            out.found.append((path, message, "error"))
            continue
        env[sys.intern(name)] = text  # names repeat across tools: one string each
    out.data["env"] = env


def _parameter_list(value: list[Any], out: Prepared) -> dict[Any, Any]:
    """The list form (``- name: x``) as the mapping form; the last of two same names wins."""
    mapping: dict[Any, Any] = {}
    where: dict[Any, int] = {}
    for index, item in enumerate(value):
        path = f"parameters[{index}]"
        if not isinstance(item, dict):
            message = 'entry must be a mapping with at least a "name" and "type"'
            out.found.append((path, message, "error"))
            continue
        name = item.get("name")
        if not isinstance(name, str) or not name:
            out.found.append((path, 'entry is missing a "name" field', "error"))
            continue
        if name in where:
            first = where[name]
            message = (
                f'parameter "{name}" is listed twice (first at parameters[{first}]); '
                "this entry replaces it"
            )
            out.found.append((path, message, "warning"))
        where[name] = index
        mapping[name] = {k: v for k, v in item.items() if k != "name"}
    return mapping


def _non_finite_to_null(value: Any) -> tuple[Any, list[float]]:
    """``value`` with every ``.nan``/``.inf`` (at any depth) made null, and the ones found.

    JSON has no such numbers: the reference's ``JSON.stringify`` writes them as ``null`` in
    the schema the model sees, and a schema holding them is not JSON at all for an export.
    """
    if isinstance(value, float) and not math.isfinite(value):
        return None, [value]
    if isinstance(value, list):
        found: list[float] = []
        items = []
        for item in value:
            new, bad = _non_finite_to_null(item)
            items.append(new)
            found += bad
        return (items, found) if found else (value, found)
    if isinstance(value, dict):
        found = []
        mapping = {}
        for name, item in value.items():
            new, bad = _non_finite_to_null(item)
            mapping[name] = new
            found += bad
        return (mapping, found) if found else (value, found)
    return value, []


def _yaml_number(value: float) -> str:
    if math.isnan(value):
        return ".nan"
    return ".inf" if value > 0 else "-.inf"


def _prepare_param(key: str, raw: dict[Any, Any], out: Prepared) -> dict[str, Any]:
    param: dict[str, Any] = {}
    path = f"parameters.{key}"
    for name, value in raw.items():
        if not isinstance(name, str) or name not in PARAM_KEYS:
            out.found.append(_unknown_key(path, name, PARAM_KEYS))
        elif value is None and name in _PARAM_NULL_IS_DEFAULT:
            continue
        else:
            param[name] = value
    param.setdefault("type", ABSENT)
    for name in ("default", "enum"):
        if name in param:
            param[name], bad = _non_finite_to_null(param[name])
            if bad:
                message = (
                    f"{_yaml_number(bad[0])} is not a JSON number: it becomes null, as in "
                    "Nanocoder (the schema shows null"
                    + (" and an omitted argument is left empty)" if name == "default" else ")")
                )
                out.found.append((f"{path}.{name}", message, "warning"))
    items = param.get("items")
    if isinstance(items, dict):
        extra = sorted(str(k) for k in items if k != "type")
        if extra:
            message = f"items: only type is used; {', '.join(extra)} ignored"
            out.found.append((f"{path}.items", message, "warning"))
    return param


def _prepare_parameters(value: Any, out: Prepared) -> None:
    if isinstance(value, list):
        value = _parameter_list(value, out)
    elif not isinstance(value, dict):
        message = (
            '"parameters" must be a mapping of name → definition '
            "(or a list of {name, type, ...} entries)"
        )
        out.found.append(("parameters", message, "error"))
        out.parameters_unknown = True
        del out.data["parameters"]
        return
    params: dict[str, Any] = {}
    for key, raw in value.items():
        shown = str(key)
        out.declared.add(shown)
        path = f"parameters.{shown}"
        if not isinstance(key, str) or not NAME_PATTERN.fullmatch(key):
            message = f'Invalid parameter name "{shown}" — {NAME_RULE}'
            out.found.append((path, message, "error"))
        elif not isinstance(raw, dict):
            message = f'Parameter "{shown}" must be a mapping with at least a "type" field'
            out.found.append((path, message, "error"))
        else:
            # Parameter names repeat across tools (path, query...): one string each, shared
            # by every tool's schema (and stored once in the parse cache).
            params[sys.intern(key)] = _prepare_param(key, raw, out)
    out.data["parameters"] = params


def prepare(data: dict[Any, Any]) -> Prepared:
    """Check what structuring cannot, and shape ``data`` (a copy) for the converter."""
    out = Prepared(data={})
    for key, value in data.items():
        if not isinstance(key, str) or key not in TOP_KEYS:
            if key == "subscribe":
                message = "Nanocoder's event triggers are not supported by tooldrop (ignored)"
                out.found.append(("subscribe", message, "info"))
            else:
                out.found.append(_unknown_key("", key, TOP_KEYS))
        elif value is None and key in _NULL_IS_DEFAULT:
            continue
        else:
            out.data[key] = value
    out.data.setdefault("name", None)
    out.data.setdefault("description", None)
    if "parameters" in out.data:
        _prepare_parameters(out.data["parameters"], out)
    if "env" in out.data:
        _prepare_env(out.data["env"], out)
    return out
