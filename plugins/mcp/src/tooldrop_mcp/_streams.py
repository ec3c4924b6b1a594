"""The stream pair a connection is served over, as protocols of our own.

The SDK annotates :meth:`mcp.server.lowlevel.Server.run` with protocols from its private
``mcp.shared._stream_protocols``, which it does not export. These have the same members, so
anything the SDK accepts (anyio's memory object streams, the SDK's own transports) fits
them, and mypy checks that ours still fit the SDK's wherever one is passed on.
"""

from __future__ import annotations

from types import TracebackType
from typing import Protocol, Self, TypeVar

__all__ = ["ReadStream", "WriteStream"]

T_co = TypeVar("T_co", covariant=True)
T_contra = TypeVar("T_contra", contravariant=True)


class _Closing(Protocol):
    """What both ends have: closing, also as an async context manager."""

    async def aclose(self) -> None: ...
    async def __aenter__(self) -> Self: ...
    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None: ...


class ReadStream(_Closing, Protocol[T_co]):
    """What a transport gives to read: messages (or the exceptions it met) in order."""

    async def receive(self) -> T_co: ...
    def __aiter__(self) -> ReadStream[T_co]: ...
    async def __anext__(self) -> T_co: ...


class WriteStream(_Closing, Protocol[T_contra]):
    """What a transport gives to write messages to the client."""

    async def send(self, item: T_contra, /) -> None: ...
