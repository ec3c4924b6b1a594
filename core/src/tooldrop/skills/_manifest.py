"""``skill.yaml``: a bundle's manifest, checked field by field as Nanocoder 1.30 checks it.

Fields are checked in Nanocoder's order and the first failure drops the bundle, with
Nanocoder's exact message (``reference/nanocoder-skill-bundles.md`` §2, §4); the problem also
says the line and the field. Unknown keys are ignored; ``null``, ``~`` or an empty value
counts as absent for every optional field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from attrs import field, frozen

from .._files import FileRefused, read_regular_file
from .._model import Problem, Visibility

__all__ = [
    "DEFAULT_VISIBILITY",
    "PLACEHOLDER_DESCRIPTION",
    "Manifest",
    "Subscription",
    "Visibility",
    "read_manifest",
]

DEFAULT_VISIBILITY: Visibility = "scoped"
#: The description ``/skills create`` (and ``tooldrop new --skill``) writes.
PLACEHOLDER_DESCRIPTION = "A brief description of what this skill does."
#: A manifest larger than this is refused unread.
MAX_MANIFEST_BYTES = 256 * 1024
#: Values a skill.yaml or an agent's frontmatter may expand to through YAML aliases.
MAX_SKILL_VALUES = 10_000

SKILL_NAME = re.compile(r"[a-z][a-z0-9-]*")
_TARGET = re.compile(r"(command|agent|tool):[a-z][a-z0-9_-]*")
_EVENT_KINDS = frozenset(("add", "change", "unlink"))
_KINDS = ("file.changed", "schedule.cron")
_MEMBER_KINDS = ("commands", "agents", "tools")


@frozen(kw_only=True)
class Subscription:
    """An event trigger a bundle declares. tooldrop runs no triggers; it only checks them."""

    #: ``file.changed`` or ``schedule.cron``.
    kind: str
    #: The member it triggers: ``tool:<name>``, ``agent:<name>`` or ``command:<name>``.
    target: str
    #: ``file.changed``: globs of the files watched.
    paths: tuple[str, ...] = ()
    #: ``file.changed``: which of ``add``, ``change``, ``unlink`` count (``eventKinds``).
    event_kinds: tuple[str, ...] = ()
    #: ``schedule.cron``: the cron expression.
    cron: str | None = None
    #: Ask before the triggered run (Nanocoder runs it in plan mode).
    confirm: bool = False


@frozen(kw_only=True)
class Manifest:
    """A skill bundle's ``skill.yaml``, checked field by field (an invalid one drops the bundle)."""

    #: The skill's name, kebab-case (``^[a-z][a-z0-9-]*$``).
    name: str
    #: What the skill is for, trimmed.
    description: str
    #: A version string (``version: 1.0`` is a number, and refused, as in Nanocoder).
    version: str | None = None
    #: Who wrote it.
    author: str | None = None
    #: Free-form tags.
    tags: tuple[str, ...] = ()
    #: ``include`` as declared; like Nanocoder 1.30, nothing reads it.
    include: Mapping[str, tuple[str, ...]] = field(factory=dict)
    #: Event triggers (``subscribe``), checked and kept; tooldrop runs none.
    subscribe: tuple[Subscription, ...] = ()
    #: ``tools_visibility``: ``scoped`` unless the manifest says ``global``.
    visibility: Visibility = DEFAULT_VISIBILITY


class _Invalid(Exception):
    def __init__(self, message: str, *path: str | int) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


def _field_name(path: tuple[str | int, ...]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def _unsafe(path: str) -> str | None:
    """Nanocoder's safe-path rule, as the message's end, or ``None`` when ``path`` is fine."""
    if path.startswith(("/", "\\")):
        return f'must be a relative path (got "{path}")'
    if (
        path == ".."
        or path.startswith(("../", "..\\"))
        or "/../" in path
        or "\\..\\" in path
        or path.endswith(("/..", "\\.."))
    ):
        return f'must not traverse upward with ".." (got "{path}")'
    return None


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _include(raw: object) -> dict[str, tuple[str, ...]]:
    if not isinstance(raw, dict):
        raise _Invalid('"include" must be a mapping', "include")
    include: dict[str, tuple[str, ...]] = {}
    for key in _MEMBER_KINDS:
        items = raw.get(key)
        if items is None:
            continue
        if not _strings(items):
            raise _Invalid(f'"include.{key}" must be an array of glob strings', "include", key)
        for index, item in enumerate(items):
            why = _unsafe(item)
            if why is not None:
                raise _Invalid(f'"include.{key}[{index}]" {why}', "include", key, index)
        include[key] = tuple(items)
    return include


def _subscription(index: int, entry: object) -> Subscription:
    at = f"subscribe[{index}]"
    if not isinstance(entry, dict) or "kind" not in entry:
        raise _Invalid(f'{at} must be a mapping with at least a "kind" field', "subscribe", index)
    kind = entry["kind"]
    if not isinstance(kind, str):
        raise _Invalid(f"{at}.kind must be a string", "subscribe", index, "kind")
    if kind not in _KINDS:
        raise _Invalid(
            f'{at}.kind "{kind}" is not a supported event kind (expected: {", ".join(_KINDS)})',
            "subscribe", index, "kind",
        )  # fmt: skip
    target = entry.get("target")
    if target is not None and (not isinstance(target, str) or not target):
        message = f'{at}.target must be a non-empty string of form "kind:name"'
        raise _Invalid(message, "subscribe", index, "target")
    confirm = entry.get("confirm")
    if confirm is not None and not isinstance(confirm, bool):
        raise _Invalid(f"{at}.confirm must be a boolean", "subscribe", index, "confirm")
    paths: tuple[str, ...] = ()
    event_kinds: tuple[str, ...] = ()
    cron: str | None = None
    if kind == "file.changed":
        raw_paths = entry.get("paths")
        if raw_paths is not None:
            if not _strings(raw_paths):
                message = f"{at}.paths must be an array of glob strings"
                raise _Invalid(message, "subscribe", index, "paths")
            paths = tuple(raw_paths)
        raw_kinds = entry.get("eventKinds")
        if raw_kinds is not None:
            if not _strings(raw_kinds) or not set(raw_kinds) <= _EVENT_KINDS:
                message = f'{at}.eventKinds must be an array of "add" | "change" | "unlink"'
                raise _Invalid(message, "subscribe", index, "eventKinds")
            event_kinds = tuple(raw_kinds)
    else:
        cron = entry.get("cron")
        if not isinstance(cron, str) or not cron.strip():
            raise _Invalid(f"{at}.cron must be a non-empty cron expression", "subscribe", index)
    if target is None:
        message = (
            f"{at}.target is required in skill.yaml - manifest subscriptions must name a member "
            'as "kind:name"'
        )
        raise _Invalid(message, "subscribe", index)
    if not _TARGET.fullmatch(target):
        message = (
            f'{at}.target "{target}" must match /^(command|agent|tool):[a-z][a-z0-9_-]*$/ '
            '(e.g. "agent:foo", "command:bar", "tool:baz")'
        )
        raise _Invalid(message, "subscribe", index, "target")
    for number, path in enumerate(paths):
        why = _unsafe(path)
        if why is not None:
            raise _Invalid(f"{at}.paths[{number}] {why}", "subscribe", index, "paths", number)
    return Subscription(
        kind=kind, target=target, paths=paths, event_kinds=event_kinds, cron=cron,
        confirm=bool(confirm),
    )  # fmt: skip


def _visibility(raw: object) -> Visibility:
    if isinstance(raw, str):
        if raw in ("global", "scoped"):
            return raw  # type: ignore[return-value]  # one of the two literals
        message = f'"tools_visibility" must be one of: global, scoped (got "{raw}")'
        raise _Invalid(message, "tools_visibility")
    if isinstance(raw, dict):
        default = raw.get("default")
        if default is None:
            return DEFAULT_VISIBILITY
        if default in ("global", "scoped"):
            return default  # type: ignore[no-any-return]  # one of the two literals
        message = '"tools_visibility.default" must be one of: global, scoped'
        raise _Invalid(message, "tools_visibility", "default")
    message = '"tools_visibility" must be a mapping or one of: global, scoped'
    raise _Invalid(message, "tools_visibility")


def _manifest(data: dict[Any, Any]) -> Manifest:
    name = data.get("name")
    if not isinstance(name, str) or not SKILL_NAME.fullmatch(name):
        message = (
            'Invalid or missing "name" - must match /^[a-z][a-z0-9-]*$/ '
            "(kebab-case starting with a letter)"
        )
        raise _Invalid(message, "name")
    description = data.get("description")
    if not isinstance(description, str) or not description.strip():
        raise _Invalid('Missing or empty "description"', "description")
    checked: dict[str, Any] = {}
    for key in ("version", "author"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise _Invalid(f'"{key}" must be a string', key)
        checked[key] = value
    tags = data.get("tags")
    if tags is not None and not _strings(tags):
        raise _Invalid('"tags" must be an array of strings', "tags")
    include = data.get("include")
    subscribe = data.get("subscribe")
    subscriptions: list[Subscription] = []
    checked_include = {} if include is None else _include(include)
    if subscribe is not None:
        if not isinstance(subscribe, list):
            raise _Invalid('"subscribe" must be a list of subscription entries', "subscribe")
        subscriptions = [_subscription(i, entry) for i, entry in enumerate(subscribe)]
    raw_visibility = data.get("tools_visibility")
    visibility = DEFAULT_VISIBILITY if raw_visibility is None else _visibility(raw_visibility)
    return Manifest(
        name=name,
        description=description.strip(),
        version=checked["version"],
        author=checked["author"],
        tags=tuple(tags or ()),
        include=checked_include,
        subscribe=tuple(subscriptions),
        visibility=visibility,
    )


def read_manifest(path: Path) -> tuple[Manifest | None, Problem | None]:
    """The manifest at ``path``, or ``None`` and the problem that drops the bundle."""
    not_mapping = "skill.yaml is not a valid YAML mapping"
    try:
        # Bounded and non-blocking, as every file tooldrop reads: a FIFO is refused.
        text = read_regular_file(path, MAX_MANIFEST_BYTES).decode("utf-8")
    except FileRefused as exc:
        return None, Problem(path=path, message=f"skill.yaml is refused: {exc.strerror}")
    except OSError as exc:
        return None, Problem(path=path, message=f"cannot read skill.yaml: {exc.strerror or exc}")
    except UnicodeDecodeError:
        return None, Problem(path=path, line=1, message=f"{not_mapping}: it is not UTF-8 text")
    # YAML is imported when a bundle is found: `import tooldrop` does not pay for it.
    from ..yaml12 import YamlError, compose, line_of, load, too_big

    text = text.removeprefix("\ufeff")
    try:
        value = load(text)
    except YamlError as exc:
        return None, Problem(path=path, line=exc.line, message=f"{not_mapping}: {exc.message}")
    if (why := too_big(value, MAX_SKILL_VALUES)) is not None:
        return None, Problem(path=path, line=1, message=f"{not_mapping}: {why}")
    if value is None:
        value = {}
    if not isinstance(value, dict):
        return None, Problem(path=path, line=1, message=not_mapping)
    try:
        return _manifest(value), None
    except _Invalid as exc:
        line = line_of(compose(text), exc.path) or 1
        return None, Problem(path=path, line=line, field=_field_name(exc.path), message=exc.message)
