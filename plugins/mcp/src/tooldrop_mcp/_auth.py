"""Bearer tokens for ``tooldrop serve --http``: a fixed set, from a file or the environment.

Each token has an id (``alice: <token>`` in the file, or a fingerprint of the token); the id
is what logs and sessions name, never the token. A presented token is compared with every
known token in constant time (digests of equal length, no early exit), so neither timing
nor the order of the file tells an attacker anything about how close a guess was.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
from pathlib import Path

from attrs import frozen
from mcp.server.auth.provider import AccessToken

__all__ = ["TOKEN_ENV", "Token", "TokenError", "TokenVerifier", "load_tokens", "parse_tokens"]

#: The environment variable holding tokens (same format as a token file).
TOKEN_ENV = "TOOLDROP_SERVE_TOKENS"  # noqa: S105 - a variable's name, not a secret
#: Shorter secrets are guessable; refuse them.
MIN_TOKEN_LENGTH = 16


class TokenError(ValueError):
    """A token file or variable that cannot be used; the message names where and why."""


@frozen
class Token:
    """One accepted bearer token and the id it is known by."""

    id: str
    digest: bytes


def _digest(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def fingerprint(secret: str) -> str:
    """An id for an unnamed token: safe to log, useless to an attacker."""
    return "sha256:" + hashlib.sha256(secret.encode()).hexdigest()[:12]


def parse_tokens(text: str, where: str) -> list[Token]:
    """Tokens from ``id: token`` or bare ``token`` lines; ``#`` starts a comment line.

    :param where: The file or variable, for error messages (``FILE, line N: ...``).
    """
    tokens: list[Token] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, secret = line.partition(":")
        if sep and " " not in name.strip() and secret.strip():
            name, secret = name.strip(), secret.strip()
        else:
            name, secret = "", line
        if any(c.isspace() for c in secret):
            raise TokenError(f"{where}, line {number}: a token cannot contain spaces")
        if len(secret) < MIN_TOKEN_LENGTH:
            raise TokenError(
                f"{where}, line {number}: token is {len(secret)} characters; "
                f"use at least {MIN_TOKEN_LENGTH} random ones (e.g. `openssl rand -hex 32`)"
            )
        name = name or fingerprint(secret)
        if name in seen:
            raise TokenError(
                f"{where}, line {number}: id {name!r} is already used on line {seen[name]}"
            )
        seen[name] = number
        tokens.append(Token(name, _digest(secret)))
    return tokens


def load_tokens(
    token_file: Path | None, environ: dict[str, str] | None = None
) -> tuple[list[Token], list[str]]:
    """The tokens from ``token_file`` and :data:`TOKEN_ENV`, and warnings about them."""
    environ = dict(os.environ) if environ is None else environ
    tokens: list[Token] = []
    warnings: list[str] = []
    if token_file is not None:
        try:
            text = token_file.read_text(encoding="utf-8")
            mode = token_file.stat().st_mode
        except (OSError, UnicodeError) as exc:
            raise TokenError(f"{token_file}: cannot read the token file ({exc})") from exc
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            warnings.append(f"{token_file}: readable by other users; `chmod 600` it")
        found = parse_tokens(text, str(token_file))
        if not found:
            raise TokenError(f"{token_file}: no tokens in the token file")
        tokens += found
    if environ.get(TOKEN_ENV, "").strip():
        tokens += parse_tokens(environ[TOKEN_ENV], f"${TOKEN_ENV}")
    ids = [t.id for t in tokens]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise TokenError(f"token id {duplicates[0]!r} is in both {token_file} and ${TOKEN_ENV}")
    return tokens, warnings


class TokenVerifier:
    """The SDK's ``TokenVerifier`` for a fixed set of tokens."""

    def __init__(self, tokens: list[Token]) -> None:
        self._tokens = list(tokens)

    def identify(self, presented: str) -> str | None:
        """The id of the token presented, or ``None``; time does not depend on which matched."""
        digest = _digest(presented)
        match: str | None = None
        for token in self._tokens:  # every token is compared, whatever matched before
            if hmac.compare_digest(digest, token.digest):
                match = token.id
        return match

    async def verify_token(self, token: str) -> AccessToken | None:
        token_id = self.identify(token)
        if token_id is None:
            return None
        # The SDK keeps the AccessToken on the request; it carries the id, not the secret.
        return AccessToken(token=token_id, client_id=token_id, scopes=[])
