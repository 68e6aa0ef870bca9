"""Changes to one web page (the W&B report, a project home page), by a hash of its text.

Only the words matter: scripts, styles, markup and build hashes are dropped (``markup``), so a
redeploy of the same content is not a change. The cursor keeps the page's text, so a change
is reported with the lines that were added — that is what the watch points' patterns match
and what the curator reads. The first version seen is the baseline.
"""

from __future__ import annotations

import datetime as dt
import email.utils
from collections.abc import Mapping
from dataclasses import dataclass

import httpx

from bot.watchers.fetch import HTML, Fetched
from bot.watchers.markup import page_text
from bot.watchers.signal import Finding, digest, signal_id
from bot.watchers.watcher import Poll
from knowledge.schema import SourceKind

CURSOR_CHARS = 200_000  # enough text to diff a long report page, small enough for a row

KIND_BY_HOST = {"wandb.ai": SourceKind.TRACKING_REPORT}


@dataclass(frozen=True)
class PageWatcher:
    url: str
    accept: str = HTML
    broad: bool = False

    @classmethod
    def from_url(cls, url: str) -> PageWatcher | None:
        return cls(url) if url.startswith(("https://", "http://")) else None

    @property
    def host(self) -> str:
        return httpx.URL(self.url).host

    @property
    def label(self) -> str:
        return f"page {self.url}"

    def params(self, cursor: str | None, now: dt.datetime) -> Mapping[str, str]:
        return {}

    def parse(self, fetched: Fetched, cursor: str | None, now: dt.datetime) -> Poll:
        page = page_text(fetched.text())
        text = "\n".join([page.title, *page.lines])[:CURSOR_CHARS]
        if text == cursor:
            return Poll([], cursor)
        before = set((cursor or "").split("\n"))
        added = [line for line in page.lines if line not in before] if cursor else list(page.lines)
        version = digest(text)[:12]
        finding = Finding(
            id=signal_id(self.host, version),
            watched=self.url,
            kind=KIND_BY_HOST.get(self.host, SourceKind.OFFICIAL_ANNOUNCEMENT),
            url=self.url,
            date=_modified(fetched) or now,
            dated=_modified(fetched) is not None,
            title=f"{page.title or self.url} (page changed)" if cursor else page.title or self.url,
            text="\n".join(added),
            publisher=self.host,
        )
        return Poll([finding], text)


def _modified(fetched: Fetched) -> dt.datetime | None:
    if not fetched.last_modified:
        return None
    try:
        parsed = email.utils.parsedate_to_datetime(fetched.last_modified)
    except (TypeError, ValueError):
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)
