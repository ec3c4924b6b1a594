"""The host and discovery: :class:`~tooldrop.ToolHost`, plugins, settings, the scan and its cache.

Kernel. A host app talks to :class:`~tooldrop.ToolHost`; it loads the plugins (entry points,
each on its own), reads the personal and project settings, asks every loader for its tools,
checks what they produce and fills the registry. Everything public is re-exported by
:mod:`tooldrop`; the modules here are private.
"""
