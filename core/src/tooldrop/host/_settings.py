"""``config.yaml``: the ``alwaysAllow`` and ``disabledTools`` lists every host honours.

A :class:`~tooldrop.ToolHost` reads them itself (the CLI, the MCP server and an embedding app
alike), unless it is given ``settings=``.

Both ``config.yaml`` in the personal config dir and the project's ``.<app>/config.yaml`` are
read and their lists merged, with one exception: the project's ``alwaysAllow`` counts only while
the project is trusted (``tooldrop trust``). A cloned repository must not be able to
auto-approve tools, its own or yours, by shipping a config file.

The sandbox settings, ``sandbox`` (``off``, ``auto``, ``required``) and
``sandboxUntrustedReadOnly`` (let an untrusted project's read-only tools run confined instead
of asking), are read from the personal file only: a project must not be able to switch off the
sandbox, or let its own tools run unasked.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path

from attrs import define, field

from .._files import MAX_CONFIG_BYTES, read_regular_text
from .._model import SANDBOX_SETTINGS, Problem, SandboxSetting

__all__ = ["Settings", "config_dir_for", "load_settings"]

KEYS = ("alwaysAllow", "disabledTools")
PERSONAL_KEYS = ("sandbox", "sandboxUntrustedReadOnly")


@define
class Settings:
    """What the personal ``config.yaml`` and the project's ``.<app>/config.yaml`` say.

    Made by :func:`load_settings`, or by hand to give a :class:`~tooldrop.ToolHost` exactly
    these settings (``ToolHost(settings=Settings())`` reads no config file at all). The
    project's ``alwaysAllow`` is kept apart: the host applies it only while the project is
    trusted.
    """

    #: The personal ``alwaysAllow``: names that skip the approval prompt.
    always_allow: set[str] = field(factory=set)
    #: ``disabledTools`` of both files: names that are never loaded.
    disabled_tools: set[str] = field(factory=set)
    #: What is wrong in the files, each with its file, line and field.
    problems: list[Problem] = field(factory=list)
    #: The project's ``alwaysAllow``, kept apart: it applies only to a trusted project.
    project_always_allow: set[str] = field(factory=set)
    #: ``None`` when the personal config does not say.
    sandbox: SandboxSetting | None = None
    #: The personal ``sandboxUntrustedReadOnly``.
    sandbox_untrusted_read_only: bool = False


def _read_personal(path: Path, data: dict[str, object], settings: Settings) -> None:
    value = data.get("sandbox")
    if value is False:  # YAML 1.1 reads a bare `off` as false
        value = "off"
    if value is not None:
        if value in SANDBOX_SETTINGS:
            settings.sandbox = value
        else:
            expected = ", ".join(SANDBOX_SETTINGS)
            settings.problems.append(
                Problem(path=path, field="sandbox", message=f"must be one of: {expected}")
            )
    value = data.get("sandboxUntrustedReadOnly")
    if value is not None:
        if isinstance(value, bool):
            settings.sandbox_untrusted_read_only = value
        else:
            message = "must be true or false"
            settings.problems.append(
                Problem(path=path, field="sandboxUntrustedReadOnly", message=message)
            )


def _yaml_error(exc: Exception, text: str) -> tuple[int | None, str]:
    from ..yaml12 import syntax_error  # yaml is imported only when a config file exists

    line, message = syntax_error(exc, text)
    return line, f"invalid YAML: {message}"


def _key_line(text: str, key: str) -> int | None:
    """The line a top-level ``key:`` is on, for ``file:line: field:`` messages."""
    pattern = re.compile(rf"^[\"']?{re.escape(key)}[\"']?\s*:")
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return None


def _check_keys(path: Path, text: str, data: dict[object, object], settings: Settings) -> None:
    """A key tooldrop does not read is a warning, with the known key it is closest to: a
    misspelt ``alwaysallow`` silently allowing nothing is the surprise to avoid."""
    known = (*KEYS, *PERSONAL_KEYS)
    by_folded = {name.lower().replace("_", ""): name for name in known}
    for key in data:
        if key in known:
            continue
        shown = str(key)
        folded = shown.lower().replace("_", "").replace("-", "")
        close = [by_folded[f] for f in difflib.get_close_matches(folded, by_folded, n=1)]
        hint = f'did you mean "{close[0]}"?' if close else "known keys: " + ", ".join(known)
        settings.problems.append(
            Problem(
                path=path,
                line=_key_line(text, shown),
                field=shown,
                message=f"unknown key, ignored; {hint}",
                severity="warning",
            )
        )


def _read(path: Path, settings: Settings, always_allow: set[str], *, personal: bool) -> None:
    try:
        # A regular file, bounded, opened without blocking: a FIFO must not hang `list`.
        text = read_regular_text(path, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return
    except OSError as exc:
        settings.problems.append(Problem(path=path, message=f"cannot read: {exc.strerror}"))
        return
    except UnicodeDecodeError:
        settings.problems.append(Problem(path=path, message="cannot read: not UTF-8 text"))
        return
    import yaml  # only when a config file exists; `tooldrop list` often has none

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        line, message = _yaml_error(exc, text)
        settings.problems.append(Problem(path=path, line=line, message=message))
        return
    if data is None:
        return
    if not isinstance(data, dict):
        settings.problems.append(Problem(path=path, line=1, message="must be a mapping"))
        return
    _check_keys(path, text, data, settings)
    for key, target in zip(KEYS, (always_allow, settings.disabled_tools), strict=True):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            message = "must be a list of tool names"
            line = _key_line(text, key)
            settings.problems.append(Problem(path=path, line=line, field=key, message=message))
            continue
        target.update(value)
    if personal:
        _read_personal(path, data, settings)
        return
    for key in PERSONAL_KEYS:
        if key in data:
            message = "ignored here: the sandbox is set in the personal config.yaml only"
            line = _key_line(text, key)
            settings.problems.append(
                Problem(path=path, line=line, field=key, message=message, severity="warning")
            )


def load_settings(project_dir: Path, config_dir: Path, app: str) -> Settings:
    """Read ``config_dir/config.yaml`` and ``project_dir/.<app>/config.yaml`` (either may be
    missing); what is wrong in them is in ``.problems``, with file, line and field."""
    settings = Settings()
    _read(config_dir / "config.yaml", settings, settings.always_allow, personal=True)
    project_config = project_dir / f".{app}" / "config.yaml"
    _read(project_config, settings, settings.project_always_allow, personal=False)
    return settings


def config_dir_for(app: str, user_dir: str | os.PathLike[str] | None = None) -> Path:
    """The personal config dir: ``user_dir``, else ``$<APP>_CONFIG_DIR``, else the platform's."""
    if user_dir is not None:
        return Path(user_dir).expanduser().absolute()
    env = os.environ.get(f"{app.upper().replace('-', '_')}_CONFIG_DIR")
    if env:
        return Path(env).expanduser().absolute()
    import platformdirs

    return Path(platformdirs.user_config_dir(app, appauthor=False))
