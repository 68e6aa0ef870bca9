"""New comments on one GitHub issue: the team's status log (#8506) and plan issue (#8435).

Polls ``GET /repos/{owner}/{repo}/issues/{n}/comments?since=CURSOR``. The cursor is the
newest ``updated_at`` seen; on a first run it is *now*, so the thread's history becomes the
baseline and is never queued. The URL only changes when a comment arrives, so the ETag of the
previous answer usually earns a free 304. An edited old comment comes back with its same id
and is deduplicated.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.watchers.fetch import Fetched
from bot.watchers.signal import Finding, signal_id
from bot.watchers.watcher import Poll, iso_z, parse_time
from knowledge.errors import WatcherError
from knowledge.schema import SourceKind

URL_SHAPE = re.compile(
    r"^https://api\.github\.com/repos/(?P<owner>[^/]+)/(?P<repo>[^/]+)/issues/(?P<number>\d+)/comments$"
)
PAGE_SIZE = 100
# How far ahead of our clock a server's timestamps may plausibly be: the cursor never goes
# past now plus this, so a comment dated 9999-12-31 cannot blind the watcher for ever.
CLOCK_SKEW = dt.timedelta(minutes=5)


@dataclass(frozen=True)
class IssueCommentsWatcher:
    url: str
    owner: str
    repo: str
    number: int
    accept: str = "application/json"
    broad: bool = False

    @classmethod
    def from_url(cls, url: str) -> IssueCommentsWatcher | None:
        m = URL_SHAPE.match(url)
        if m is None:
            return None
        return cls(url, m["owner"], m["repo"], int(m["number"]))

    @property
    def label(self) -> str:
        return f"comments on {self.owner}/{self.repo}#{self.number}"

    def params(self, cursor: str | None, now: dt.datetime) -> Mapping[str, str]:
        return {"since": cursor or iso_z(now), "per_page": str(PAGE_SIZE)}

    def parse(self, fetched: Fetched, cursor: str | None, now: dt.datetime) -> Poll:
        payload = fetched.json()
        if not isinstance(payload, list):
            raise WatcherError(f"{fetched.url}: expected a list of comments")
        findings = [self._finding(item) for item in payload]
        newest = max((parse_time(item["updated_at"]) for item in payload), default=None)
        since = parse_time(cursor) if cursor else now
        # One comment dated 9999-12-31 must not move the cursor past it for ever: the cursor
        # never goes beyond now plus a small clock skew.
        latest = min(max(since, newest) if newest else since, now + CLOCK_SKEW)
        return Poll(findings, iso_z(latest))

    def _finding(self, item: Mapping[str, Any]) -> Finding:
        login = str(item["user"]["login"]) if item.get("user") else "ghost"
        return Finding(
            id=signal_id("gh", self.number, f"c{int(item['id'])}"),
            watched=self.url,
            kind=SourceKind.STATUS_LOG,
            url=str(item["html_url"]),
            date=parse_time(item["created_at"]),
            title=f"GitHub issue #{self.number} comment by {login}",
            text=str(item.get("body") or ""),
            publisher=f"{login} on GitHub ({self.owner}/{self.repo}#{self.number})",
        )
