"""A sandbox for tooldrop's shell tools: bubblewrap on Linux (``sandbox-exec`` sketched, untested,
on macOS), composed through the ``tooldrop_confinement`` and ``tooldrop_wrap_command`` hooks.

The plugin itself is :mod:`tooldrop_sandbox.plugin`; the names here let hosts and tests see
the rules it applies: :func:`policy_for` (what a tool may write, whether it has the network)
and :func:`bwrap_argv` (the command line that enforces it).
"""

from __future__ import annotations

from . import plugin
from ._bwrap import Probe, bwrap_argv, probe_bwrap
from ._explain import explainer
from ._policy import Policy, policy_for, protected_paths
from ._seatbelt import seatbelt_argv, seatbelt_profile
from .plugin import probe

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
