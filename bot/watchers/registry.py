"""Which watcher reads which configured URL: the shape of the URL decides.

The URLs come from the knowledge base's watch points (``looks_at`` in ``watch.toml``): a new
source is added by a curator in a pull request, never at run time, and never from chat.

    api.github.com/repos/O/R/issues/N/comments    IssueCommentsWatcher
    api.github.com/repos/O/R/commits[?path=P]     CommitsWatcher (broad without a path)
    api.github.com/search/issues?q=...            IssueSearchWatcher
    huggingface.co/api/models?author=ORG          HFModelsWatcher
    .../blog/, a feed (rss, atom, .xml)           FeedWatcher (Atom/RSS, or the index's post links)
    any other http(s) page                        PageWatcher (text change)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from bot.watchers.feed import FeedWatcher
from bot.watchers.github_comments import IssueCommentsWatcher
from bot.watchers.github_commits import CommitsWatcher
from bot.watchers.github_search import IssueSearchWatcher
from bot.watchers.huggingface import HFModelsWatcher
from bot.watchers.page import PageWatcher
from bot.watchers.watcher import Watcher

log = logging.getLogger(__name__)

# Tried in order; the first that recognizes the URL reads it.
SHAPES: tuple[Callable[[str], Watcher | None], ...] = (
    IssueCommentsWatcher.from_url,
    CommitsWatcher.from_url,
    IssueSearchWatcher.from_url,
    HFModelsWatcher.from_url,
    FeedWatcher.from_url,
    PageWatcher.from_url,
)


def watcher_for(url: str) -> Watcher | None:
    if not url.startswith(("https://", "http://")):
        return None
    for shape in SHAPES:
        watcher = shape(url)
        if watcher is not None:
            return watcher
    return None


def watchers_for(urls: Iterable[str]) -> list[Watcher]:
    out: list[Watcher] = []
    for url in dict.fromkeys(urls):
        watcher = watcher_for(url)
        if watcher is None:
            log.warning("no watcher reads %s (not an http(s) URL); skipped", url)
        else:
            out.append(watcher)
    return out
