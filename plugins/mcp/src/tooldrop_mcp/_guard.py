"""Where ``tooldrop serve --http`` may listen, and which browsers may talk to it.

DNS rebinding: a web page can make a browser send requests to ``127.0.0.1``, under a name
the attacker controls. Checking ``Host`` stops those (the name is not ours); checking
``Origin`` stops the pages a browser does label. Both are checked on every request, before
authentication, so a page learns nothing, not even whether a token would be needed.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from attrs import frozen
from mcp_types import INVALID_REQUEST
from starlette.types import ASGIApp, Receive, Scope, Send

from ._limits import error_response

__all__ = ["Bind", "Guard", "is_loopback", "parse_bind"]

DEFAULT_BIND = "127.0.0.1:8765"
_LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


@frozen
class Bind:
    host: str
    port: int

    @property
    def url_host(self) -> str:
        return f"[{self.host}]" if ":" in self.host else self.host


def parse_bind(text: str) -> Bind:
    """``HOST:PORT``, ``[IPV6]:PORT``, ``HOST`` or ``:PORT``; raises ``ValueError`` with why."""
    text = text.strip()
    host, port_text = DEFAULT_BIND.split(":")
    if text.startswith("["):
        inside, sep, rest = text[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            raise ValueError(f"{text!r}: write an IPv6 address as [ADDRESS]:PORT")
        host, port_text = inside, rest[1:] or port_text
    elif text.count(":") == 1:
        host, port_text = text.split(":")
        host = host or "127.0.0.1"
    elif ":" in text:
        raise ValueError(f"{text!r}: write an IPv6 address as [ADDRESS]:PORT")
    elif text:
        host = text
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"{text!r}: the port {port_text!r} is not a number") from None
    if not 0 <= port <= 65535:
        raise ValueError(f"{text!r}: the port {port} is not between 0 and 65535")
    return Bind(host, port)


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach ``host`` (a name other than localhost: no)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _matches(value: str, allowed: Iterable[str]) -> bool:
    for pattern in allowed:
        if pattern.endswith(":*"):
            base = pattern[:-2]
            if value == base or (value.startswith(base + ":") and value[len(base) + 1 :].isdigit()):
                return True
        elif value == pattern:
            return True
    return False


def default_hosts(bind: Bind) -> list[str]:
    """The ``Host`` values a server bound to ``bind`` answers without being told more.

    Loopback: the loopback names, any port. A specific address: that address. A wildcard
    address (0.0.0.0, ::): none, so only ``--allow-host`` names are checked (or, with no
    ``--allow-host`` at all, any: a token is then the only protection, see the docs).
    """
    if is_loopback(bind.host):
        return [f"{h}:*" for h in _LOOPBACK_HOSTS]
    try:
        address = ipaddress.ip_address(bind.host)
    except ValueError:
        return [f"{bind.host}:*"]
    return [] if address.is_unspecified else [f"{bind.url_host}:*"]


class Guard:
    """Refuse requests whose ``Host`` or ``Origin`` is not allowed, with a JSON-RPC error.

    :param hosts: Allowed ``Host`` values (``name:*`` for any port); ``None`` checks none.
    :param origins: Allowed ``Origin`` values; a request without ``Origin`` (not from a
        browser) passes. No origins: every browser page is refused.
    """

    def __init__(self, app: ASGIApp, hosts: list[str] | None, origins: list[str]) -> None:
        self.app, self.hosts, self.origins = app, hosts, origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        hosts = [v.decode("latin-1") for k, v in scope["headers"] if k == b"host"]
        origins = [v.decode("latin-1") for k, v in scope["headers"] if k == b"origin"]
        if len(hosts) > 1 or len(origins) > 1:  # which one would the next layer read?
            response = error_response(400, INVALID_REQUEST, "More than one Host or Origin header")
            await response(scope, receive, send)
            return
        host = hosts[0] if hosts else ""
        origin = origins[0] if origins else None
        if self.hosts is not None and not _matches(host, self.hosts):
            response = error_response(421, INVALID_REQUEST, f"Host {host!r} is not served here")
            await response(scope, receive, send)
            return
        if origin is not None and not _matches(origin, self.origins):
            message = "Cross-origin requests are not allowed (start the server with --allow-origin)"
            await error_response(403, INVALID_REQUEST, message)(scope, receive, send)
            return
        await self.app(scope, receive, send)
