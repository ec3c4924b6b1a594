"""JSON Schema: argument validation, the load-time schema check, and ECMA-262 patterns on RE2.

Used by the kernel through the ``tooldrop_validate_args`` hook's built-in implementation.
"""
