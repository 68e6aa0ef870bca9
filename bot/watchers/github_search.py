"""New issues and pull requests that name the run, through GitHub's issue search.

Polls the configured ``GET /search/issues?q=...`` (e.g. ``repo:marin-community/marin 535B OR
A23B OR hero OR GB200``) sorted newest first. Each issue or PR number is one finding; what was
already listed on the first run is the baseline. The search API has its own, stricter limit
(10 requests a minute unauthenticated): one poll per cycle stays far below it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.watchers.fetch import Fetched
from bot.watchers.signal import Finding, signal_id
from bot.watchers.watcher import Poll, parse_time
from knowledge.errors import WatcherError
from knowledge.schema import SourceKind

URL_SHAPE = re.compile(r"^https://api\.github\.com/search/issues\?.*\bq=")
REPO_IN_URL = re.compile(r"/repos/(?P<owner>[^/]+)/(?P<repo>[^/]+)/issues/\d+$")
PAGE_SIZE = 30


@dataclass(frozen=True)
class IssueSearchWatcher:
    url: str
    accept: str = "application/json"
    broad: bool = False

    @classmethod
    def from_url(cls, url: str) -> IssueSearchWatcher | None:
        return cls(url) if URL_SHAPE.match(url) else None

    @property
    def label(self) -> str:
        return "GitHub issues and PRs naming the run"

    def params(self, cursor: str | None, now: dt.datetime) -> Mapping[str, str]:
        return {"sort": "created", "order": "desc", "per_page": str(PAGE_SIZE)}

    def parse(self, fetched: Fetched, cursor: str | None, now: dt.datetime) -> Poll:
        payload = fetched.json()
        if not isinstance(payload, dict) or not isinstance(payload.get("items"), list):
            raise WatcherError(f"{fetched.url}: expected a search result with items")
        return Poll([self._finding(item) for item in payload["items"]])

    def _finding(self, item: Mapping[str, Any]) -> Finding:
        number = int(item["number"])
        is_pr = item.get("pull_request") is not None
        what = "PR" if is_pr else "issue"
        login = (item.get("user") or {}).get("login") or "ghost"
        m = REPO_IN_URL.search(str(item.get("url", "")))
        repo = f"{m['owner']}/{m['repo']}" if m else "GitHub"
        title = str(item.get("title") or "")
        return Finding(
            id=signal_id("gh", "pr" if is_pr else "issue", number),
            watched=self.url,
            kind=SourceKind.REPOSITORY,
            url=str(item["html_url"]),
            date=parse_time(item["created_at"]),
            title=f"GitHub {what} #{number}: {title}",
            text=f"{title}\n{item.get('body') or ''}",
            publisher=f"{login} on GitHub ({repo})",
        )
