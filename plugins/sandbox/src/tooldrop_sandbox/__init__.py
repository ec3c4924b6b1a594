"""A sandbox for tooldrop's shell tools: bubblewrap on Linux (``sandbox-exec`` sketched, untested,
on macOS), composed through the ``tooldrop_confinement`` and ``tooldrop_wrap_command`` hooks.

The plugin itself is :mod:`tooldrop_sandbox.plugin`; the names here let hosts and tests see
the rules it applies: :func:`policy_for` (what a tool may write, whether it has the network)
and :func:`bwrap_argv` (the command line that enforces it).
"""

from __future__ import annotations

import typing as _typing

from . import plugin
from .plugin import probe

if _typing.TYPE_CHECKING:
    from ._bwrap import Probe, bwrap_argv, probe_bwrap
    from ._explain import explainer
    from ._policy import Policy, policy_for, protected_paths
    from ._seatbelt import seatbelt_argv, seatbelt_profile

# Imported on first use, as the plugin does: a start-up that only lists tools needs none.
_HOMES = {
    "Probe": "_bwrap",
    "bwrap_argv": "_bwrap",
    "probe_bwrap": "_bwrap",
    "explainer": "_explain",
    "Policy": "_policy",
    "policy_for": "_policy",
    "protected_paths": "_policy",
    "seatbelt_argv": "_seatbelt",
    "seatbelt_profile": "_seatbelt",
}

__all__ = [
    "Policy",
    "Probe",
    "bwrap_argv",
    "explainer",
    "plugin",
    "policy_for",
    "probe",
    "probe_bwrap",
    "protected_paths",
    "seatbelt_argv",
    "seatbelt_profile",
]


def __getattr__(name: str) -> _typing.Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # next time, a plain attribute
    return value
