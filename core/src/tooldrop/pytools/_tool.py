"""Python tools as values: :class:`Tool`, the :func:`tool` decorator, and :func:`to_spec`.

One normaliser for every way of writing a Python tool, so personal tool files and pip tool
packs (``tooldrop_register_tools``) accept the same shapes:

- a :class:`Tool`;
- a function decorated with :func:`tool` (schema and description from its signature and
  docstring);
- a dict with the keys of a Copse tool: ``name``, ``description``, ``inputSchema`` /
  ``input_schema`` / ``parameters``, ``execute``, and optionally ``approval``, ``read_only`` /
  ``readOnly``, ``requires_approval`` / ``requiresApproval``, ``timeout_ms`` / ``timeoutMs``;
- a :class:`ToolSpec`, already normalised.
"""

from __future__ import annotations

import collections.abc as cabc
import hashlib
import inspect
import json
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, overload

import attrs
from attrs import evolve, field, frozen

from .._convert import get_converter, problems_from_error
from .._errors import ToolDropError
from .._model import Approval, Origin, Problem, ToolSpec
from ._docstring import parse_docstring
from ._signature import ArgsOnly, FunctionCall, bind_execute, function_schema
from ._toolcheck import (
    DEFAULT_TIMEOUT_MS,
    MAX_TIMEOUT_MS,
    NAME_PATTERN,
    check_approval,
    check_bool,
    check_description,
    check_execute,
    check_name,
    check_timeout,
    input_schema,
    strip,
)
from ._typeschema import SchemaError

__all__ = [
    "DEFAULT_TIMEOUT_MS",
    "MAX_TIMEOUT_MS",
    "NAME_PATTERN",
    "Tool",
    "ToolDefinitionError",
    "as_tool",
    "to_spec",
    "tool",
]

F = TypeVar("F", bound=Callable[..., Any])


class ToolDefinitionError(ToolDropError, ValueError):
    """A value is not a valid tool; :attr:`problems` says why, one field at a time."""

    def __init__(self, problems: typing.Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(p.format() for p in self.problems))


# -- Tool -------------------------------------------------------------------------------


def _read_only_default(value: object, self: Any) -> object:
    # Read-only unless said otherwise when the tool never asks: the file formats' rule, so a
    # policy that trusts read_only sees the same thing whatever language a tool is written in.
    return self.approval == "never" if value is None else value


@frozen(kw_only=True)
class Tool:
    """A tool implemented by a Python callable ``execute(args, cancel)``, sync or async.

    :param str name: letters, digits and underscores; hosts expose it as ``custom__<name>``.
    :param str description: what the tool does, for the model.
    :param Callable execute: called with the validated arguments (a dict) and, when it takes a
        second parameter, the call's :class:`CancelToken`. May be ``async``. Its result becomes the
        text the model sees (``str`` verbatim, ``None`` → ``""``, other JSON values as JSON).
    :param Mapping input_schema: a JSON Schema for the arguments (``type: object``). When left
        out it is derived from ``execute``'s ``args`` annotation (a TypedDict or dataclass), else
        any object is accepted.
    :param Approval approval: ``always`` (default: every call asks, unless always-allowed),
        ``destructive`` or ``never``.
    :param bool read_only: the tool changes nothing (offered in ``plan`` mode with ``never``).
        Left out, it is ``approval == "never"``: the rule of markdown tool files.
    :param bool requires_approval: ask on every call, in every mode; never remembered.
    :param int timeout_ms: the call fails with an error after this long (1 to 300000).
    """

    name: str = field(converter=strip, validator=check_name)
    description: str = field(converter=strip, validator=check_description)
    execute: Callable[..., Any] = field(repr=False, validator=check_execute)
    input_schema: Mapping[str, Any] = field(
        # mypy's attrs plugin only understands plain-function converters; this one needs
        # ``self`` (to derive the schema from ``execute``), so __init__ takes Mapping | None.
        default=None,
        converter=attrs.Converter(input_schema, takes_self=True, takes_field=True),  # type: ignore[misc]
    )
    approval: Approval = field(default="always", validator=check_approval)
    #: ``None`` (the default) means ``approval == "never"``, as in markdown tool files.
    read_only: bool = field(
        default=None,
        converter=attrs.Converter(_read_only_default, takes_self=True),  # type: ignore[misc]
        validator=check_bool,
    )
    requires_approval: bool = field(default=False, validator=check_bool)
    timeout_ms: int = field(default=DEFAULT_TIMEOUT_MS, validator=check_timeout)

    @classmethod
    def from_function(
        cls,
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        input_schema: Mapping[str, Any] | None = None,
        approval: Approval = "always",
        read_only: bool | None = None,
        requires_approval: bool = False,
        timeout_ms: int = DEFAULT_TIMEOUT_MS,
    ) -> Tool:
        """A tool that calls ``fn`` with keyword arguments: what :func:`tool` builds.

        The schema comes from ``fn``'s signature and type hints unless ``input_schema`` is
        given, the description from its docstring's first paragraph unless ``description`` is.

        :raises ToolDefinitionError: a type with no JSON Schema, no description, a bad name.
        """
        try:
            derived = function_schema(fn)
        except SchemaError as exc:
            if input_schema is None:
                raise ToolDefinitionError(
                    [Problem(field="input_schema", message=f"cannot be derived: {exc}")]
                ) from exc
            derived = None  # the given schema stands; arguments go in as they are
        if description is None:
            description = derived.description if derived else parse_docstring(fn.__doc__).summary
            if not description.strip():
                message = "missing: give the function a docstring, or pass description= to @tool"
                raise ToolDefinitionError([Problem(field="description", message=message)])
        schema = input_schema if input_schema is not None else derived.schema if derived else None
        try:
            return cls(
                name=name if name is not None else getattr(fn, "__name__", ""),
                description=description,
                execute=FunctionCall(fn, derived),
                input_schema=schema,
                approval=approval,
                read_only=read_only,
                requires_approval=requires_approval,
                timeout_ms=timeout_ms,
            )
        except (TypeError, ValueError) as exc:
            raise ToolDefinitionError(problems_from_error(exc)) from exc


@overload
def tool(fn: F, /) -> F: ...


@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    input_schema: Mapping[str, Any] | None = None,
    approval: Approval = "always",
    read_only: bool | None = None,
    requires_approval: bool = False,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> Callable[[F], F]: ...


def tool(
    fn: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    input_schema: Mapping[str, Any] | None = None,
    approval: Approval = "always",
    read_only: bool | None = None,
    requires_approval: bool = False,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> Any:
    """Make a typed function a tool: ``@tool`` or ``@tool(name=..., approval=...)``.

    The function stays an ordinary function (call it, test it); the :class:`Tool` it became
    is its ``__tooldrop_tool__`` attribute. Export it from a tool file as ``default = fn``
    (or in a list), or ``register(fn)`` it from a plugin. ::

        @tool(approval="never", read_only=True)
        def word_count(text: str, unique: bool = False) -> int:
            '''Count the words in a text.

            Args:
                text: The text to count.
                unique: Count each distinct word once.
            '''
            words = text.split()
            return len(set(words) if unique else words)

    The name defaults to the function's, the description to the docstring's first paragraph,
    and the schema to one derived from the parameters' type hints (``Args:`` entries become
    their descriptions). A parameter annotated :class:`CancelToken`, or named ``cancel``,
    receives the call's cancel token. ``async def`` functions work the same way.

    :raises ToolDefinitionError: when the function cannot be a tool (see the message).
    """

    def decorate(function: F) -> F:
        made = Tool.from_function(
            function,
            name=name,
            description=description,
            input_schema=input_schema,
            approval=approval,
            read_only=read_only,
            requires_approval=requires_approval,
            timeout_ms=timeout_ms,
        )
        try:
            setattr(function, "__tooldrop_tool__", made)  # noqa: B010 - mypy: functions have no such attribute
        except AttributeError as exc:
            message = f"@tool needs a plain function, not {type(function).__name__}"
            raise TypeError(message) from exc
        return function

    return decorate if fn is None else decorate(fn)


# -- normalising ------------------------------------------------------------------------

_KEYS = {
    "name": "name",
    "description": "description",
    "execute": "execute",
    "input_schema": "input_schema",
    "inputSchema": "input_schema",
    "parameters": "input_schema",
    "approval": "approval",
    "read_only": "read_only",
    "readOnly": "read_only",
    "requires_approval": "requires_approval",
    "requiresApproval": "requires_approval",
    "timeout_ms": "timeout_ms",
    "timeoutMs": "timeout_ms",
}
_EXPECTED = (
    "expected a dict with name, description and execute, a tooldrop.Tool, or a function "
    "decorated with @tooldrop.tool"
)

if TYPE_CHECKING:
    import cattrs

_converter: cattrs.Converter | None = None
_CALLABLE: Any = cabc.Callable
_MAPPING: Any = cabc.Mapping


def _tool_converter() -> cattrs.Converter:
    """The shared converter's strict rules, plus pass-through for what ``Tool`` checks itself."""
    global _converter
    if _converter is None:
        conv = get_converter().copy()
        # ``Tool`` checks these two itself, with clearer messages than cattrs would give.
        conv.register_structure_hook_func(
            lambda t: typing.get_origin(t) in (_CALLABLE, _MAPPING),
            lambda value, _: value,
        )
        _converter = conv
    return _converter


def _from_mapping(data: Mapping[Any, Any]) -> Tool:
    problems: list[Problem] = []
    fields: dict[str, Any] = {}
    given: dict[str, str] = {}
    for key, value in data.items():
        canonical = _KEYS.get(key) if isinstance(key, str) else None
        if canonical is None:
            import difflib  # only for a mistake, so not on every import

            close = difflib.get_close_matches(str(key), _KEYS, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            message = f"unknown key{hint}; a tool has: {', '.join(sorted(set(_KEYS.values())))}"
            problems.append(Problem(field=str(key), message=message))
        elif canonical in given:
            message = f"given twice, as {given[canonical]} and as {key}: keep one"
            problems.append(Problem(field=str(key), message=message))
        else:
            given[canonical] = key
            fields[canonical] = value
    problems.extend(_field_problems(fields))
    if not problems:
        try:
            return _tool_converter().structure(fields, Tool)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a problem, with its field.
            problems.extend(problems_from_error(exc))
    # Report each field as the value spelled it (``inputSchema``, not ``input_schema``).
    raise ToolDefinitionError([evolve(p, field=given.get(p.field, p.field)) for p in problems])


def _field_problems(fields: Mapping[str, Any]) -> list[Problem]:
    """Every field's own check at once: attrs stops at the first failing validator."""
    problems = []
    for attribute in attrs.fields(Tool):
        if attribute.name not in fields:
            if attribute.default is attrs.NOTHING:
                problems.append(Problem(field=attribute.name, message="is required"))
            continue
        value = fields[attribute.name]
        try:
            if attribute.name == "input_schema":
                if value is not None:  # None is derived from execute, once it is known good
                    input_schema(value, None, attribute)
            elif attribute.validator is not None:
                if attribute.name in ("name", "description"):
                    value = strip(value)
                attribute.validator(None, attribute, value)
        except (TypeError, ValueError) as exc:
            problems.extend(problems_from_error(exc))
    return problems


def as_tool(obj: object) -> Tool:
    """Normalise one tool value (``Tool``, decorated function, or dict) into a :class:`Tool`.

    :raises ToolDefinitionError: when ``obj`` is not a valid tool; its ``problems`` name the
        fields (``name``, ``inputSchema``, ...) as the value spelled them.
    """
    if isinstance(obj, Tool):
        return obj
    made = getattr(obj, "__tooldrop_tool__", None)
    if isinstance(made, Tool):
        return made
    if isinstance(obj, Mapping):
        return _from_mapping(obj)
    kind = type(obj).__name__
    if callable(obj):
        message = (
            f"cannot register {kind!r} as a tool: decorate it with @tooldrop.tool ({_EXPECTED})"
        )
    else:
        message = f"cannot register {kind!r} as a tool ({_EXPECTED})"
    raise ToolDefinitionError([Problem(message=message)])


def _defined_at(execute: Callable[..., Any]) -> tuple[str | None, int | None]:
    target = execute.function if isinstance(execute, FunctionCall | ArgsOnly) else execute
    code = getattr(inspect.unwrap(target), "__code__", None)
    if code is None:
        return None, None
    return code.co_filename, code.co_firstlineno


def _digest(tool: Tool, origin: Origin) -> str:
    blob = json.dumps(
        [tool.name, tool.description, tool.input_schema, origin.source], sort_keys=True, default=str
    )
    return hashlib.sha256(blob.encode()).hexdigest()


def to_spec(obj: object, *, origin: Origin) -> ToolSpec:
    """Turn a tool value into a :class:`ToolSpec` stamped with ``origin`` (runner ``python``).

    Accepts what :func:`as_tool` accepts, and a ready :class:`ToolSpec`. When ``origin`` has
    no content hash, one is computed from the tool's name, description and schema; when it
    has no path, the file and line where ``execute`` is defined are used.

    :raises ToolDefinitionError: when ``obj`` is not a valid tool.
    """
    if isinstance(obj, ToolSpec):
        return evolve(obj, origin=origin)
    made = as_tool(obj)
    if not origin.content_hash:
        origin = evolve(origin, content_hash=_digest(made, origin))
    if origin.path is None:
        path, line = _defined_at(made.execute)
        if path is not None and not path.startswith("<"):
            origin = evolve(origin, path=path, line=line)
    return ToolSpec(
        name=made.name,
        description=made.description,
        input_schema=made.input_schema,
        approval=made.approval,
        read_only=made.read_only,
        requires_approval=made.requires_approval,
        timeout_ms=made.timeout_ms,
        origin=origin,
        runner="python",
        payload=bind_execute(made.execute),
    )
