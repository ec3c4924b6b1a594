"""An ASGI app factory for running ``tooldrop serve --http`` under uvicorn's own workers.

::

    TOOLDROP_PROJECT=/srv/project TOOLDROP_SERVE_TOKEN_FILE=/etc/tooldrop/tokens \\
        uvicorn --factory tooldrop_mcp.asgi:create_app --workers 4 --host 0.0.0.0

Configured by the environment (a worker process has no command line of its own):
``TOOLDROP_PROJECT`` (default: the working directory), ``TOOLDROP_SERVE_TOKEN_FILE`` and/or
``TOOLDROP_SERVE_TOKENS`` (required: a factory cannot know whether it listens beyond
loopback), ``TOOLDROP_SERVE_ALLOW_HOSTS`` and ``TOOLDROP_SERVE_ALLOW_ORIGINS``
(comma-separated), ``TOOLDROP_MODE`` (the approval mode for every client), and
``TOOLDROP_CONFIG_DIR`` as everywhere. Always stateless: uvicorn spreads connections over
the workers, so the requests of one session could reach any of them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tooldrop import MODES, Mode, ToolHost
from tooldrop.cli import CliContext, load_plugin_set

__all__ = ["create_app"]


def _listed(value: str | None) -> list[str]:
    return [item.strip() for item in (value or "").split(",") if item.strip()]


def create_app(environ: Mapping[str, str] | None = None) -> Any:
    """The Starlette app serving the configured project statelessly at ``/mcp``."""
    from ._auth import load_tokens
    from ._guard import Bind
    from ._http import HttpOptions, HttpToolServer, build_app

    env = dict(os.environ if environ is None else environ)
    token_file = env.get("TOOLDROP_SERVE_TOKEN_FILE")
    tokens, warnings = load_tokens(Path(token_file) if token_file else None, env)
    if not tokens:
        raise RuntimeError(
            "tooldrop_mcp.asgi: no tokens; set TOOLDROP_SERVE_TOKEN_FILE or TOOLDROP_SERVE_TOKENS"
        )
    mode = env.get("TOOLDROP_MODE") or None
    if mode is not None and mode not in MODES:
        raise RuntimeError(f"tooldrop_mcp.asgi: TOOLDROP_MODE={mode!r} is not one of {MODES}")
    plugin_set = load_plugin_set()
    project = env.get("TOOLDROP_PROJECT") or str(Path.cwd())
    contexts: list[CliContext] = []

    def host_for(host_mode: Mode) -> ToolHost:
        context = CliContext(
            project=project, user_dir=None, app="tooldrop", mode=host_mode, plugin_set=plugin_set
        )
        contexts.append(context)
        return context.host

    options = HttpOptions(
        bind=Bind("0.0.0.0", 0),  # noqa: S104 - unknown here; only --allow-host names are checked
        tokens=tokens,
        stateless=True,
        allow_hosts=_listed(env.get("TOOLDROP_SERVE_ALLOW_HOSTS")),
        allow_origins=_listed(env.get("TOOLDROP_SERVE_ALLOW_ORIGINS")),
    )
    server = HttpToolServer(
        host_for, mode=mode, poll_interval=1.0, limits=options.limits, stateless=True
    )

    def close() -> None:
        for context in contexts:
            context.close()

    app, _manager = build_app(server, options, on_shutdown=close)
    for warning in warnings:
        print(f"tooldrop serve: {warning}", flush=True)
    return app
