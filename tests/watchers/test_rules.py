"""Which watch points and claims a finding may bear on, and which watcher reads which URL."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.watchers.feed import FeedWatcher
from bot.watchers.github_comments import IssueCommentsWatcher
from bot.watchers.github_commits import CommitsWatcher
from bot.watchers.github_search import IssueSearchWatcher
from bot.watchers.huggingface import HFModelsWatcher
from bot.watchers.page import PageWatcher
from bot.watchers.registry import watcher_for, watchers_for
from bot.watchers.rules import Rules
from bot.watchers.signal import Finding, excerpt, signal_id
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import SourceKind
from tests.watchers import payloads as p


def finding(
    text: str, watched: str = p.COMMENTS_8506, title: str = "GitHub issue #8506 comment"
) -> Finding:
    return Finding(
        id="gh-8506-c1",
        watched=watched,
        kind=SourceKind.STATUS_LOG,
        url="https://github.com/marin-community/marin/issues/8506#issuecomment-1",
        date=dt.datetime(2026, 11, 30, tzinfo=dt.UTC),
        title=title,
        text=text,
        publisher="rjpower on GitHub",
    )


def test_a_step_number_in_a_status_comment_bears_on_the_progress_claim(kb: KnowledgeBase) -> None:
    m = Rules(kb.watch_points).match(finding("Resumed at step 262,000 after the restore."))

    assert "curves-and-checkpoints" in m.watch_points
    assert "progress" in m.claims
    assert m.by_pattern


def test_a_comment_saying_nothing_watched_is_tied_to_its_source_but_to_no_claim(
    kb: KnowledgeBase,
) -> None:
    m = Rules(kb.watch_points).match(finding("Thanks, will take a look tomorrow."))

    assert m.watch_points == ("curves-and-checkpoints",)
    assert m.claims == ()
    assert not m.by_pattern


def test_patterns_tie_a_finding_to_watch_points_that_do_not_look_at_its_source(
    kb: KnowledgeBase,
) -> None:
    m = Rules(kb.watch_points).match(
        finding("New racks: 4 more GB200 NVL72 for the hero run.", watched=p.HF_MODELS)
    )

    assert "infra-for-hero" in m.watch_points
    assert "hardware-gb200" in m.claims


def test_matching_ignores_case(kb: KnowledgeBase) -> None:
    assert (
        "model-not-released" in Rules(kb.watch_points).match(finding("MARIN-535B-A23B-BASE")).claims
    )


def test_every_configured_url_is_read_by_the_watcher_for_its_kind(kb: KnowledgeBase) -> None:
    kinds = {w.url: type(w) for w in watchers_for(Rules(kb.watch_points).urls)}

    assert kinds == {
        p.BLOG: FeedWatcher,
        p.MARIN_HOME: PageWatcher,
        p.TRACKER: PageWatcher,
        p.MARIN_DOCS: PageWatcher,
        p.COMMENTS_8506: IssueCommentsWatcher,
        p.COMMENTS_8435: IssueCommentsWatcher,
        p.WANDB_REPORT: PageWatcher,
        p.COMMITS_CURRENT_RUN: CommitsWatcher,
        p.COMMITS_LADDER: CommitsWatcher,
        p.COMMITS_ALL: CommitsWatcher,
        p.SEARCH: IssueSearchWatcher,
        p.COMMITS_REPORTS: CommitsWatcher,
        p.HF_MODELS: HFModelsWatcher,
    }


@pytest.mark.parametrize(
    ("url", "broad"), [(p.COMMITS_ALL, True), (p.COMMITS_REPORTS, False), (p.COMMENTS_8506, False)]
)
def test_only_the_unfiltered_commit_listing_is_broad(url: str, broad: bool) -> None:
    watcher = watcher_for(url)
    assert watcher is not None and watcher.broad is broad


def test_a_url_that_is_not_http_is_skipped() -> None:
    assert watchers_for(["ftp://example.org/feed", p.HF_MODELS])[0].url == p.HF_MODELS


def test_signal_ids_are_stable_readable_and_valid_knowledge_ids() -> None:
    assert signal_id("gh", 8506, "c3380012345") == "gh-8506-c3380012345"
    assert signal_id("hf", "marin-community/Marin-8B_Base") == "hf-marin-community-marin-8b-base"
    long = signal_id("openathena.ai", "a-very-long-post-slug-" * 5)
    assert len(long) <= 60 and long == signal_id("openathena.ai", "a-very-long-post-slug-" * 5)


def test_an_excerpt_is_cut_at_a_word_with_an_ellipsis() -> None:
    assert excerpt("one two   three\nfour", limit=9) == "one two…"
    assert excerpt("short") == "short"
