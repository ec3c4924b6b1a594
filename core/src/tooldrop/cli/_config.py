"""``.<app>/config.yaml``: the ``alwaysAllow`` and ``disabledTools`` lists the CLI honours.

Both the project's ``.<app>/config.yaml`` and ``config.yaml`` in the personal config dir are
read; their lists are merged.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from attrs import define, field

from .._model import Problem

__all__ = ["Settings", "load_settings"]

KEYS = ("alwaysAllow", "disabledTools")


@define
class Settings:
    always_allow: set[str] = field(factory=set)
    disabled_tools: set[str] = field(factory=set)
    problems: list[Problem] = field(factory=list)


def _read(path: Path, settings: Settings) -> None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return
    except OSError as exc:
        settings.problems.append(Problem(path=path, message=f"cannot read: {exc.strerror}"))
        return
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
    for key, target in zip(KEYS, (settings.always_allow, settings.disabled_tools), strict=True):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            settings.problems.append(
                Problem(path=path, field=key, message="must be a list of tool names")
            )
            continue
        target.update(value)


def load_settings(project_dir: Path, config_dir: Path, app: str) -> Settings:
    settings = Settings()
    _read(config_dir / "config.yaml", settings)
    _read(project_dir / f".{app}" / "config.yaml", settings)
    return settings
