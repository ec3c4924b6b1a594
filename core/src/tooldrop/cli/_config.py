"""``config.yaml``: the ``alwaysAllow`` and ``disabledTools`` lists the CLI honours.

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

from pathlib import Path

from attrs import define, field

from .._files import MAX_CONFIG_BYTES, read_regular_text
from .._model import SANDBOX_SETTINGS, Problem, SandboxSetting

__all__ = ["Settings", "load_settings"]

KEYS = ("alwaysAllow", "disabledTools")
PERSONAL_KEYS = ("sandbox", "sandboxUntrustedReadOnly")


@define
class Settings:
    always_allow: set[str] = field(factory=set)
    disabled_tools: set[str] = field(factory=set)
    problems: list[Problem] = field(factory=list)
    #: The project's ``alwaysAllow``, kept apart: it applies only to a trusted project.
    project_always_allow: set[str] = field(factory=set)
    #: ``None`` when the personal config does not say.
    sandbox: SandboxSetting | None = None
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
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        settings.problems.append(Problem(path=path, line=line, message=f"invalid YAML: {exc}"))
        return
    if data is None:
        return
    if not isinstance(data, dict):
        settings.problems.append(Problem(path=path, message="must be a mapping"))
        return
    for key, target in zip(KEYS, (always_allow, settings.disabled_tools), strict=True):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            settings.problems.append(
                Problem(path=path, field=key, message="must be a list of tool names")
            )
            continue
        target.update(value)
    if personal:
        _read_personal(path, data, settings)
        return
    for key in PERSONAL_KEYS:
        if key in data:
            message = "ignored here: the sandbox is set in the personal config.yaml only"
            settings.problems.append(
                Problem(path=path, field=key, message=message, severity="warning")
            )


def load_settings(project_dir: Path, config_dir: Path, app: str) -> Settings:
    settings = Settings()
    _read(config_dir / "config.yaml", settings, settings.always_allow, personal=True)
    project_config = project_dir / f".{app}" / "config.yaml"
    _read(project_config, settings, settings.project_always_allow, personal=False)
    return settings
