"""Loading ``*.py`` tool modules: each file imported alone, under a fresh module name.

Importing a file runs it, so only the personal tools dir (and directories a plugin adds
with scope ``plugin``) are imported; a ``.py`` in a project's tools dir is reported and never
opened. Each file is compiled from the very bytes that were hashed, so the content hash that
remembered grants are bound to is the hash of the code that runs (no window for a swap
between hashing and importing, and no stale ``__pycache__``: nothing is written next to the
tools). A file that fails in any way is a :class:`Problem` naming the file, the line when
it is known, and why; the other files load.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import importlib.abc
import importlib.util
import inspect
import itertools
import re
import sys
import threading
import traceback
import types
from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import Any

from attrs import evolve

from tooldrop import (
    LoadResult,
    Origin,
    Problem,
    Scope,
    Tool,
    ToolDefinitionError,
    ToolSpec,
    problems_from_error,
    read_regular_file,
    to_spec,
)

__all__ = ["MODULE_PREFIX", "NOT_IMPORTED", "load_file"]

NOT_IMPORTED = (
    "not imported: Python tools load only from the personal tools dir, because importing a "
    "file runs it"
)
#: Bytes a Python tool file may hold; a larger one (or a FIFO, a device) is refused unread.
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Module names of loaded tool files start with this (``_tooldrop_tool_weather_3``).
MODULE_PREFIX = "_tooldrop_tool_"
_SHAPES = "a tool (a dict, a tooldrop.Tool or an @tool function), a list of tools, or a factory"

_counter = itertools.count(1)
_modules_lock = threading.Lock()
#: The module each file was last imported as, so a re-import drops the old one.
_modules_by_path: dict[str, str] = {}


class _BytesLoader(importlib.abc.Loader):
    """Executes exactly the bytes it was given (those that were hashed), never bytecode."""

    def __init__(self, path: Path, data: bytes) -> None:
        self.path = path
        self.data = data

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # the default module type

    def exec_module(self, module: types.ModuleType) -> None:
        code = compile(self.data, str(self.path), "exec", dont_inherit=True)
        # Running the user's own tool file is the point of this loader (DESIGN §8).
        exec(code, module.__dict__)  # noqa: S102

    def get_source(self, fullname: str) -> str:
        return importlib.util.decode_source(self.data)


class _Failed(Exception):
    """Loading a file failed; ``problems`` say why."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems)
        self.problems = problems


def _module_name(path: Path) -> str:
    stem = re.sub(r"\W", "_", path.stem, flags=re.ASCII) or "tool"
    return f"{MODULE_PREFIX}{stem}_{next(_counter)}"


def _line_in(exc: BaseException, path: Path) -> int | None:
    """The line of ``path`` nearest to where ``exc`` was raised, if it passed through it."""
    if isinstance(exc, SyntaxError) and exc.filename == str(path):
        return exc.lineno
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == str(path):
            line = frame.lineno
    return line


def _describe(exc: BaseException) -> str:
    try:
        message = str(exc).strip()
    except Exception:  # noqa: BLE001 - an exception whose __str__ fails still has a type.
        message = ""
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _failure(exc: BaseException, path: Path, stage: str) -> list[Problem]:
    """Problems for an exception raised while importing the file or calling its factory."""
    line = _line_in(exc, path)
    if isinstance(exc, SyntaxError):
        return [Problem(path=path, line=line, message=f"{type(exc).__name__}: {exc.msg}")]
    if isinstance(exc, ToolDefinitionError):  # @tool on a function that cannot be a tool
        return [evolve(p, path=path, line=line) for p in exc.problems]
    if isinstance(exc, SystemExit):
        message = f"called sys.exit({exc.code!r}) during the {stage}"
        return [Problem(path=path, line=line, message=message)]
    found = problems_from_error(exc, path=path) if isinstance(exc, TypeError | ValueError) else []
    if any(p.field for p in found):  # Tool(...) at module level with a bad field
        return [evolve(p, line=line) for p in found]
    return [Problem(path=path, line=line, message=f"the {stage} failed: {_describe(exc)}")]


def _import(path: Path, data: bytes) -> types.ModuleType:
    name = _module_name(path)
    loader = _BytesLoader(path, data)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None  # a loader was given, so there is always a spec
    module = importlib.util.module_from_spec(spec)
    with _modules_lock:
        # Registered while it runs: dataclasses, typing.get_type_hints and pickle look
        # modules up by name. The name is new, so nothing else is ever replaced.
        previous = _modules_by_path.pop(str(path), None)
        if previous is not None:
            sys.modules.pop(previous, None)
        sys.modules[name] = module
        _modules_by_path[str(path)] = name
    try:
        loader.exec_module(module)
    except KeyboardInterrupt:
        # A real Ctrl-C: the person wants loading to stop, not a problem report.
        sys.modules.pop(name, None)
        raise
    except BaseException as exc:
        sys.modules.pop(name, None)
        raise _Failed(_failure(exc, path, "import")) from exc
    return module


def _resolve(awaitable: Awaitable[Any]) -> Any:
    """Await an async factory's result: here, or in a thread when a loop already runs here."""

    async def wait() -> Any:
        return await awaitable

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(wait())
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="tooldrop-factory") as pool:
        return pool.submit(asyncio.run, wait()).result()


def _is_tool_value(value: object) -> bool:
    return isinstance(value, Tool | ToolSpec | dict) or isinstance(
        getattr(value, "__tooldrop_tool__", None), Tool
    )


def _call_factory(factory: Any, path: Path) -> Any:
    try:
        required = [
            p.name
            for p in inspect.signature(factory).parameters.values()
            if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        ]
    except (TypeError, ValueError):
        required = []
    if required:
        message = (
            f"default is a function with parameters ({', '.join(required)}); a factory takes "
            "none. To make the function itself a tool, decorate it with @tooldrop.tool"
        )
        line = _code_line(factory, path)
        raise _Failed([Problem(path=path, line=line, field="default", message=message)])
    try:
        value = factory()
        if inspect.isawaitable(value):
            value = _resolve(value)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise _Failed(_failure(exc, path, "factory")) from exc
    return value


def _expand(module: types.ModuleType, path: Path) -> Iterator[tuple[str, object]]:
    """``(field path, tool value)`` for each tool the module's ``default`` gives."""
    if "default" not in module.__dict__:
        found = sorted(
            name
            for name, value in module.__dict__.items()
            if _is_tool_value(value) and not isinstance(value, dict) and not name.startswith("_")
        )
        hint = f"; add `default = [{', '.join(found)}]`" if found else ""
        message = f"no tool exported: define a module-level `default`: {_SHAPES}{hint}"
        raise _Failed([Problem(path=path, field="default", message=message)])
    value = module.__dict__["default"]
    where = "default"
    if callable(value) and not _is_tool_value(value):
        value, where = _call_factory(value, path), "default()"
        if callable(value) and not _is_tool_value(value):
            message = "the factory returned a function; it must return a tool or a list of tools"
            raise _Failed([Problem(path=path, field=where, message=message)])
    if isinstance(value, list | tuple):
        if not value:
            message = f"{where} is an empty list: this file defines no tools"
            raise _Failed([Problem(path=path, field=where, message=message, severity="warning")])
        for index, item in enumerate(value):
            yield f"{where}[{index}]", item
    elif value is None:
        message = f"{where} is None; it must be {_SHAPES}"
        raise _Failed([Problem(path=path, field=where, message=message)])
    else:
        yield where, value


def _code_line(value: object, path: Path) -> int | None:
    target = getattr(value, "function", value)  # FunctionCall / ArgsOnly wrap the user's code
    code = getattr(inspect.unwrap(target) if callable(target) else target, "__code__", None)
    if code is not None and code.co_filename == str(path):
        return int(code.co_firstlineno)
    return None


def _line_of(item: object, source: str, path: Path) -> int | None:
    """Where a tool is defined: its name as a string literal, else its function's first line."""
    made = getattr(item, "__tooldrop_tool__", item)
    name = made.get("name") if isinstance(made, dict) else getattr(made, "name", None)
    execute = made.get("execute") if isinstance(made, dict) else getattr(made, "execute", None)
    if isinstance(item, dict) and isinstance(name, str) and name.strip():
        literal = re.compile(r"""(['"])""" + re.escape(name.strip()) + r"\1")
        for number, text in enumerate(source.splitlines(), start=1):
            if literal.search(text):
                return number
    return _code_line(execute, path) if execute is not None else None


def _default_line(source: str) -> int | None:
    for number, text in enumerate(source.splitlines(), start=1):
        if re.match(r"(default\s*(:[^=]*)?=|(async\s+)?def\s+default\b)", text):
            return number
    return None


def _join(prefix: str, field: str) -> str:
    return f"{prefix}.{field}" if field else prefix


def _inside(path: Path, directory: Path) -> bool:
    parent = path.absolute().parent
    if parent == directory.absolute():
        return True  # the scan of the personal dir: no need to ask the file system
    try:
        return parent.resolve() == directory.resolve()
    except OSError:
        return False


def load_file(path: Path, scope: Scope, personal_dir: Path | None = None) -> LoadResult:
    """Import one tool file and turn its ``default`` into tools, or problems.

    :param personal_dir: when given, a ``personal`` file must stand directly in it. Hosts
        also say ``personal`` for paths named on the command line (``tooldrop check
        PATH``); checking a file from elsewhere must not run it.
    """
    if scope == "project":
        return LoadResult(problems=[Problem(path=path, message=NOT_IMPORTED, severity="warning")])
    if scope == "personal" and personal_dir is not None and not _inside(path, personal_dir):
        message = f"{NOT_IMPORTED} ({personal_dir})"
        return LoadResult(problems=[Problem(path=path, message=message, severity="warning")])
    try:
        data = read_regular_file(path, MAX_FILE_BYTES)
    except OSError as exc:
        return LoadResult(problems=[Problem(path=path, message=f"cannot read: {exc.strerror}")])
    digest = hashlib.sha256(data).hexdigest()
    try:  # only to find lines for messages; the import reports a bad encoding itself
        source = importlib.util.decode_source(data)
    except (SyntaxError, UnicodeDecodeError):
        source = ""
    tools: list[ToolSpec] = []
    problems: list[Problem] = []
    try:
        module = _import(path, data)
        items = list(_expand(module, path))
    except _Failed as failed:
        fallback = _default_line(source)
        return LoadResult(
            problems=[
                evolve(p, line=fallback) if p.line is None and p.field.startswith("default") else p
                for p in failed.problems
            ]
        )
    for where, item in items:
        line = _line_of(item, source, path) or _default_line(source) or 1
        origin = Origin(source="python", scope=scope, path=path, line=line, content_hash=digest)
        try:
            tools.append(to_spec(item, origin=origin))
        except ToolDefinitionError as exc:
            problems.extend(
                evolve(p, path=path, line=line, field=_join(where, p.field)) for p in exc.problems
            )
    return LoadResult(tools=tools, problems=problems)
