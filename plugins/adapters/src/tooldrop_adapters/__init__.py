"""tooldrop adapters."""
