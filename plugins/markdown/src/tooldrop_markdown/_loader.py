"""One markdown tool file in, one :class:`~tooldrop.LoadResult` out, never an exception.

The happy path reads the file, loads the frontmatter with the C loader, structures it and
parses the body: YAML is only composed again (for line numbers) when there is a problem to
place.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from pathlib import Path
from typing import Any

from yaml.nodes import MappingNode, Node, SequenceNode

from tooldrop import LoadResult, Origin, Problem, Scope, ToolSpec, problems_from_error
from tooldrop import yaml12 as _yaml

from ._fields import Frontmatter, Param, field_converter
from ._frontmatter import BOM, Split, split_frontmatter
from ._lint import BodyProblem, lint
from ._prepare import Found, Prepared, prepare
from ._schema import input_schema, value_problems
from ._template import Template, check, tokenize

__all__ = ["MAX_BODY_PROBLEMS", "MAX_FILE_BYTES", "load_markdown"]

#: Tool files larger than this are refused unread (a tool file is a few kilobytes).
MAX_FILE_BYTES = 1024 * 1024
#: Body problems reported per file; the rest are counted.
MAX_BODY_PROBLEMS = 50
_PATH_PART = re.compile(r"\[(\d+)\]|([^.\[\]]+)")


class _Lines:
    """Maps a field path (``parameters.namespace.pattern``) to its line in the file.

    The frontmatter is composed (parsed again, keeping nodes and their marks) only on the
    first lookup: files without problems never pay for it.
    """

    def __init__(self, split: Split) -> None:
        self.split = split
        self.root: Node | None = None
        self.composed = False

    def __call__(self, path: str) -> int | None:
        if not self.composed:
            self.composed = True
            self.root = _yaml.compose(self.split.frontmatter)
        node = self.root
        if node is None:
            return None
        line = node.start_mark.line
        for index, key in _PATH_PART.findall(path):
            found = _child(node, int(index) if index else key)
            if found is None:
                break
            line, node = found
        return line + self.split.frontmatter_line


def _child(node: Node, part: int | str) -> tuple[int, Node] | None:
    if isinstance(node, MappingNode) and isinstance(part, str):
        for key_node, value_node in node.value:
            if str(key_node.value) == part:
                return key_node.start_mark.line, value_node
    elif isinstance(node, SequenceNode):
        if isinstance(part, int):
            if part < len(node.value):
                item = node.value[part]
                return item.start_mark.line, item
        else:  # the list form of parameters: find the entry with this name
            for item in node.value:
                if isinstance(item, MappingNode) and any(
                    k.value == "name" and getattr(v, "value", None) == part for k, v in item.value
                ):
                    return item.start_mark.line, item
    return None


def _fail(path: Path, message: str, line: int | None = 1, field: str = "") -> LoadResult:
    return LoadResult(problems=[Problem(path=path, line=line, field=field, message=message)])


class _Refused(Exception):
    """The file cannot be read as a tool file at all."""

    def __init__(self, message: str, line: int | None = 1, field: str = "") -> None:
        super().__init__(message)
        self.message, self.line, self.field = message, line, field


def _read(path: Path) -> bytes:
    # os-level calls: no file objects and no 8 KiB buffer per file (io.open also asks the
    # size, and whether the file is a terminal, before reading).
    try:
        fd = os.open(path, _READ_FLAGS)
        try:
            # Ask the size first: a huge file is refused without reading it, and a file of
            # known size reads in one call (and one more that finds the end).
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):  # a FIFO swapped in after discovery's stat
                raise _Refused("cannot read the file: not a regular file", None)
            size = st.st_size
            if size <= MAX_FILE_BYTES:
                data = _read_up_to(fd, size + 1)
                if len(data) > size:  # it grew since (or its size is unknown): read on, bounded
                    data += _read_up_to(fd, MAX_FILE_BYTES + 1 - len(data))
        finally:
            os.close(fd)
    except OSError as exc:
        raise _Refused(f"cannot read the file: {exc.strerror or exc}", None) from None
    if size > MAX_FILE_BYTES or len(data) > MAX_FILE_BYTES:
        limit = MAX_FILE_BYTES // 1024
        raise _Refused(f"the file is larger than {limit} KiB; a tool file is a few lines", None)
    return data


# O_NONBLOCK: opening a FIFO returns at once (and is then refused) instead of waiting for a
# writer; it changes nothing for a regular file. O_BINARY: Windows only.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def _read_up_to(fd: int, count: int) -> bytes:
    """Read until ``count`` bytes or the end of the file, as a buffered ``read(count)`` does."""
    data = os.read(fd, count)
    while data and len(data) < count:
        more = os.read(fd, count - len(data))
        if not more:
            break
        data += more
    return data


def _decode(data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        message = f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x}); save it as UTF-8"
        raise _Refused(message, line) from None
    # A byte-order mark is dropped (the reference reports "missing frontmatter" for it).
    return text[1:] if text.startswith(BOM) else text


def _frontmatter_data(split: Split) -> dict[Any, Any]:
    """The frontmatter as a mapping, or :class:`_Refused` saying why it is not one."""
    try:
        raw = _yaml.load(split.frontmatter, split.frontmatter_line)
    except _yaml.YamlError as exc:
        message = f"Frontmatter is not a valid YAML object: {exc.message}"
        if exc.line is not None:
            texts = split.frontmatter.split("\n")
            index = exc.line - split.frontmatter_line
            if any("{{" in text for text in texts[max(index - 1, 0) : index + 1]):
                message += (
                    "; a value that starts with { is a YAML mapping, so write text with "
                    "{{ … }} in quotes"
                )
        raise _Refused(message, exc.line, exc.key) from None
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        kind = "a list" if isinstance(raw, list) else "a single value"
        message = f"Frontmatter is not a valid YAML object (it is {kind}, not keys and values)"
        raise _Refused(message, split.frontmatter_line)
    if "*" in split.frontmatter and (why := _yaml.too_big(raw)):
        raise _Refused(f"Frontmatter is refused: {why}", split.frontmatter_line)
    return raw


def _structure(prepared: Prepared) -> tuple[Frontmatter | None, dict[str, Param] | None, Any]:
    """The frontmatter, or ``None`` and the error; on failure the parameters alone if they
    structure (the template checks still want their types)."""
    try:
        front = field_converter.structure(prepared.data, Frontmatter)
    except Exception as exc:  # noqa: BLE001 - every failure becomes problems, by design
        try:
            params = field_converter.structure(
                prepared.data.get("parameters", {}), dict[str, Param]
            )
        except Exception:  # noqa: BLE001 - already reported through the first error
            params = None
        return None, params, exc
    return front, front.parameters, None


def _body_problems(
    split: Split, prepared: Prepared, params: dict[str, Param] | None
) -> tuple[Template, list[BodyProblem]]:
    body = split.body
    tokens = tokenize(body)
    template, found = check(body, tokens)
    problems: list[BodyProblem] = [(offset, message, "error") for offset, message in found]
    declared = None if prepared.parameters_unknown else prepared.declared
    problems.extend(lint(tokens, params, declared, prepared.data.get("shell")))
    if "\r" in body:
        problems.append((body.index("\r"), (
            "the body has CRLF (Windows) line ends; the shell reads each \\r as part of the "
            "line's last word. Save the file with LF line ends"
        ), "warning"))  # fmt: skip
    return template, problems


def _placed(path: Path, split: Split, found: list[BodyProblem]) -> list[Problem]:
    """Body problems as :class:`Problem` with file lines, the first :data:`MAX_BODY_PROBLEMS`
    of them (a file with thousands has one mistake repeated, or is not a tool file)."""
    found = sorted(found, key=lambda item: item[0])
    placed: list[Problem] = []
    line, counted = split.body_line, 0
    for offset, message, severity in found[:MAX_BODY_PROBLEMS]:
        line += split.body.count("\n", counted, offset)  # counting on, never from the start
        counted = max(counted, offset)
        placed.append(
            Problem(path=path, line=line, field="body", message=message, severity=severity)
        )
    if len(found) > MAX_BODY_PROBLEMS:
        more = len(found) - MAX_BODY_PROBLEMS
        severity = "error" if any(item[2] == "error" for item in found) else "warning"
        message = f"... and {more} more problems in the body; fix the ones above first"
        placed.append(
            Problem(path=path, line=line, field="body", message=message, severity=severity)
        )
    return placed


def load_markdown(path: Path, scope: Scope) -> LoadResult:
    """Load one markdown tool file: its tool, or the problems that keep it from loading.

    Warnings (unknown keys, CRLF line ends...) come with a loaded tool. Every problem names
    the file, the line, and the field (``body`` for the script).
    """
    try:
        data = _read(path)
        split = split_frontmatter(_decode(data))
        if split is None:
            raise _Refused(
                "Missing YAML frontmatter — custom tools must declare metadata between --- "
                "markers (the file must start with a --- line, and another --- line must end it)"
            )
        raw = _frontmatter_data(split)
    except _Refused as exc:
        return _fail(path, exc.message, exc.line, exc.field)

    prepared = prepare(raw)
    front, params, error = _structure(prepared)
    lines = _Lines(split)
    problems: list[Problem] = []
    if error is not None:
        problems.extend(problems_from_error(error, path=path, line_of=lines))
    found: list[Found] = list(prepared.found)
    if params is not None:
        found.extend(value_problems(params))
    for field_path, message, severity in found:
        line = lines(field_path)
        problems.append(
            Problem(path=path, line=line, field=field_path, message=message, severity=severity)
        )
    if not split.body:
        message = "Tool body (shell script) is empty"
        problems.append(Problem(path=path, line=split.body_line, field="body", message=message))
    template, body_found = _body_problems(split, prepared, params)
    problems.extend(_placed(path, split, body_found))
    problems.sort(key=lambda p: p.line or 0)
    # What a markdown file loads to depends on its bytes alone (and this code): cacheable.
    if front is None or any(p.severity == "error" for p in problems):
        return LoadResult(problems=problems, cacheable=True)
    read_only = front.approval == "never" if front.read_only is None else front.read_only
    spec = ToolSpec(
        name=front.name,
        description=front.description,
        input_schema=input_schema(front.parameters),
        approval=front.approval,
        read_only=read_only,
        timeout_ms=front.timeout_ms,
        cwd=front.cwd,
        env=front.env,
        shell=front.shell,
        network=front.network,
        writable=front.writable,
        keep_background=front.keep_background,
        origin=Origin(
            source="markdown",
            scope=scope,
            path=path,
            line=1,
            content_hash=hashlib.sha256(data).hexdigest(),
        ),
        runner="shell",
        payload=template,
    )
    return LoadResult(tools=[spec], problems=problems, cacheable=True)
