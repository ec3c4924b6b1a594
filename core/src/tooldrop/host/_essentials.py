"""The core's essential plugins, and the plugin set a host starts from.

Essential plugins are always registered, like pytest's: the JSON Schema check, the default
approval policy and the backend of in-process Python tools are what the documented behaviour
rests on, so neither ``TOOLDROP_PLUGINS`` nor an explicit ``plugins`` list leaves them out. A
policy of your own goes before the default one with ``tryfirst=True``; the Python backend is
``trylast``, so a plugin's own backend for ``python`` tools goes before it anyway.
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import approval
from ..pytools._backend import PythonBackend
from ..schemas._essential import SchemaValidation
from ._plugins import PluginSet

__all__ = ["load_plugin_set"]


def load_plugin_set(plugins: Iterable[object] | None = None) -> PluginSet:
    """The core's essential plugins plus ``plugins``, or the installed entry points when ``None``.

    Load it once and hand it to every :class:`~tooldrop.ToolHost` that should share it
    (``ToolHost(plugins=plugin_set)``): the CLI does, to find plugin commands before it builds
    the host.
    """
    plugin_set = PluginSet()
    plugin_set.add_builtin(SchemaValidation(), "tooldrop.schema")
    plugin_set.add_builtin(approval, "approval")
    # The core builds runner-"python" specs (tooldrop.Tool, to_spec), so it runs them too: a
    # plugin's tools must not depend on tooldrop-python being installed (issue 19).
    plugin_set.add_builtin(PythonBackend(), "tooldrop.python")
    if plugins is None:
        plugin_set.load_entry_points()
    else:
        plugin_set.load_explicit(plugins)
    plugin_set.finish()
    return plugin_set
