"""``config.yaml``: the ``alwaysAllow`` and ``disabledTools`` lists the CLI honours.

Both ``config.yaml`` in the personal config dir and the project's ``.<app>/config.yaml`` are
read and their lists merged, with one exception: the project's ``alwaysAllow`` counts only while
the project is trusted (``tooldrop trust``). A cloned repository must not be able to
auto-approve tools, its own or yours, by shipping a config file.
"""

from __future__ import annotations

from pathlib import Path

from attrs import define, field

from .._model import Problem

__all__ = ["Settings", "load_settings"]

KEYS = ("alwaysAllow", "disabledTools")


@define
class Settings:
    always_allow: set[str] = field(factory=set)
    disabled_tools: set[str] = field(factory=set)
    problems: list[Problem] = field(factory=list)
    #: The project's ``alwaysAllow``, kept apart: it applies only to a trusted project.
    project_always_allow: set[str] = field(factory=set)


def _read(path: Path, settings: Settings, always_allow: set[str]) -> None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return
    except OSError as exc:
        settings.problems.append(Problem(path=path, message=f"cannot read: {exc.strerror}"))
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


def load_settings(project_dir: Path, config_dir: Path, app: str) -> Settings:
    settings = Settings()
    _read(config_dir / "config.yaml", settings, settings.always_allow)
    _read(project_dir / f".{app}" / "config.yaml", settings, settings.project_always_allow)
    return settings
