"""Python tools as values: :class:`~tooldrop.Tool`, the :func:`~tooldrop.tool` decorator.

A function's signature, type hints and docstring become a tool's schema and description;
arguments are coerced back to the hinted types when it runs. The core runs such tools itself
(``_backend``, an essential plugin; ``_runner`` and ``_results``): each call in a thread of
its own, bounded by its timeout, its return value made the text the model sees.
"""
