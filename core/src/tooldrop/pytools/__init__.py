"""Python tools as values: :class:`~tooldrop.Tool`, the :func:`~tooldrop.tool` decorator.

A function's signature, type hints and docstring become a tool's schema and description;
arguments are coerced back to the hinted types when it runs.
"""
