"""One measurement in a fresh process, so no in-process cache flatters a "cold" run.

    python tests/bench/_worker.py MODE PROJECT USER_DIR

The ``public-*`` modes and ``floor-public`` time their imports too (entry points, plugin
imports, ``import yaml``): on the public path those are part of what a user waits for.

Prints one JSON object: ``seconds`` (the measured part only, after imports) and ``rss_kb``
(peak RSS growth during it).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time


def peak_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def floor(project: str) -> None:
    """List the folder, read each file, parse its frontmatter with the C loader. Nothing else."""
    import yaml

    loader = yaml.CSafeLoader
    folder = os.path.join(project, ".tooldrop", "tools")
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as handle:
            text = handle.read().decode()
        end = text.index("\n---", 3)
        yaml.load(text[4:end], Loader=loader)


def discovery(project: str, user: str, cache: bool) -> None:
    import tooldrop.approval
    import tooldrop_markdown.plugin
    import tooldrop_shell.plugin
    from tooldrop import ToolHost

    plugins = [tooldrop.approval, tooldrop_markdown.plugin, tooldrop_shell.plugin]
    host = ToolHost(project_dir=project, user_dir=user, plugins=plugins, cache=cache)
    tools = host.all_tools()
    assert tools, host.problems()[:3]
    global _keep
    _keep = tools


def public(project: str, user: str, cache: bool) -> None:
    """What a user runs: ``ToolHost(project_dir=...).tools()`` with the installed entry-point
    plugins, ``import tooldrop`` included (the caller starts the clock before it)."""
    from tooldrop import ToolHost

    tools = ToolHost(project_dir=project, user_dir=user, cache=cache).tools()
    assert tools
    global _keep
    _keep = tools


def floor_public(project: str) -> None:
    """:func:`floor`, ``import yaml`` included: the floor of the public path."""
    import yaml  # noqa: F401

    floor(project)


def flood(project: str, user: str) -> None:
    """A call whose tool prints 1 GiB."""
    import tooldrop.approval
    import tooldrop_markdown.plugin
    import tooldrop_shell.plugin
    from tooldrop import ToolHost

    plugins = [tooldrop.approval, tooldrop_markdown.plugin, tooldrop_shell.plugin]
    host = ToolHost(project_dir=project, user_dir=user, plugins=plugins, cache=False)
    result = host.call("flood", {})
    assert "Output truncated: 1073741836 characters total" in result.text, result.text[:300]


def main() -> None:
    mode, project, user = sys.argv[1:4]
    if mode == "empty":
        return  # start-up alone, for instruction counts (ab.py --callgrind --public)
    if mode.startswith(("public", "floor-public")):
        pass  # the public path is timed with its imports: they are part of what a user waits for
    elif mode in ("discovery-cold", "discovery-warm", "flood"):
        # Import what the measured part needs first: imports are not discovery (the floor
        # imports yaml first too). The markdown loader itself is imported on first use.
        import tooldrop.approval  # noqa: F401
        import tooldrop_markdown._loader
        import tooldrop_markdown.plugin  # noqa: F401
        import tooldrop_shell.plugin  # noqa: F401
    else:
        import yaml  # noqa: F401
    before = peak_kb()
    start = time.perf_counter()
    if mode == "floor":
        floor(project)
    elif mode == "discovery-cold":
        discovery(project, user, cache=False)
    elif mode == "discovery-warm":
        discovery(project, user, cache=True)
    elif mode == "flood":
        flood(project, user)
    elif mode == "public-cold":
        public(project, user, cache=False)
    elif mode == "public-warm":
        public(project, user, cache=True)
    elif mode == "floor-public":
        floor_public(project)
    else:
        raise SystemExit(f"unknown mode {mode}")
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "rss_kb": peak_kb() - before}))


_keep: object = None

if __name__ == "__main__":
    main()
