"""The frontmatter's fields: frozen attrs classes, structured with tooldrop's shared converter.

Attribute names are the YAML keys (``minLength``, ``read_only``), so a problem's field path is
what the file says. Every rule of the reference's field table is a per-field structure hook
raising ``ValueError(message)``; cattrs collects the failures of every field in one pass,
so a file with three mistakes gets three problems, not one at a time. (attrs validators stop
at the first failure and only run once every field has structured, which is why the rules
live in hooks.) Messages keep the reference's wording and name the field they are about.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable
from typing import Any, Literal

from attrs import Factory, frozen
from cattrs.gen import make_dict_structure_fn, override

from tooldrop import PatternError, compile_pattern, converter, json_type_name

from ._frontmatter import JS_WHITESPACE

__all__ = [
    "ABSENT",
    "MAX_PATTERN",
    "MAX_TIMEOUT_MS",
    "NAME_PATTERN",
    "PARAM_KEYS",
    "PARAM_TYPES",
    "TOP_KEYS",
    "Frontmatter",
    "Items",
    "Param",
    "field_converter",
]

NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]*")
NAME_RULE = "must match /^[a-z][a-z0-9_]*$/"
PARAM_TYPES = ("string", "number", "integer", "boolean", "array")
APPROVALS = ("never", "always", "destructive")
SHELLS = ("bash", "sh")
MAX_TIMEOUT_MS = 300_000
MAX_PATTERN = 1024
# YAML 1.1 booleans that YAML 1.2 (and so the reference) reads as text.
_YAML11_BOOLS = frozenset({"yes", "no", "on", "off", "y", "n"})


class _Absent:
    """``default`` was not given (``default: null`` is a default of null)."""

    def __repr__(self) -> str:
        return "ABSENT"

    def __reduce__(self) -> str:
        return "ABSENT"  # pickles as the module's one instance


ABSENT: Any = _Absent()


@frozen(kw_only=True)
class Items:
    """``items:`` of an array parameter; only the element type is used."""

    type: str


@frozen(kw_only=True)
class Param:
    """One entry of ``parameters:``."""

    type: str
    description: str | None = None
    required: bool = False
    default: Any = ABSENT
    enum: list[Any] | None = None
    # camelCase, as the YAML keys are: field paths in problems then match the file.
    pattern: str | None = None
    minLength: int | None = None
    maxLength: int | None = None
    min: float | None = None
    max: float | None = None
    items: Items | None = None


@frozen(kw_only=True)
class Frontmatter:
    """The frontmatter of a markdown tool, defaults applied as the reference applies them."""

    name: str
    description: str
    parameters: dict[str, Param] = Factory(dict)
    approval: Literal["never", "always", "destructive"] = "always"
    #: ``None`` means "approval == never", resolved when the spec is built.
    read_only: bool | None = None
    timeout_ms: int = 30_000
    cwd: str | None = None
    env: dict[str, str] = Factory(dict)
    shell: Literal["bash", "sh"] | None = None
    #: Asks a sandbox for the network (tooldrop's own field; the reference has no sandbox).
    network: bool = False
    #: Paths inside the project a sandboxed run may write, relative to the project root.
    writable: tuple[str, ...] = ()
    #: Leave background processes running after the call (tooldrop's own field).
    keep_background: bool = False


#: The keys each class reads, for the unknown-key warnings.
PARAM_KEYS = frozenset(a.name for a in Param.__attrs_attrs__)
TOP_KEYS = frozenset(a.name for a in Frontmatter.__attrs_attrs__)


def _got(value: object) -> str:
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f'got "{shown}"'
    if isinstance(value, bool | int | float):
        return f"got {value!r}".replace("True", "true").replace("False", "false")
    return f"got {json_type_name(value)}"


def _finite(value: object, field: str) -> int | float:
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        hint = ""
        if isinstance(value, str) and re.fullmatch(r"[-+]?[0-9][0-9_]*", value):
            hint = f"; YAML 1.2 reads {value} as text, write {value.replace('_', '')}"
        raise ValueError(f"{field} must be a finite number ({_got(value)}{hint})")
    return value


def _integer(value: object, field: str) -> int:
    number = _finite(value, field)
    if isinstance(number, float):
        # YAML's 30000.0 is the JavaScript number 30000, an integer to the reference too.
        if not number.is_integer():
            raise ValueError(f"{field} must be an integer ({_got(value)})")
        return int(number)
    return number


def _boolean(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        hint = ""
        if isinstance(value, str) and value.lower() in _YAML11_BOOLS:
            hint = f"; YAML 1.2 reads {value} as text, write true or false"
        raise ValueError(f"{field} must be a boolean ({_got(value)}{hint})")
    return value


def _text(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{field} must be a string ({_got(value)})")
    return value


def _did_you_mean(value: object, options: tuple[str, ...]) -> str:
    """``; did you mean "string"?`` for ``strin`` or ``String``, else ``""``."""
    if not isinstance(value, str):
        return ""
    folded = {option.lower(): option for option in options}
    close = difflib.get_close_matches(value.lower(), folded, n=1, cutoff=0.7)
    return f'; did you mean "{folded[close[0]]}"?' if close else ""


def _choice(value: object, message: str, options: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in options:
        text = f"{message} — expected one of: {', '.join(options)} ({_got(value)})"
        raise ValueError(text + _did_you_mean(value, options))
    return value


# -- top-level fields -------------------------------------------------------------------


def _name(value: object, _: type) -> str:
    if isinstance(value, str) and NAME_PATTERN.fullmatch(value):
        return value
    message = f'Invalid or missing "name" — {NAME_RULE} (snake_case starting with a letter)'
    if isinstance(value, str):
        suggestion = re.sub(r"[^a-z0-9_]", "_", value.lower())
        if NAME_PATTERN.fullmatch(suggestion):
            message += f'; try "{suggestion}"'
    raise ValueError(message)


def _description(value: object, _: type) -> str:
    # Trimmed as JavaScript trims, as the reference stores it.
    text = value.strip(JS_WHITESPACE) if isinstance(value, str) else ""
    if not text:
        shown = "" if value is None or value == "" else f" (it must be text, {_got(value)})"
        raise ValueError(f'Missing "description"{shown}')
    return text


def _timeout(value: object, _: type) -> int:
    number = _integer(value, "timeout_ms")
    if number < 1:
        raise ValueError(f'"timeout_ms" must be positive ({_got(value)})')
    if number > MAX_TIMEOUT_MS:
        raise ValueError(f'"timeout_ms" exceeds maximum of {MAX_TIMEOUT_MS} ({_got(value)})')
    return number


def _writable_path(value: object, index: int) -> str:
    where = f'"writable" entry {index + 1}'
    if not isinstance(value, str):
        raise ValueError(f"{where} must be a path inside the project ({_got(value)})")
    path = value.strip().rstrip("/")
    if "\0" in path:
        raise ValueError(f"{where} contains a NUL character")
    if not path or path == ".":
        raise ValueError(
            f"{where} names the whole project ({_got(value)}); a tool that writes the "
            "project is not read-only: drop read_only instead"
        )
    if path.startswith(("/", "~", "\\")) or re.match(r"[A-Za-z]:", path):
        raise ValueError(
            f"{where} must be relative to the project root ({_got(value)}); a sandboxed "
            "tool never writes outside the project"
        )
    if ".." in re.split(r"[/\\]", path):
        raise ValueError(f"{where} must stay inside the project ({_got(value)}); drop the ..")
    return path


def _writable(value: object, _: type) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]  # one path may be written without the list
    if not isinstance(value, list):
        raise ValueError(f'"writable" must be a list of paths inside the project ({_got(value)})')
    return tuple(dict.fromkeys(_writable_path(item, i) for i, item in enumerate(value)))


# -- parameter fields -------------------------------------------------------------------


def _param_type(value: object, _: type) -> str:
    if value is ABSENT:
        raise ValueError(f"type is missing — expected one of: {', '.join(PARAM_TYPES)}")
    return _choice(value, "invalid type", PARAM_TYPES)


def _pattern(value: object, _: type) -> str:
    text = _text(value, "pattern")
    if len(text) > MAX_PATTERN:
        raise ValueError(f"pattern is too long (max {MAX_PATTERN} chars, got {len(text)})")
    try:
        compile_pattern(text)
    except (PatternError, RecursionError) as exc:
        raise ValueError(f"pattern is not a valid regular expression ({exc})") from None
    return text


def _enum(value: object, _: type) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"enum must be an array ({_got(value)})")
    return value


def _items(value: object, _: type) -> Items:
    if not isinstance(value, dict):
        raise ValueError(f'items must be a mapping with a "type" field ({_got(value)})')
    kind = value.get("type", ABSENT)
    if kind is ABSENT or kind not in PARAM_TYPES:
        shown = "missing" if kind is ABSENT else _got(kind)
        expected = ", ".join(PARAM_TYPES)
        hint = "" if kind is ABSENT else _did_you_mean(kind, PARAM_TYPES)
        raise ValueError(f"items.type is invalid — expected one of: {expected} ({shown}){hint}")
    return Items(type=kind)


# -- hooks ------------------------------------------------------------------------------
#
# Structuring runs for every tool file at every cold discovery, so each hook lets the usual
# value of its field through after one exact type test, and hands anything else to the
# rule's function above (which also takes subclasses, and says what is wrong). Values from
# a fixed set come back as the set's own string: equal, and shared by every tool.


def _text_hook(field: str) -> Any:
    def structure(value: object, _: type) -> str:
        return value if value.__class__ is str else _text(value, field)

    return structure


def _boolean_hook(field: str) -> Any:
    def structure(value: object, _: type) -> bool:
        return value if value.__class__ is bool else _boolean(value, field)

    return structure


def _integer_hook(field: str) -> Any:
    def structure(value: object, _: type) -> int:
        return value if value.__class__ is int else _integer(value, field)

    return structure


def _finite_hook(field: str) -> Any:
    def structure(value: object, _: type) -> int | float:
        return value if value.__class__ is int else _finite(value, field)

    return structure


def _choice_hook(message: str, options: tuple[str, ...]) -> Callable[[object, type], str]:
    canonical = {option: option for option in options}

    def structure(value: object, _: type) -> str:
        if value.__class__ is str and value in canonical:
            return canonical[value]
        return _choice(value, message, options)

    return structure


_param_kind = _choice_hook("invalid type", PARAM_TYPES)


def _param_type_hook(value: object, _: type) -> str:
    if value is ABSENT:
        return _param_type(value, _)
    return _param_kind(value, _)


def _timeout_hook(value: object, _: type) -> int:
    if value.__class__ is int and 1 <= value <= MAX_TIMEOUT_MS:
        return value
    return _timeout(value, _)


def _identity(value: object, _: type) -> object:
    return value


def _build_converter() -> Any:
    conv = converter.copy()
    conv.register_structure_hook(
        Param,
        make_dict_structure_fn(
            Param,
            conv,
            # Unknown keys were taken out (as warnings) before structuring.
            _cattrs_forbid_extra_keys=False,
            type=override(struct_hook=_param_type_hook),
            description=override(struct_hook=_text_hook("description")),
            required=override(struct_hook=_boolean_hook("required")),
            default=override(struct_hook=_identity),
            enum=override(struct_hook=_enum),
            pattern=override(struct_hook=_pattern),
            minLength=override(struct_hook=_integer_hook("minLength")),
            maxLength=override(struct_hook=_integer_hook("maxLength")),
            min=override(struct_hook=_finite_hook("min")),
            max=override(struct_hook=_finite_hook("max")),
            items=override(struct_hook=_items),
        ),
    )
    conv.register_structure_hook(
        Frontmatter,
        make_dict_structure_fn(
            Frontmatter,
            conv,
            _cattrs_forbid_extra_keys=False,
            name=override(struct_hook=_name),
            description=override(struct_hook=_description),
            approval=override(struct_hook=_choice_hook('Invalid "approval" value', APPROVALS)),
            read_only=override(struct_hook=_boolean_hook('"read_only"')),
            timeout_ms=override(struct_hook=_timeout_hook),
            cwd=override(struct_hook=_text_hook("cwd")),
            shell=override(struct_hook=_choice_hook('Invalid "shell"', SHELLS)),
            network=override(struct_hook=_boolean_hook('"network"')),
            writable=override(struct_hook=_writable),
            keep_background=override(struct_hook=_boolean_hook('"keep_background"')),
        ),
    )
    return conv


#: tooldrop's shared converter plus this plugin's hooks (a copy, so nothing leaks out).
field_converter = _build_converter()
