"""A hostile HTTP server on loopback: real sockets on 127.0.0.1, raw HTTP/1.1 bytes.

Written on asyncio streams rather than a web framework so that it can send what no framework
would: ``Content-Encoding: gzip, gzip``, a Content-Length of ten gigabytes, a body one byte a
second, a reset instead of an answer. Each ``site`` listens on its own port, so it is its own
host to the watchers (sources on one host are polled one after another; on two, side by side).

    async with HostileServer() as server:
        base = await server.site(answer(500, b"oops"))       # http://127.0.0.1:PORT
        slow = await server.site(route({"/a": ok, "/b": Trickle(b"[]")}))
"""

from __future__ import annotations

import asyncio
import http
import socket
import struct
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Request:
    method: str
    target: str  # path and query, as sent
    headers: dict[str, str]  # names lower-cased

    @property
    def path(self) -> str:
        return urlsplit(self.target).path


Handler = Callable[[Request, asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


class HostileServer:
    def __init__(self) -> None:
        self._servers: list[asyncio.Server] = []
        self._connections: set[asyncio.Task[None]] = set()
        self.requests: list[Request] = []

    async def site(self, handler: Handler) -> str:
        """Serve ``handler`` on a new port of 127.0.0.1; its base URL, without a trailing /."""

        async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await self._serve(handler, reader, writer)

        server = await asyncio.start_server(connected, "127.0.0.1", 0)
        self._servers.append(server)
        port = server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def _serve(
        self, handler: Handler, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=10)
            request = _request(head)
            self.requests.append(request)
            await handler(request, reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass  # the client hung up (as it should, past a cap or a deadline)
        except (TimeoutError, asyncio.CancelledError):
            pass  # a client that sent nothing; or the server closing (3.11's streams would
            # report a cancelled connection task as an error)
        finally:
            self._connections.discard(task)
            writer.close()

    async def aclose(self) -> None:
        for server in self._servers:
            server.close()
        for task in list(self._connections):
            task.cancel()
        await asyncio.gather(*self._connections, return_exceptions=True)
        for server in self._servers:
            await server.wait_closed()

    async def __aenter__(self) -> HostileServer:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.aclose()


def _request(head: bytes) -> Request:
    line, *fields = head.decode("latin-1").split("\r\n")
    method, target, _ = line.split(" ", 2)
    headers = {}
    for f in fields:
        if ":" in f:
            name, value = f.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    return Request(method, target, headers)


def head(status: int, headers: Mapping[str, str] = {}) -> bytes:  # noqa: B006 (never mutated)
    """A status line and headers, exactly as given (no Content-Length unless one is given)."""
    lines = [f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def answer(status: int, body: bytes = b"", headers: Mapping[str, str] | None = None) -> Handler:
    """One answer, with the body's Content-Length unless ``headers`` declare another."""
    fields = {"Content-Length": str(len(body)), **(headers or {})}

    async def handle(r: Request, reader: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        w.write(head(status, fields) + body)
        await w.drain()

    return handle


def stream(
    chunks: Iterable[bytes] | Callable[[], Iterable[bytes]], headers: Mapping[str, str]
) -> Handler:
    """A 200 whose body runs until the connection closes (no Content-Length), chunk by chunk."""

    async def handle(r: Request, reader: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        w.write(head(200, headers))
        for chunk in chunks() if callable(chunks) else chunks:
            w.write(chunk)
            await w.drain()

    return handle


@dataclass
class Trickle:
    """A 200 that sends its body one byte every ``every`` seconds, and notes when the client
    hung up (``hung_up``: seconds after the first byte, one entry per connection)."""

    body: bytes
    every: float = 1.0
    content_type: str = "application/json"
    hung_up: list[float] = field(default_factory=list)

    async def __call__(
        self, request: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        writer.write(head(200, {"Content-Type": self.content_type}))
        started = time.monotonic()
        gone = asyncio.ensure_future(reader.read())  # EOF: the client closed its end
        try:
            for byte in self.body:
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.wait({gone}, timeout=self.every)
                if gone.done():
                    self.hung_up.append(time.monotonic() - started)
                    return
        finally:
            gone.cancel()


async def reset(
    request: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    """The request read, then a TCP reset instead of an answer."""
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


def route(table: dict[str, Handler]) -> Handler:
    """Dispatch on the path (the query is ignored); the table may be changed between cycles."""

    async def handle(r: Request, reader: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        handler = table.get(r.path)
        if handler is None:
            await answer(404, b"not here")(r, reader, w)
        else:
            await handler(r, reader, w)

    return handle
