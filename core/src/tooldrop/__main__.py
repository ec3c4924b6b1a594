"""``python -m tooldrop``: the same as the ``tooldrop`` command."""

from tooldrop.cli import main

main()
