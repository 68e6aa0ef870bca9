"""A tiny public internet for the watchers: resources by configured URL, through MockTransport.

Requests are routed by host, path and the *configured* query (``path=``, ``author=``, ``q=``);
the query a watcher adds for paging (``since``, ``per_page``, ``sort`` ...) does not change
the route, and is kept on ``Web.requests`` for tests to read. Any other URL fails the test.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

PAGING = {"since", "per_page", "sort", "order", "direction", "limit"}

Responder = Callable[[httpx.Request], httpx.Response]


def route(url: httpx.URL | str) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    u = httpx.URL(url)
    kept = tuple(sorted((k, v) for k, v in u.params.multi_items() if k not in PAGING))
    return (u.host, u.path, kept)


@dataclass
class Resource:
    """One URL's current answer. Honours If-None-Match like a real server (304)."""

    body: bytes
    content_type: str = "application/json; charset=utf-8"
    version: int = 1
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def etag(self) -> str:
        return f'W/"v{self.version}"'

    def set(self, data: Any) -> None:
        self.body = encode(data)
        self.version += 1

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.headers.get("if-none-match") == self.etag:
            return httpx.Response(304, headers={"ETag": self.etag})
        return httpx.Response(
            200,
            content=self.body,
            headers={"Content-Type": self.content_type, "ETag": self.etag, **self.headers},
        )


def encode(data: Any) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, str):
        return data.encode("utf-8")
    return json.dumps(data).encode("utf-8")


class Web:
    def __init__(self) -> None:
        self.routes: dict[tuple[str, str, tuple[tuple[str, str], ...]], Responder] = {}
        self.requests: list[httpx.Request] = []
        self.unexpected: list[str] = []

    def serve(self, url: str, data: Any, *, content_type: str | None = None) -> Resource:
        kind = content_type or ("application/json" if not isinstance(data, str) else "text/html")
        resource = Resource(encode(data), kind)
        self.routes[route(url)] = resource
        return resource

    def on(self, url: str, responder: Responder) -> None:
        self.routes[route(url)] = responder

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        responder = self.routes.get(route(request.url))
        if responder is None:
            self.unexpected.append(str(request.url))
            pytest.fail(f"the watchers fetched an unexpected URL: {request.url}")
        return responder(request)

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self.handle))

    def hits(self, url: str) -> list[httpx.Request]:
        return [r for r in self.requests if route(r.url) == route(url)]


# Failure answers, each shaped like the real thing.


def rate_limited_github(reset: dt.datetime) -> Responder:
    """GitHub's primary rate limit: 403, remaining 0, reset as epoch seconds."""
    return lambda request: httpx.Response(
        403,
        json={
            "message": "API rate limit exceeded for 203.0.113.7.",
            "documentation_url": "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting",
        },
        headers={
            "X-RateLimit-Limit": "60",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": str(int(reset.timestamp())),
        },
    )


def too_many_requests(seconds: int) -> Responder:
    return lambda request: httpx.Response(
        429, text="Too Many Requests", headers={"Retry-After": str(seconds)}
    )


def server_error(request: httpx.Request) -> httpx.Response:
    return httpx.Response(502, text="<html><body>502 Bad Gateway</body></html>")


def timeout(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("timed out reading the response", request=request)


def malformed(request: httpx.Request) -> httpx.Response:
    return httpx.Response(
        200, content=b'[{"id": 1, "body": "trunc', headers={"Content-Type": "application/json"}
    )


def oversized(size: int) -> Responder:
    """A body larger than the cap, streamed without a Content-Length."""

    async def chunks() -> AsyncIterator[bytes]:
        block = b"x" * 65536
        for _ in range(size // len(block) + 1):
            yield block

    return lambda request: httpx.Response(200, content=chunks())


def slow_drip(seconds: float) -> Responder:
    async def chunks() -> AsyncIterator[bytes]:
        yield b"["
        await asyncio.sleep(seconds)
        yield b"]"

    return lambda request: httpx.Response(200, content=chunks())
