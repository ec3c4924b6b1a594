"""One ``*.toml`` tool file in, one :class:`tooldrop.LoadResult` out, never an exception."""

from __future__ import annotations

import difflib
import hashlib
import tomllib
from pathlib import Path
from typing import Any

from tooldrop import LoadResult, Origin, Problem, Scope, ToolSpec, structure
from tooldrop_shell import env_name_problem

from ._command import RESERVED, Command, Placeholder, parse_element
from ._fields import NAME, PARAM_KEYS, TOP_KEYS, Param, TomlTool, toml_converter
from ._lines import line_finder, syntax_error_line

__all__ = ["MAX_FILE_BYTES", "input_schema", "load_toml"]

#: A tool file is a few lines; anything bigger is refused unread.
MAX_FILE_BYTES = 256 * 1024
#: The keys of a parameter that go into its JSON Schema property as they are.
_SCHEMA_KEYS = (
    "description",
    "default",
    "enum",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
)


def _unknown(data: dict[str, Any], known: frozenset[str], prefix: str) -> list[tuple[str, str]]:
    """``(field, message)`` for each key this format does not read; the keys are removed."""
    found = []
    for key in [k for k in data if k not in known]:
        del data[key]
        message = f'unknown key "{key}" (ignored)'
        close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.75)
        if close:
            message += f'; did you mean "{close[0]}"?'
        found.append((f"{prefix}{key}", message))
    return found


def _property(param: Param) -> dict[str, Any]:
    prop: dict[str, Any] = {"type": param.type}
    for key in _SCHEMA_KEYS:
        value = getattr(param, key)
        if value is not None:
            prop[key] = value
    if param.items is not None:
        prop["items"] = {"type": param.items.type}
    return prop


def input_schema(params: dict[str, Param]) -> dict[str, Any]:
    """The JSON Schema the model sees: every parameter, nothing else accepted."""
    return {
        "type": "object",
        "properties": {name: _property(p) for name, p in params.items()},
        "required": [name for name, p in params.items() if p.required],
        "additionalProperties": False,
    }


def _command_problems(
    command: object, params: dict[str, Any]
) -> tuple[Command, list[tuple[str, str]]]:
    """Parse ``command``; every placeholder must name a declared parameter.

    Read from the raw TOML, so these problems are reported along with any others.
    """
    found: list[tuple[str, str]] = []
    elements = []
    items = command if isinstance(command, list) else []
    for index, text in enumerate(items):
        where = f"command[{index}]"
        if not isinstance(text, str):
            continue  # the structuring reports it
        parts, problem = parse_element(text)
        if problem:
            found.append((where, problem))
            continue
        elements.append(parts)
        names = [p.name for p in parts if isinstance(p, Placeholder)]
        if index == 0 and names:
            found.append((where, (
                "the program must be fixed text: a placeholder here would let the model "
                "choose which program runs"
            )))  # fmt: skip
        if index == 0 and ("=" in text or text in RESERVED):
            found.append((where, f"{text!r} is not a program name the shell would run as one"))
        for name in names:
            if name not in params:
                found.append((where, f"{{{name}}} names no parameter; add [parameters.{name}]"))
                continue
            table = params[name]
            if isinstance(table, dict) and table.get("type") == "array" and len(parts) != 1:
                found.append((where, (
                    f'array parameter {{{name}}} must be a whole element ("{{{name}}}"): '
                    "it becomes one argument per item"
                )))  # fmt: skip
    return Command(elements=tuple(elements)), found


def load_toml(path: Path, scope: Scope) -> LoadResult:
    """Load one TOML tool file: its tool, or the problems (file, line, field) that stop it."""

    def fail(message: str, line: int | None = None) -> LoadResult:
        return LoadResult(problems=[Problem(path=path, line=line, message=message)])

    try:
        data = path.read_bytes()
    except OSError as exc:
        return fail(f"cannot read the file: {exc.strerror or exc}")
    if len(data) > MAX_FILE_BYTES:
        return fail(f"the file is larger than {MAX_FILE_BYTES // 1024} KiB")
    try:
        text = data.decode("utf-8")
        raw = tomllib.loads(text)
    except UnicodeDecodeError:
        return fail("the file is not UTF-8 text")
    except tomllib.TOMLDecodeError as exc:
        return fail(f"not valid TOML: {exc}", syntax_error_line(str(exc), text))

    line_of = line_finder(text)
    warnings = _unknown(raw, TOP_KEYS, "")
    errors: list[tuple[str, str]] = []
    params = raw.get("parameters")
    if not isinstance(params, dict):
        params = {}  # the structuring reports a "parameters" that is not a table
    for name, table in params.items():
        if not NAME.fullmatch(name):
            errors.append((f"parameters.{name}", "a parameter name must match ^[a-z][a-z0-9_]*$"))
        if isinstance(table, dict):
            warnings += _unknown(table, PARAM_KEYS, f"parameters.{name}.")
    env = raw.get("env")
    for key in env if isinstance(env, dict) else ():
        problem = env_name_problem(key)  # the rule tooldrop-shell applies, with this file's line
        if problem:
            errors.append((f"env.{key}", problem))

    command, more = _command_problems(raw.get("command"), params)
    errors += more
    tool, problems = structure(raw, TomlTool, path=path, line_of=line_of, conv=toml_converter)
    problems += [Problem(path=path, line=line_of(f), field=f, message=m) for f, m in errors] + [
        Problem(path=path, line=line_of(f), field=f, message=m, severity="warning")
        for f, m in warnings
    ]
    problems.sort(key=lambda p: p.line or 0)
    if tool is None or any(p.severity == "error" for p in problems):
        return LoadResult(problems=problems)
    spec = ToolSpec(
        name=tool.name,
        description=tool.description.strip(),
        input_schema=input_schema(tool.parameters),
        approval=tool.approval,
        read_only=tool.approval == "never" if tool.read_only is None else tool.read_only,
        timeout_ms=tool.timeout_ms,
        cwd=tool.cwd,
        env=tool.env,
        keep_background=tool.keep_background,
        # The script is one shlex-quoted command line: POSIX sh runs it the same everywhere.
        shell="sh",
        origin=Origin(
            source="toml",
            scope=scope,
            path=path,
            line=line_of("name") or 1,
            content_hash=hashlib.sha256(data).hexdigest(),
        ),
        runner="shell",
        payload=command,
    )
    return LoadResult(tools=[spec], problems=problems)
