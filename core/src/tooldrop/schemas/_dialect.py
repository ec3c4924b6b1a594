"""The JSON Schema dialects tooldrop validates with, on ``jsonschema``'s complete validators.

A tool's schema is read as its ``$schema`` says: JSON Schema 2020-12 (also when there is no
``$schema``) or draft-07. Anything else is refused when the tool loads (:func:`schema_problem`).
Each dialect is ``jsonschema``'s own validator class with these changes:

- every place a regex is used (``pattern``, ``patternProperties``, and the
  ``additionalProperties`` / ``unevaluatedProperties`` that depend on it) runs ECMA-262 on
  RE2 (:mod:`tooldrop.schemas._pattern`), never Python's backtracking ``re``;
- a sub-schema that declares its own ``$schema`` (an embedded resource) gets *our* class for
  that dialect, not jsonschema's stock one, so it keeps the ECMA-262 patterns;
- ``multipleOf`` answers exactly for huge numbers and :class:`~decimal.Decimal` values, where
  jsonschema's float arithmetic would raise;
- a finite integral :class:`~decimal.Decimal` is an ``integer``, as JSON Schema defines it.
"""

from __future__ import annotations

import contextlib
import decimal
import math
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from ._pattern import compile_pattern

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

__all__ = [
    "DIALECTS",
    "UnsupportedDialect",
    "bad_number",
    "dialect_of",
    "find_additional",
    "new_validator",
    "validator_class",
]

#: The dialects tooldrop validates, by name, as messages and docs name them.
DIALECTS = ("2020-12", "draft-07")
_DEFAULT = "2020-12"

_classes: dict[str, Any] = {}
_by_stock: dict[Any, Any] = {}


def _search(pattern: str, text: str) -> bool:
    return compile_pattern(pattern).search(text) is not None


def find_additional(instance: Mapping[str, Any], schema: Mapping[str, Any]) -> Iterator[str]:
    """The keys of ``instance`` that neither ``properties`` nor ``patternProperties`` cover."""
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    for name in instance:
        if name in properties or any(_search(p, name) for p in patterns):
            continue
        yield name


def _pattern(validator: Any, patrn: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not _search(patrn, instance):
        yield ValidationError(f"{instance!r} does not match {patrn!r}")


def _pattern_properties(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for patrn, subschema in value.items():
        for key, item in instance.items():
            if _search(patrn, key):
                yield from validator.descend(item, subschema, path=key, schema_path=patrn)


def _additional_properties(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    extras = list(find_additional(instance, schema))
    if validator.is_type(value, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], value, path=extra)
    elif not value and extras:
        shown = ", ".join(repr(extra) for extra in sorted(extras, key=str))
        yield ValidationError(f"Additional properties are not allowed ({shown} unexpected)")


def _evaluated_keys(validator: Any, instance: Any, schema: Any) -> set[str]:
    """The keys of ``instance`` that ``schema`` evaluates: jsonschema's own walk
    (``find_evaluated_property_keys_by_schema``), with our regexes."""
    if not isinstance(schema, Mapping):
        return set()
    keys: set[str] = set()
    for ref_keyword in ("$ref", "$dynamicRef"):
        ref = schema.get(ref_keyword)
        if ref is not None:
            resolved = validator._resolver.lookup(ref)
            child = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
            keys |= _evaluated_keys(child, instance, resolved.contents)
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        keys |= properties.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        subschema = schema.get(keyword)
        if subschema is not None:
            keys |= {
                key
                for key, value in instance.items()
                if next(validator.descend(value, subschema), None) is None
            }
    for patrn in schema.get("patternProperties", {}):
        keys |= {key for key in instance if _search(patrn, key)}
    for name, subschema in schema.get("dependentSchemas", {}).items():
        if name in instance:
            keys |= _evaluated_keys(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if next(validator.descend(instance, subschema), None) is None:
                keys |= _evaluated_keys(validator, instance, subschema)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            keys |= _evaluated_keys(validator, instance, schema["if"])
            if "then" in schema:
                keys |= _evaluated_keys(validator, instance, schema["then"])
        elif "else" in schema:
            keys |= _evaluated_keys(validator, instance, schema["else"])
    return keys


def _unevaluated_properties(
    validator: Any, value: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    evaluated = _evaluated_keys(validator, instance, schema)
    failing = [
        key
        for key in instance
        if key not in evaluated
        and next(validator.descend(instance[key], value, path=key, schema_path=key), None)
        is not None
    ]
    if failing:
        shown = ", ".join(repr(key) for key in sorted(failing, key=str))
        yield ValidationError(f"Unevaluated properties are not allowed ({shown} unexpected)")


def _exact(number: Any) -> Fraction:
    return Fraction(number)


def _multiple_of(validator: Any, divisor: Any, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema import _keywords
    from jsonschema.exceptions import ValidationError

    # types-jsonschema stubs it as returning None; it is a generator of errors.
    stock: Callable[..., Iterator[Any]] = _keywords.multipleOf  # type: ignore[assignment]
    try:
        yield from stock(validator, divisor, instance, schema)
    except (OverflowError, TypeError, decimal.InvalidOperation):
        # A huge int against a float, or a Decimal against a float: exact arithmetic.
        if (_exact(instance) / _exact(divisor)).denominator != 1:
            yield ValidationError(f"{instance!r} is not a multiple of {divisor}")


def _is_integer(checker: Any, instance: Any) -> bool:
    if isinstance(instance, bool):
        return False
    if isinstance(instance, int):
        return True
    if isinstance(instance, float):
        return instance.is_integer()
    if isinstance(instance, decimal.Decimal):
        return instance.is_finite() and instance == instance.to_integral_value()
    return False


def _make_class(stock: Any, *, unevaluated: bool) -> Any:
    from jsonschema import validators

    keywords: dict[str, Callable[..., Any]] = {
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties,
        "multipleOf": _multiple_of,
    }
    if unevaluated:
        keywords["unevaluatedProperties"] = _unevaluated_properties
    checker = stock.TYPE_CHECKER.redefine("integer", _is_integer)
    # extend() is unannotated in types-jsonschema.
    cls = validators.extend(stock, keywords, type_checker=checker)  # type: ignore[no-untyped-call]
    init_fields = [(f.name, f.alias) for f in attrs.fields(cls) if f.init]

    def evolve(self: Any, **changes: Any) -> Any:
        # jsonschema's evolve() picks the class for a sub-schema's own $schema from its global
        # registry, which holds the stock classes; map them to ours.
        new_schema = changes.setdefault("schema", self.schema)
        target = type(self)
        if isinstance(new_schema, Mapping) and "$schema" in new_schema:
            found = validators.validator_for(new_schema, default=target)
            target = _by_stock.get(found, target)
        for name, alias in init_fields:
            if alias not in changes:
                changes[alias] = getattr(self, name)
        return target(**changes)

    cls.evolve = evolve
    return cls


def _load_classes() -> None:
    from jsonschema import Draft7Validator, Draft202012Validator

    _classes["2020-12"] = _make_class(Draft202012Validator, unevaluated=True)
    _classes["draft-07"] = _make_class(Draft7Validator, unevaluated=False)
    _by_stock[Draft202012Validator] = _classes["2020-12"]
    _by_stock[Draft7Validator] = _classes["draft-07"]


class UnsupportedDialect(ValueError):
    """A schema whose ``$schema`` is neither 2020-12 nor draft-07."""


class _Unknown:
    """The class validator_for() answers for a ``$schema`` that is not in its registry."""


def dialect_of(schema: Mapping[str, Any]) -> str | None:
    """``"2020-12"`` / ``"draft-07"`` for a schema's ``$schema`` (2020-12 without one)."""
    if "$schema" not in schema:
        return _DEFAULT
    from jsonschema import Draft7Validator, Draft202012Validator, validators

    declared = schema["$schema"]
    if not isinstance(declared, str):
        return None
    found: object = validators.validator_for(
        {"$schema": declared},
        default=_Unknown,  # type: ignore[arg-type]
    )
    if found is Draft202012Validator:
        return "2020-12"
    if found is Draft7Validator:
        return "draft-07"
    return None


def validator_class(schema: Mapping[str, Any]) -> Any:
    """Our validator class for ``schema``'s dialect (2020-12 when it is not one we know)."""
    if not _classes:
        _load_classes()
    return _classes[dialect_of(schema) or _DEFAULT]


def bad_number(value: object, path: str = "") -> str | None:
    """The path of the first NaN or infinity in an argument value (JSON has neither)."""
    if isinstance(value, float):
        return None if math.isfinite(value) else path
    if isinstance(value, decimal.Decimal):
        return None if value.is_finite() else path
    if isinstance(value, Mapping):
        for key, item in value.items():
            found = bad_number(item, f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = bad_number(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def new_validator(schema: Mapping[str, Any]) -> Validator:
    """A validator for ``schema`` in its own dialect.

    Its ``$ref`` resolve within the schema (every embedded ``$id`` and anchor, found up front)
    and to the JSON Schema meta-schemas only: with its default registry, jsonschema would
    fetch any ``http(s)`` reference from the network while validating a call.
    """
    import referencing.jsonschema
    from referencing import Registry

    if dialect_of(schema) is None:
        # A tool registered by a plugin skips the load-time check; never guess its dialect.
        raise UnsupportedDialect(f"$schema {schema.get('$schema')!r} is not supported")
    specification = (
        referencing.jsonschema.DRAFT7
        if dialect_of(schema) == "draft-07"
        else referencing.jsonschema.DRAFT202012
    )
    resource = specification.create_resource(schema)
    registry: Registry[Any] = Registry().with_resource(resource.id() or "", resource)
    # referencing cannot crawl some draft-07 shapes (array "dependencies"): then lazily.
    with contextlib.suppress(AttributeError, TypeError):
        registry = registry.crawl()
    validator: Validator = validator_class(schema)(schema, registry=registry)
    return validator
