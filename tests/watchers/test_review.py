"""The queue as others see it: the digest's unreviewed section, and an admin's /signals."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

from answers.render import Renderer
from bot.digest.builder import DigestService
from bot.digest.window import Window
from bot.store.signals import SQLiteSignalStore, WatchState
from bot.watchers.review import StoreSignalFeed, queue_reply
from bot.watchers.signal import Signal, SignalState
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import SourceKind

NOW = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.UTC)


def signal(
    signal_id: str, *, found: dt.datetime = NOW, state: SignalState = SignalState.NEW
) -> Signal:
    return Signal(
        id=signal_id,
        watched="https://huggingface.co/api/models?author=marin-community",
        kind=SourceKind.MODEL_CARD,
        url=f"https://huggingface.co/marin-community/{signal_id}",
        date=found - dt.timedelta(minutes=5),
        title=f"Hugging Face model marin-community/{signal_id}",
        excerpt=f"marin-community/{signal_id} text-generation",
        publisher="marin-community on Hugging Face",
        claims=("model-not-released",),
        watch_points=("failures-and-release",),
        state=state,
        found_at=found,
    )


def test_the_digest_lists_unreviewed_signals_in_their_own_marked_section(
    store: SQLiteSignalStore, kb: KnowledgeBase
) -> None:
    store.record_poll(
        WatchState("u"),
        [
            signal("marin-535b-a23b-base"),
            signal("seen-last-week", found=NOW - dt.timedelta(days=7)),
            signal("already-dismissed", state=SignalState.DISMISSED),
            signal("baseline-model", state=SignalState.BASELINE),
        ],
    )
    digests = DigestService(kb, Renderer(kb, lambda: NOW), signals=StoreSignalFeed(store))

    digest = digests.build(Window.last_days(1, NOW.date()), lang="en")

    assert [s.id for s in digest.changes.signals] == ["marin-535b-a23b-base"]
    assert (
        "Unreviewed signals: seen by the watchers, not yet checked by a curator"
        in digest.reply.text
    )
    assert (
        "[unreviewed] 2026-11-30: Hugging Face model marin-community/marin-535b-a23b-base "
        "(marin-community on Hugging Face) https://huggingface.co/marin-community/marin-535b-a23b-base"
    ) in digest.reply.text
    assert digest.changes.signals[0].bears_on == ("model-not-released",)


def test_a_signal_reviewed_before_the_digest_is_built_is_not_shown_as_unreviewed(
    store: SQLiteSignalStore, kb: KnowledgeBase
) -> None:
    store.record_poll(WatchState("u"), [signal("marin-535b-a23b-base")])
    store.review("marin-535b-a23b-base", SignalState.DISMISSED, note="a test upload", now=NOW)

    window = Window.last_days(1, NOW.date())
    assert StoreSignalFeed(store).unreviewed(window) == []


def test_an_admin_sees_the_queue_newest_first_with_a_caveat_every_time(
    store: SQLiteSignalStore,
) -> None:
    store.record_poll(
        WatchState("u"),
        [signal(f"model-{i}", found=NOW - dt.timedelta(hours=i)) for i in range(12)],
    )

    reply = queue_reply(store, lang="en", limit=3)

    assert reply.title == "Unreviewed signals (12)"
    assert len(reply.sections) == 4  # one a signal, then "and 9 more"
    assert reply.sections[0].splitlines() == [
        "[model-0] 2026-11-30 · Hugging Face model marin-community/model-0",
        "“marin-community/model-0 text-generation”",
        "may bear on: model-not-released",
        "https://huggingface.co/marin-community/model-0",
    ]
    assert reply.sections[-1] == "… and 9 more (marin-watch signals list)"
    assert "not evidence" in reply.caveat
    assert reply.extra["signals"] == ["model-0", "model-1", "model-2"]


def test_an_empty_queue_says_so_in_chinese_too(store: SQLiteSignalStore) -> None:
    reply = queue_reply(store, lang="zh")

    assert reply.title == "未审核信号（0 条）"
    assert reply.body.startswith("没有未审核信号")
    assert "不是证据" in reply.caveat


def test_the_chat_facing_views_cannot_reach_the_network() -> None:
    """What a chat can reach (/signals, the digest section) never imports the fetch layer."""
    probe = (
        "import sys, bot.watchers.review, bot.curator; "
        "assert 'bot.watchers.fetch' not in sys.modules and 'httpx' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", probe], check=True, cwd=Path(__file__).parents[2])
