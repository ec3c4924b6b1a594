"""The core's essential schema plugin, apart from the checks it runs.

Every host registers it at start-up; the checks (``_schema``: jsonschema, the dialects, RE2
patterns, the fast path) are imported by the first call that validates arguments, so a host
that only lists tools never imports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..hookspecs import hookimpl

if TYPE_CHECKING:
    from .._model import ToolSpec

__all__ = ["SchemaValidation"]


class SchemaValidation:
    """The core's own ``tooldrop_validate_args``: every tool's arguments meet its schema."""

    @hookimpl
    def tooldrop_validate_args(self, spec: ToolSpec, args: Mapping[str, Any]) -> list[str]:
        from ._schema import validate_args

        return validate_args(spec, args)
