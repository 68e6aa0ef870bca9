"""New commits in a GitHub repository, optionally only those touching one path.

Polls ``GET /repos/{owner}/{repo}/commits[?path=...]&per_page=30`` (newest first) and keys
each finding by SHA. With a ``path`` (``experiments/grug/moe_hero_ep/current_run.py``,
``docs/reports``) every new commit is a finding. Without one the listing is a firehose, so
the watcher is *broad*: the runner keeps only commits a watch point's patterns match
(535B, A23B, hero, GB200 ...).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from bot.watchers.fetch import Fetched
from bot.watchers.signal import Finding, signal_id
from bot.watchers.watcher import Poll, parse_time
from knowledge.errors import WatcherError
from knowledge.schema import SourceKind

URL_SHAPE = re.compile(
    r"^https://api\.github\.com/repos/(?P<owner>[^/]+)/(?P<repo>[^/?]+)/commits(\?.*)?$"
)
PAGE_SIZE = 30


@dataclass(frozen=True)
class CommitsWatcher:
    url: str
    owner: str
    repo: str
    path: str | None
    accept: str = "application/json"

    @classmethod
    def from_url(cls, url: str) -> CommitsWatcher | None:
        m = URL_SHAPE.match(url)
        if m is None:
            return None
        path = httpx.URL(url).params.get("path")
        return cls(url, m["owner"], m["repo"], path or None)

    @property
    def broad(self) -> bool:
        return self.path is None

    @property
    def label(self) -> str:
        where = f" touching {self.path}" if self.path else ""
        return f"commits to {self.owner}/{self.repo}{where}"

    def params(self, cursor: str | None, now: dt.datetime) -> Mapping[str, str]:
        return {"per_page": str(PAGE_SIZE)}

    def parse(self, fetched: Fetched, cursor: str | None, now: dt.datetime) -> Poll:
        payload = fetched.json()
        if not isinstance(payload, list):
            raise WatcherError(f"{fetched.url}: expected a list of commits")
        return Poll([self._finding(item) for item in payload])

    def _finding(self, item: Mapping[str, Any]) -> Finding:
        sha = str(item["sha"])
        commit = item["commit"]
        message = str(commit.get("message") or "")
        who = (item.get("author") or {}).get("login") or commit["author"]["name"]
        when = (commit.get("committer") or commit["author"])["date"]
        where = f" ({self.path})" if self.path else ""
        return Finding(
            id=signal_id("gh-commit", sha[:12]),
            watched=self.url,
            kind=SourceKind.REPOSITORY,
            url=str(item["html_url"]),
            date=parse_time(when),
            title=f"Commit {sha[:7]}{where}: {message.splitlines()[0] if message else ''}".rstrip(),
            text=message,
            publisher=f"{who} on GitHub ({self.owner}/{self.repo})",
        )
