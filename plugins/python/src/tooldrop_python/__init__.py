"""Python module tools for tooldrop: personal ``*.py`` files whose ``default`` is a tool."""
