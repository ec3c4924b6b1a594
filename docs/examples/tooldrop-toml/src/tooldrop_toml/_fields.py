"""The fields of a TOML tool file, as frozen attrs classes structured by tooldrop's converter.

Attribute names are the TOML keys, so a problem's field path (``parameters.count.minimum``) is
what the file says. Rules that need a message of their own are per-field structure hooks
raising ``ValueError(message)``; :func:`tooldrop.problems_from_error` turns each into a problem
on that field.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import cattrs
from attrs import Factory, frozen
from cattrs.gen import make_dict_structure_fn, override

from tooldrop import compile_pattern, converter

__all__ = [
    "MAX_TIMEOUT_MS",
    "NAME",
    "PARAM_KEYS",
    "TOP_KEYS",
    "Items",
    "Param",
    "TomlTool",
    "toml_converter",
]

NAME = re.compile(r"[a-z][a-z0-9_]*")
MAX_TIMEOUT_MS = 300_000
MAX_PATTERN = 1024

ParamType = Literal["string", "number", "integer", "boolean", "array"]
ItemType = Literal["string", "number", "integer", "boolean"]


def _name(value: object, _: type) -> str:
    text = converter.structure(value, str)
    if not NAME.fullmatch(text):
        raise ValueError("must match ^[a-z][a-z0-9_]*$ (snake_case starting with a letter)")
    return text


def _description(value: object, _: type) -> str:
    text = converter.structure(value, str)
    if not text.strip():
        raise ValueError("must not be empty")
    return text.strip()


def _command(value: object, _: type) -> list[str]:
    if not isinstance(value, list) or not value:
        raise ValueError('must be a non-empty list of strings: command = ["git", "log"]')
    for item in value:
        if not isinstance(item, str):
            raise ValueError(f"every element must be a string (quote {item!r})")
    return value


def _timeout(value: object, _: type) -> int:
    number = converter.structure(value, int)
    if not 1 <= number <= MAX_TIMEOUT_MS:
        raise ValueError(f"must be between 1 and {MAX_TIMEOUT_MS} (got {number})")
    return number


def _pattern(value: object, _: type) -> str:
    text = converter.structure(value, str)
    if len(text) > MAX_PATTERN:
        raise ValueError(f"is too long (max {MAX_PATTERN} characters)")
    try:
        compile_pattern(text)
    except (re.error, RecursionError, OverflowError) as exc:
        raise ValueError(f"is not a valid regular expression ({exc})") from None
    return text


@frozen(kw_only=True)
class Items:
    """``items`` of an array parameter: the type of each element."""

    type: ItemType


@frozen(kw_only=True)
class Param:
    """One ``[parameters.<name>]`` table: a JSON Schema property, with ``required`` beside it."""

    type: ParamType
    description: str | None = None
    required: bool = False
    #: TOML has no null, so ``None`` always means "no default".
    default: Any = None
    enum: list[Any] | None = None
    pattern: str | None = None
    minLength: int | None = None
    maxLength: int | None = None
    minimum: float | None = None
    maximum: float | None = None
    items: Items | None = None


@frozen(kw_only=True)
class TomlTool:
    """A whole TOML tool file."""

    name: str
    description: str
    command: list[str]
    parameters: dict[str, Param] = Factory(dict)
    approval: Literal["never", "always", "destructive"] = "always"
    #: ``None``: true exactly when ``approval`` is ``never``.
    read_only: bool | None = None
    timeout_ms: int = 30_000
    cwd: str | None = None
    env: dict[str, str] = Factory(dict)
    #: Leave what the command starts in the background (a daemon it forks) running afterwards.
    keep_background: bool = False


def _build_converter() -> cattrs.Converter:
    conv = converter.copy()
    conv.register_structure_hook(
        Param, make_dict_structure_fn(Param, conv, pattern=override(struct_hook=_pattern))
    )
    conv.register_structure_hook(
        TomlTool,
        make_dict_structure_fn(
            TomlTool,
            conv,
            name=override(struct_hook=_name),
            description=override(struct_hook=_description),
            command=override(struct_hook=_command),
            timeout_ms=override(struct_hook=_timeout),
        ),
    )
    return conv


#: tooldrop's shared converter plus this format's rules (a copy: nothing leaks to other plugins).
#: Each rule is a per-field hook, so one pass reports every field that is wrong, not the first.
toml_converter = _build_converter()

TOP_KEYS = frozenset(a.name for a in TomlTool.__attrs_attrs__)
PARAM_KEYS = frozenset(a.name for a in Param.__attrs_attrs__)
