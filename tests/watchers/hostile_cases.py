"""The network-borne cases of issue 13, each a site of the hostile server, the watcher reading
it (its configured URL points at the site) and what one cycle must make of it.

Shared by ``test_hostile.py`` and the benchmark's worst-case mode. A case fails alone, with a
one-line reason, or is read (the HTML cases, whose answer is garbage but HTML all the same).
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import unicodedata
import zlib
from asyncio import StreamReader, StreamWriter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bot.store.signals import WatchState
from bot.watchers.cycle import SourceReport
from bot.watchers.feed import FeedWatcher
from bot.watchers.github_comments import CLOCK_SKEW, IssueCommentsWatcher
from bot.watchers.github_commits import CommitsWatcher
from bot.watchers.github_search import IssueSearchWatcher
from bot.watchers.huggingface import HFModelsWatcher
from bot.watchers.page import PageWatcher
from bot.watchers.waits import MAX_WAIT
from bot.watchers.watcher import Watcher, iso_z
from tests.watchers import payloads as p
from tests.watchers.hostile import (
    Handler,
    HostileServer,
    Request,
    Trickle,
    answer,
    reset,
    stream,
)

JSON = {"Content-Type": "application/json; charset=utf-8"}
HTML = {"Content-Type": "text/html; charset=utf-8"}


# The watchers, each reading a path of a site as if it were the public API it stands for.


def comments(base: str) -> Watcher:
    url = f"{base}/repos/marin-community/marin/issues/8506/comments"
    return IssueCommentsWatcher(url, "marin-community", "marin", 8506)


def commits(base: str) -> Watcher:
    url = f"{base}/repos/marin-community/marin/commits?path=docs/reports"
    return CommitsWatcher(url, "marin-community", "marin", "docs/reports")


def search(base: str) -> Watcher:
    return IssueSearchWatcher(f"{base}/search/issues?q=hero")


def models(base: str) -> Watcher:
    return HFModelsWatcher(f"{base}/api/models?author=marin-community", "marin-community")


def page(base: str) -> Watcher:
    return PageWatcher(f"{base}/report")


def feed(base: str) -> Watcher:
    return FeedWatcher(f"{base}/blog/feed.xml")


# The answers.


def json_answer(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Handler:
    return answer(status, json.dumps(data).encode(), {**JSON, **(headers or {})})


def gzip(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


@functools.cache
def gzip_bomb(size: int = 256 * 1024 * 1024) -> bytes:
    """``size`` zero bytes, gzipped (256 MB in about 250 KB), compressed a megabyte at a time."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1024 * 1024)
    return b"".join([*(packer.compress(block) for _ in range(size // len(block))), packer.flush()])


def endless_html(size: int = 16 * 1024 * 1024) -> Iterator[bytes]:
    block = b"<p>the same paragraph, again</p>\n" * 2000
    for _ in range(size // len(block)):
        yield block


def healthy_comments() -> Handler:
    return json_answer([p.comment(3300000001, "Resumed at step 150,000.", "2026-10-01T12:00:00Z")])


def github_rate_limit(now: dt.datetime) -> Handler:
    reset_at = int((now + dt.timedelta(minutes=20)).timestamp())
    headers = {"X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0"}
    return json_answer(
        {"message": "API rate limit exceeded for 203.0.113.7."},
        403,
        {**headers, "X-RateLimit-Reset": str(reset_at)},
    )


async def not_http(request: Request, reader: StreamReader, writer: StreamWriter) -> None:
    writer.write(b"SSH-2.0-OpenSSH_9.6\r\n")
    await writer.drain()


ANSI_TITLE = "\x1b[31mHero\x1b[0m run \x1b]0;owned\x07status\x07\x1b[2J\u202e\x00"


# What must come of them.

Check = Callable[[SourceReport, WatchState, dt.datetime], None]


def until(delta: dt.timedelta) -> Check:
    def check(report: SourceReport, state: WatchState, now: dt.datetime) -> None:
        assert report.until == now + delta, (report.until, now + delta)

    return check


def cursor_not_past_now(report: SourceReport, state: WatchState, now: dt.datetime) -> None:
    assert state.cursor == iso_z(now + CLOCK_SKEW), state.cursor


def titles_displayable(report: SourceReport, state: WatchState, now: dt.datetime) -> None:
    assert report.signals, "the search result was read"
    for s in report.signals:
        for text in (s.title, s.excerpt, s.publisher):
            assert all(unicodedata.category(c)[0] != "C" for c in text), repr(text)
            assert "[31m" not in text and "owned" not in text, repr(text)
        assert "Hero run status" in s.title, s.title


@dataclass(frozen=True)
class Case:
    name: str
    reads: Callable[[str], Watcher]  # the watcher, given the site's base URL
    serve: Callable[[dt.datetime], Handler]  # the site's answer, given the story's "now"
    outcome: str
    reason: str = ""  # in the one-line message
    check: Check | None = None


def cases(cap: int) -> list[Case]:
    """Every case, for a fetcher whose body cap is ``cap`` bytes."""
    capped = f"passed the {cap:,}-byte cap"
    return [
        Case("healthy comments", comments, lambda now: healthy_comments(), "baseline"),
        Case(
            "healthy page",
            page,
            lambda now: answer(200, p.wandb_page("Loss 1.9 at step 147,000").encode(), HTML),
            "baseline",
        ),
        Case(
            "Content-Encoding: gzip, gzip",
            commits,
            lambda now: answer(200, gzip(gzip_bomb()), {**JSON, "Content-Encoding": "gzip, gzip"}),
            "failed",
            "2 content-encoding layers",
        ),
        Case(
            "a gzip bomb (256 MB in 250 KB)",
            models,
            lambda now: answer(200, gzip_bomb(), {**JSON, "Content-Encoding": "gzip"}),
            "failed",
            capped,
        ),
        Case(
            "a 16 MB body, no Content-Length",
            page,
            lambda now: stream(endless_html, HTML),
            "failed",
            capped,
        ),
        Case(
            "a declared Content-Length of 10 GB",
            comments,
            lambda now: answer(200, b"[]", {**JSON, "Content-Length": str(10 * 1024**3)}),
            "failed",
            f"is over the {cap:,}-byte cap",
        ),
        Case(
            "128 KB of '<!--'",
            page,
            lambda now: answer(200, b"<html><title>c</title>" + b"<!--" * 32 * 1024, HTML),
            "baseline",
        ),
        Case(
            "an unclosed <script>",
            page,
            lambda now: answer(
                200, b"<html><title>s</title><script>" + b"if (a<b) {'<!--'}" * 8000, HTML
            ),
            "baseline",
        ),
        Case(
            "JSON nested 200,000 deep",
            search,
            lambda now: answer(200, b"[" * 200_000 + b"]" * 200_000, JSON),
            "failed",
            "unexpected payload (RecursionError",
        ),
        Case(
            '"id": 1e999',
            comments,
            lambda now: answer(
                200,
                json.dumps([p.comment(1, "x", "2026-11-30T08:00:00Z")])
                .replace('"id": 1,', '"id": 1e999,')
                .encode(),
                JSON,
            ),
            "failed",
            "unexpected payload (OverflowError",
        ),
        Case(
            "a date of 0001-01-01T00:00:00+14:00",
            models,
            lambda now: json_answer([p.hf_model("m/m", "0001-01-01T00:00:00+14:00")]),
            "failed",
            "has no UTC time",
        ),
        Case(
            "x-ratelimit-reset: 99999999999999999",
            commits,
            lambda now: json_answer(
                {"message": "API rate limit exceeded"},
                403,
                {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "99999999999999999"},
            ),
            "rate limited",
            "rate limited (HTTP 403)",
            until(MAX_WAIT),
        ),
        Case(
            "a 30-digit Retry-After",
            search,
            lambda now: answer(429, b"slow down", {"Retry-After": "9" * 30}),
            "rate limited",
            "rate limited (HTTP 429)",
            until(MAX_WAIT),
        ),
        Case(
            "an updated_at of 9999-12-31",
            comments,
            lambda now: json_answer(
                [
                    p.comment(
                        2, "from the future", "2026-11-30T08:00:00Z", updated="9999-12-31T23:59:59Z"
                    )
                ]
            ),
            "baseline",
            check=cursor_not_past_now,
        ),
        Case(
            "ANSI escapes and control characters in a title",
            search,
            lambda now: json_answer(
                p.search(p.issue(9700, ANSI_TITLE, "2026-11-30T08:00:00Z", body=ANSI_TITLE))
            ),
            "baseline",
            check=titles_displayable,
        ),
        Case(
            "one byte a second",
            page,
            lambda now: Trickle(b"<html>" + b" " * 600, content_type="text/html"),
            "failed",
            "no complete answer within",
        ),
        Case("a connection reset", feed, lambda now: reset, "failed", "network error"),
        Case("not HTTP at all", feed, lambda now: not_http, "failed", "network error"),
        Case("HTTP 500", models, lambda now: answer(500, b"oops"), "failed", "HTTP 500"),
        Case(
            "a GitHub rate limit (403)",
            commits,
            github_rate_limit,
            "rate limited",
            "rate limited (HTTP 403)",
            until(dt.timedelta(minutes=20)),
        ),
    ]


async def serve(server: HostileServer, chosen: list[Case], now: dt.datetime) -> list[Watcher]:
    """A site for each case (its own host); the watchers reading them, in the same order."""
    return [c.reads(await server.site(c.serve(now))) for c in chosen]
