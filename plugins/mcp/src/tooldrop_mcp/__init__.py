"""Serve tooldrop's tools over the Model Context Protocol."""
