"""Argument validation against a tool's JSON Schema, with messages in the reference style.

``jsonschema`` is imported on the first validation, not when tooldrop is imported: listing
tools never needs it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._convert import json_type_name
from ._dialect import UnsupportedDialect, bad_number, find_additional, new_validator
from ._fastcheck import Check, compile_check
from ._pattern import PatternError

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

    from .._model import ToolSpec

__all__ = ["apply_defaults", "drop_null_optionals", "validate_args"]

_MAX_CACHED = 4096
# id(schema) -> (schema, fast check or None). The schema is kept so its id cannot be reused.
_fast_checks: dict[int, tuple[Mapping[str, Any], Check | None]] = {}
# id(schema) -> (schema, validator), for the slow path that explains what is wrong.
_validators: dict[int, tuple[Mapping[str, Any], Validator]] = {}


def _validator_for(schema: Mapping[str, Any]) -> Validator:
    cached = _validators.get(id(schema))
    if cached is not None and cached[0] is schema:
        return cached[1]
    if len(_validators) >= _MAX_CACHED:
        _validators.clear()
    validator = new_validator(schema)
    _validators[id(schema)] = (schema, validator)
    return validator


def _fast_check_for(schema: Mapping[str, Any]) -> Check | None:
    cached = _fast_checks.get(id(schema))
    if cached is not None and cached[0] is schema:
        return cached[1]
    if len(_fast_checks) >= _MAX_CACHED:
        _fast_checks.clear()
    check = compile_check(schema)
    _fast_checks[id(schema)] = (schema, check)
    return check


def _admits_null(schema: object) -> bool:
    if not isinstance(schema, Mapping):
        return True
    kind = schema.get("type")
    if kind is None:
        return True
    return kind == "null" or (isinstance(kind, list) and "null" in kind)


def drop_null_optionals(spec: ToolSpec, args: Mapping[str, Any]) -> dict[str, Any]:
    """Treat ``null`` as "not given" for parameters whose schema does not allow null.

    Models often send ``null`` for an optional parameter they mean to leave out (OpenAI's strict
    mode even asks for it); the reference treats such a value as absent, and so do we.
    """
    props = spec.parameters
    return {
        key: value
        for key, value in args.items()
        if value is not None or key not in props or _admits_null(props[key])
    }


def apply_defaults(spec: ToolSpec, args: Mapping[str, Any]) -> dict[str, Any]:
    """Fill in each omitted parameter that declares a ``default``."""
    filled = dict(args)
    for key, prop in spec.parameters.items():
        if key not in filled and isinstance(prop, Mapping) and "default" in prop:
            default = prop["default"]
            filled[key] = copy.deepcopy(default) if isinstance(default, list | dict) else default
    return filled


def _param_path(error: ValidationError) -> str:
    parts = list(error.absolute_path)
    if not parts:
        return ""
    text = str(parts[0])
    for part in parts[1:]:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def _message(error: ValidationError, declared: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(parameter, message)`` pairs for one jsonschema error, in the reference wording."""
    kind = error.validator
    value: Any = error.validator_value
    where = _param_path(error)
    name = f'⚒ Parameter "{where}"'
    if kind == "required" and isinstance(error.instance, Mapping):
        missing = [key for key in value if key not in error.instance]
        prefix = f"{where}." if where else ""
        return [(key, f"⚒ Missing required parameter: {prefix}{key}") for key in missing]
    if kind == "additionalProperties" and isinstance(error.instance, Mapping) and not where:
        # The keys this (sub-)schema does not cover: with allOf or $ref, that is not
        # necessarily the root's properties.
        schema = error.schema if isinstance(error.schema, Mapping) else {}
        extra = list(find_additional(error.instance, schema))
        own = schema.get("properties", {})
        accepted = ", ".join(own if isinstance(own, Mapping) else ()) or "no parameters"
        return [
            (key, f"⚒ Unknown parameter: {key} (this tool accepts: {accepted})") for key in extra
        ]
    if not where:
        if kind == "type":
            got = json_type_name(error.instance)
            return [("", f"⚒ Arguments must be a JSON object, got {got}")]
        return [("", f"⚒ Invalid arguments: {error.message}")]
    if kind == "type":
        expected = value if isinstance(value, str) else " or ".join(value)
        text = f"{name} has wrong type — expected {expected}, got {json_type_name(error.instance)}"
    elif kind == "enum":
        options = ", ".join(_shown(option) for option in value)
        text = f"{name} must be one of: {options}"
    elif kind == "const":
        text = f"{name} must be {_shown(value)}"
    elif kind == "minLength":
        text = f"{name} is too short (min {value} chars)"
    elif kind == "maxLength":
        text = f"{name} is too long (max {value} chars)"
    elif kind == "pattern":
        text = f"{name} does not match pattern {value}"
    elif kind == "minimum":
        text = f"{name} is below minimum ({_shown(value)})"
    elif kind == "maximum":
        text = f"{name} is above maximum ({_shown(value)})"
    elif kind == "minItems":
        text = f"{name} has too few items (min {value})"
    elif kind == "maxItems":
        text = f"{name} has too many items (max {value})"
    else:
        text = f"{name} is invalid: {error.message}"
    return [(where.split("[")[0].split(".")[0], text)]


def _shown(value: Any) -> str:
    """A schema value as the reference's messages show it: JSON, with numbers as JavaScript
    prints them (YAML's ``1e3`` and ``1.0`` are the number 1000 and 1, not ``1000.0``)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return json.dumps(value, ensure_ascii=False)


def _explain(errors: list[ValidationError], declared: Mapping[str, Any]) -> list[str]:
    found: list[tuple[str, str]] = []
    for error in errors:
        found.extend(_message(error, declared))
    order = {key: index for index, key in enumerate(declared)}
    found.sort(key=lambda item: order.get(item[0], len(order)))
    messages: list[str] = []
    for _, message in found:
        if message not in messages:
            messages.append(message)
    if not messages:
        # The validator said no; a message we cannot phrase must not turn that into a yes.
        from jsonschema.exceptions import best_match

        best = best_match(errors)
        where = _param_path(best) if best is not None else ""
        detail = best.message if best is not None else "they do not match the tool's schema"
        messages.append(
            f'⚒ Parameter "{where}" is invalid: {detail}'
            if where
            else f"⚒ Invalid arguments: {detail}"
        )
    return messages


def validate_args(spec: ToolSpec, args: object) -> list[str]:
    """Every problem with ``args`` against ``spec.input_schema``, in parameter order.

    ``jsonschema``'s complete validator decides (or the fast check, which only ever says yes
    where it is proven to agree); the messages only explain its "no".
    """
    if not isinstance(args, Mapping):
        return [f"⚒ Arguments must be a JSON object, got {json_type_name(args)}"]
    where = bad_number(args)
    if where is not None:
        return [f'⚒ Parameter "{where}" must be a finite number (JSON has no NaN or Infinity)']
    try:
        fast = _fast_check_for(spec.input_schema)
        if fast is not None and fast(args):
            return []  # the common case, without building jsonschema's error objects
        errors = list(_validator_for(spec.input_schema).iter_errors(args))
    except PatternError as exc:
        return [f"⚒ This tool's schema has a pattern that cannot be used: {exc}"]
    except UnsupportedDialect as exc:
        return [f"⚒ This tool's schema cannot be checked: {exc} (2020-12 and draft-07 are)"]
    except UnicodeEncodeError:
        return ["⚒ Arguments contain an unpaired surrogate; text must be valid Unicode"]
    except RecursionError:
        return ["⚒ Arguments or schema nest too deeply to be checked"]
    except Exception as exc:
        from referencing.exceptions import Unresolvable

        if isinstance(exc, Unresolvable) or isinstance(exc.__cause__, Unresolvable):
            return [f"⚒ This tool's schema has a $ref that cannot be resolved: {exc}"]
        raise
    if not errors:
        return []
    return _explain(errors, spec.parameters)
