"""New posts on a blog: its Atom or RSS feed, or, when the URL is the blog's index page, the
post links on it.

Each post is keyed by its own URL (``openathena.ai-marin-535b-launch-note``), so a post is one
finding whether it came from the feed or the index. Posts already listed on the first run are
the baseline. The feed is sniffed from the body, not trusted from the Content-Type.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass

import httpx

from bot.watchers.fetch import FEED, Fetched
from bot.watchers.markup import links, plain
from bot.watchers.markup import title as page_title
from bot.watchers.signal import Finding, digest, signal_id
from bot.watchers.watcher import Poll, parse_time
from knowledge.errors import WatcherError
from knowledge.schema import SourceKind

FEED_HINT = re.compile(r"/(blog|news|posts?)(/|$)|feed|rss|atom|\.xml$", re.I)
NOT_A_POST = {"tag", "tags", "category", "categories", "page", "author", "authors", "feed", "rss"}


@dataclass(frozen=True)
class FeedWatcher:
    url: str
    accept: str = FEED
    broad: bool = False

    @classmethod
    def from_url(cls, url: str) -> FeedWatcher | None:
        return cls(url) if FEED_HINT.search(httpx.URL(url).path) else None

    @property
    def host(self) -> str:
        return httpx.URL(self.url).host

    @property
    def label(self) -> str:
        return f"posts on {self.url}"

    def params(self, cursor: str | None, now: dt.datetime) -> Mapping[str, str]:
        return {}

    def parse(self, fetched: Fetched, cursor: str | None, now: dt.datetime) -> Poll:
        body = fetched.text()
        head = body[:512].lstrip().lower()
        if head.startswith("<?xml") or "<rss" in head or "<feed" in head:
            return Poll(self._feed(body, fetched.url, now))
        return Poll(self._index(body, now))

    def _post(
        self, url: str, title: str, text: str, when: dt.datetime | None, who: str, now: dt.datetime
    ) -> Finding:
        slug = httpx.URL(url).path.strip("/").rsplit("/", 1)[-1] or digest(url)[:12]
        return Finding(
            id=signal_id(self.host, slug),
            watched=self.url,
            kind=SourceKind.BLOG,
            url=url,
            date=when or now,
            dated=when is not None,  # an index lists titles without dates
            title=title or url,
            text=f"{title}\n{text}",
            publisher=who,
        )

    def _feed(self, body: str, where: str, now: dt.datetime) -> list[Finding]:
        try:
            root = ET.fromstring(body)
        except ET.ParseError as exc:
            raise WatcherError(f"{where}: malformed feed: {exc}") from exc
        channel = _child(root, "channel")
        channel = root if channel is None else channel
        publisher = _text(channel, "title") or self.host
        out: list[Finding] = []
        for entry in root.iter():
            if _local(entry.tag) not in ("entry", "item"):
                continue
            link = _link(entry) or _text(entry, "id") or _text(entry, "guid")
            if not link:
                continue
            when = _date(entry)
            summary = plain(_text(entry, "summary", "description", "content", "encoded"))
            author = _text(entry, "creator", "author") or publisher
            title = " ".join(_text(entry, "title").split())
            out.append(self._post(link, title, summary, when, author, now))
        return out

    def _index(self, body: str, now: dt.datetime) -> list[Finding]:
        base = httpx.URL(self.url)
        prefix = base.path.rstrip("/") + "/"
        titles: dict[str, str] = {}
        for url, text in links(body, self.url):
            target = httpx.URL(url)
            rest = target.path[len(prefix) :].strip("/") if target.path.startswith(prefix) else ""
            if target.host != base.host or not rest or rest.split("/")[0] in NOT_A_POST:
                continue
            key = url.rstrip("/") + "/"
            if len(text) > len(titles.get(key, "")):
                titles[key] = text
            else:
                titles.setdefault(key, text)
        if not titles:  # an index without posts has changed shape (or is not an index)
            raise WatcherError(f"{self.url}: no post links under {prefix}; has the page changed?")
        publisher = page_title(body) or self.host
        return [self._post(url, title, "", None, publisher, now) for url, title in titles.items()]


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child(node: ET.Element, *names: str) -> ET.Element | None:
    for child in node:
        if _local(child.tag) in names:
            return child
    return None


def _text(node: ET.Element, *names: str) -> str:
    for name in names:
        child = _child(node, name)
        if child is not None:
            inner = _child(child, "name")  # Atom <author><name>
            value = "".join((inner if inner is not None else child).itertext())
            if value.strip():
                return value.strip()
    return ""


def _link(entry: ET.Element) -> str:
    for child in entry:
        if _local(child.tag) != "link":
            continue
        href = child.get("href")
        if href and child.get("rel", "alternate") == "alternate":
            return href
        if not href and child.text and child.text.strip():
            return child.text.strip()  # RSS <link>text</link>
    return ""


def _date(entry: ET.Element) -> dt.datetime | None:
    value = _text(entry, "published", "updated", "pubDate", "date")
    if not value:
        return None
    try:
        return parse_time(value)
    except ValueError:
        pass
    try:
        parsed = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)
