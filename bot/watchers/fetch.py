"""The one place watchers meet the network: polite, bounded GETs of configured URLs only.

The ``httpx.AsyncClient`` is injected (tests pass one built on ``httpx.MockTransport``). Every
request here is

- **allowed**: its base URL was configured (a watch point's ``looks_at``); anything else is
  refused before a byte is sent, so nothing a chat user types can reach the network;
- **conditional**: the ETag / Last-Modified of the previous answer are sent back, and 304 is
  "nothing new" (free against GitHub's rate limit);
- **bounded**: connect/read timeouts, one overall deadline, and a body cap enforced while
  streaming (a declared Content-Length past the cap is refused before reading);
- **rate-limit aware**: 403/429 with ``Retry-After`` or ``X-RateLimit-Reset`` become
  ``SourceRateLimited(until)``; the host is then held until that time for every source on it
  (a host is an ``origin``: its name, and its port when that is not the default one).

httpx errors are translated into ``WatcherError`` here, once.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from bot.watchers.waits import MAX_WAIT, epoch_time, http_date, retry_after
from knowledge.clock import Clock
from knowledge.errors import SourceRateLimited, WatcherError

GITHUB_API_HOST = "api.github.com"
USER_AGENT = "marin-watch/0.1 (watches public records of the Marin 535B-A23B run)"

JSON = "application/json"
GITHUB_JSON = "application/vnd.github+json"
HTML = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
FEED = "application/atom+xml,application/rss+xml,application/xml;q=0.9,text/html;q=0.5"


@dataclass(frozen=True, kw_only=True)
class FetchPolicy:
    connect_timeout: float = 10.0
    read_timeout: float = 20.0
    # The whole request, body included: a source's own budget (a slow drip fails alone). Keep
    # it under the cycle's deadline (``deadline``), so that a source the cycle cut goes first
    # next time and ends, one way or the other, within its budget.
    deadline: float = 30.0
    max_bytes: int = 2 * 1024 * 1024
    # 429 (or a GitHub secondary limit) without a header saying how long: wait this long
    default_rate_limit_wait: dt.timedelta = dt.timedelta(minutes=10)


@dataclass(frozen=True)
class Validators:
    """What the previous answer for ``url`` said about itself, for a conditional request."""

    url: str
    etag: str | None = None
    last_modified: str | None = None


@dataclass(frozen=True)
class Fetched:
    url: str  # the full URL requested, query included
    status: int  # 200 or 304
    body: bytes
    etag: str | None
    last_modified: str | None
    server_date: dt.datetime | None
    content_type: str

    @property
    def not_modified(self) -> bool:
        return self.status == 304

    @property
    def validators(self) -> Validators:
        return Validators(self.url, self.etag, self.last_modified)

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise WatcherError(f"{self.url} answered malformed JSON: {exc}") from exc

    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


def origin(url: httpx.URL) -> str:
    """Whom politeness is owed to: a host, and its port when that is not the default one."""
    return url.host if url.port is None else f"{url.host}:{url.port}"


class Fetcher:
    def __init__(
        self,
        client: httpx.AsyncClient,
        *,
        allowed: Iterable[str],
        clock: Clock,
        github_token: str | None = None,
        policy: FetchPolicy | None = None,
    ) -> None:
        self.client = client
        self.allowed = frozenset(allowed)
        self.clock = clock
        self.github_token = github_token
        self.policy = policy or FetchPolicy()
        self._held: dict[str, dt.datetime] = {}  # origin → rate-limited until
        self.requests = 0  # requests actually sent (for tests and the benchmark)

    async def get(
        self,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        validators: Validators | None = None,
        accept: str = JSON,
        max_bytes: int | None = None,
    ) -> Fetched:
        if url not in self.allowed:
            raise WatcherError(f"refusing {url}: not a configured source")
        target = httpx.URL(url)
        if params:  # merged by hand: httpx's ``params=`` would replace the configured query
            target = target.copy_merge_params(dict(params))
        request = self.client.build_request(
            "GET",
            target,
            headers=self._headers(target.host, accept),
            timeout=httpx.Timeout(self.policy.read_timeout, connect=self.policy.connect_timeout),
        )
        full = str(request.url)
        self._check_hold(origin(request.url), full)
        if validators is not None and validators.url == full:
            if validators.etag:
                request.headers["If-None-Match"] = validators.etag
            if validators.last_modified:
                request.headers["If-Modified-Since"] = validators.last_modified
        cap = max_bytes or self.policy.max_bytes
        try:
            async with asyncio.timeout(self.policy.deadline):
                return await self._send(request, full, cap)
        except TimeoutError as exc:
            deadline = self.policy.deadline
            raise WatcherError(f"{full}: no complete answer within {deadline:g}s") from exc
        except httpx.TimeoutException as exc:
            raise WatcherError(f"{full}: timed out ({type(exc).__name__})") from exc
        except httpx.HTTPError as exc:
            raise WatcherError(
                f"{full}: network error ({type(exc).__name__}: {_why(exc)})"
            ) from exc

    async def _send(self, request: httpx.Request, full: str, cap: int) -> Fetched:
        self.requests += 1
        response = await self.client.send(request, stream=True)
        try:
            self._note_quota(origin(request.url), response)
            if response.status_code == 304:
                return self._fetched(full, response, b"")
            if response.status_code in (403, 429):
                raise self._rate_limited(full, response) or WatcherError(
                    f"{full}: HTTP {response.status_code} (forbidden)"
                )
            if 300 <= response.status_code < 400:
                where = response.headers.get("location", "?")
                raise WatcherError(
                    f"{full}: redirected to {where}; only configured URLs are fetched "
                    "(update looks_at in watch.toml)"
                )
            if response.status_code != 200:
                raise WatcherError(f"{full}: HTTP {response.status_code}")
            body = await _read_capped(response, full, cap)
            return self._fetched(full, response, body)
        finally:
            await response.aclose()

    def _headers(self, host: str, accept: str) -> dict[str, str]:
        # only the encodings _read_capped can inflate within its cap
        headers = {"User-Agent": USER_AGENT, "Accept": accept, "Accept-Encoding": "gzip, deflate"}
        if host == GITHUB_API_HOST:  # the token never travels to any other host
            headers["Accept"] = GITHUB_JSON
            headers["X-GitHub-Api-Version"] = "2022-11-28"
            if self.github_token:
                headers["Authorization"] = f"Bearer {self.github_token}"
        return headers

    def _check_hold(self, host: str, full: str) -> None:
        until = self._held.get(host)
        if until is not None and self.clock() < until:
            message = f"{full}: {host} asked us to wait until {until:%H:%M} UTC"
            raise SourceRateLimited(message, until)

    def _note_quota(self, host: str, response: httpx.Response) -> None:
        """A successful answer that spent the last request of the quota holds the host too."""
        if response.headers.get("x-ratelimit-remaining") == "0":
            reset = epoch_time(response.headers.get("x-ratelimit-reset"))
            if reset is not None:
                self._held[host] = reset

    def _rate_limited(self, full: str, response: httpx.Response) -> SourceRateLimited | None:
        now = self.clock()
        headers = response.headers
        until = retry_after(headers.get("retry-after"), now)
        if until is None and headers.get("x-ratelimit-remaining") == "0":
            # a reset we cannot read is still a spent quota: wait the longest we believe
            until = epoch_time(headers.get("x-ratelimit-reset")) or now + MAX_WAIT
        if until is None and response.status_code == 429:
            until = now + self.policy.default_rate_limit_wait
        if until is None:
            return None  # a plain 403: forbidden, handled as an error with backoff
        until = min(max(until, now), now + MAX_WAIT)
        self._held[origin(response.request.url)] = until
        return SourceRateLimited(
            f"{full}: rate limited (HTTP {response.status_code}) until {until:%Y-%m-%d %H:%M} UTC",
            until,
        )

    def _fetched(self, full: str, response: httpx.Response, body: bytes) -> Fetched:
        return Fetched(
            url=full,
            status=response.status_code,
            body=body,
            etag=response.headers.get("etag"),
            last_modified=response.headers.get("last-modified"),
            server_date=http_date(response.headers.get("date")),
            content_type=response.headers.get("content-type", ""),
        )


def _why(exc: BaseException) -> str:
    """The first cause that says something (a reset is an httpx ReadError with no message)."""
    seen: BaseException | None = exc
    while seen is not None and not str(seen):
        seen = seen.__cause__ or seen.__context__
    return str(seen) if seen is not None else "no detail"


# zlib window bits: gzip framing, and zlib-or-raw for "deflate" (servers send either).
_WBITS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}


async def _read_capped(response: httpx.Response, full: str, cap: int) -> bytes:
    """The body, decoded, never more than ``cap`` bytes of it in memory.

    Decoded here rather than by httpx: its decoder inflates each received chunk whole, so a
    small compressed chunk (or 'gzip, gzip') became gigabytes before any cap could look. Each
    inflate call here is bounded by what is left of the cap, and one encoding layer is the
    most a source may use.
    """
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and len(declared) < 16 and int(declared) > cap:
        raise WatcherError(f"{full}: body of {int(declared):,} bytes is over the {cap:,}-byte cap")
    layers = [
        e.strip().lower()
        for e in response.headers.get("content-encoding", "").split(",")
        if e.strip() and e.strip().lower() != "identity"
    ]
    if len(layers) > 1:
        raise WatcherError(f"{full}: {len(layers)} content-encoding layers; one is the most read")
    if layers and layers[0] not in _WBITS:
        raise WatcherError(f"{full}: unsupported content-encoding {layers[0][:40]!r}")
    if response.is_stream_consumed:  # a body built in memory (a test transport): decoded already
        if len(response.content) > cap:
            raise WatcherError(f"{full}: body passed the {cap:,}-byte cap; stopped reading")
        return response.content
    inflate = zlib.decompressobj(_WBITS[layers[0]]) if layers else None
    chunks: list[bytes] = []
    size = 0
    try:
        async for raw in response.aiter_raw():
            pending = raw
            while pending:
                if inflate is None:
                    out, pending = pending, b""
                else:
                    out = inflate.decompress(pending, cap + 1 - size)
                    pending = inflate.unconsumed_tail
                size += len(out)
                if size > cap:
                    raise WatcherError(f"{full}: body passed the {cap:,}-byte cap; stopped reading")
                chunks.append(out)
        if inflate is not None:
            chunks.append(inflate.flush())
            if size + len(chunks[-1]) > cap:
                raise WatcherError(f"{full}: body passed the {cap:,}-byte cap; stopped reading")
    except zlib.error as exc:
        raise WatcherError(f"{full}: the compressed body is corrupt ({exc})") from exc
    return b"".join(chunks)
