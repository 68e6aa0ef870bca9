"""The signal queue in SQLite: deduplicated, reviewable, sharing the file with subscriptions."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from bot.store.migrations import MIGRATIONS
from bot.store.signals import SQLiteSignalStore, WatchState
from bot.store.sqlite import SQLiteStore
from bot.watchers.signal import Signal, SignalState
from knowledge.errors import StoreError
from knowledge.schema import SourceKind

NOW = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)


def signal(signal_id: str, *, day: int = 28, state: SignalState = SignalState.NEW) -> Signal:
    return Signal(
        id=signal_id,
        watched="https://api.github.com/repos/marin-community/marin/issues/8506/comments",
        kind=SourceKind.STATUS_LOG,
        url=f"https://github.com/marin-community/marin/issues/8506#issuecomment-{signal_id}",
        date=dt.datetime(2026, 11, day, 12, 0, tzinfo=dt.UTC),
        title=f"comment {signal_id}",
        excerpt="Now at step 230,112.",
        publisher="rjpower on GitHub",
        claims=("progress-latest",),
        watch_points=("curves-and-checkpoints",),
        state=state,
        found_at=NOW,
    )


def test_a_signal_round_trips_exactly(store: SQLiteSignalStore) -> None:
    s = signal("gh-8506-c1")
    store.record_poll(WatchState("u"), [s])
    assert store.signal("gh-8506-c1") == s


def test_recording_the_same_signal_twice_keeps_one(store: SQLiteSignalStore) -> None:
    assert store.record_poll(WatchState("u"), [signal("a"), signal("b")]) == [
        signal("a"),
        signal("b"),
    ]
    assert store.record_poll(WatchState("u"), [signal("b"), signal("c")]) == [signal("c")]
    assert store.known(["a", "c", "zzz"]) == {"a", "c"}


def test_the_queue_is_newest_first_and_leaves_out_baseline_and_reviewed(
    store: SQLiteSignalStore,
) -> None:
    store.record_poll(
        WatchState("u"),
        [signal("old", day=20), signal("new", day=28), signal("base", state=SignalState.BASELINE)],
    )
    store.review("old", SignalState.DISMISSED, note="duplicate of #8506 handoff", now=NOW)

    assert [s.id for s in store.signals()] == ["new"]
    assert [s.id for s in store.signals(states=None)] == ["base", "new", "old"]


def test_a_promotion_to_a_second_claim_keeps_the_first_on_record(store: SQLiteSignalStore) -> None:
    store.record_poll(WatchState("u"), [signal("a")])
    store.review("a", SignalState.PROMOTED, note="progress-latest supports direct", now=NOW)
    reviewed = store.review(
        "a", SignalState.PROMOTED, note="pretraining-not-finished supports direct", now=NOW
    )

    assert (
        reviewed.review
        == "progress-latest supports direct; pretraining-not-finished supports direct"
    )
    assert reviewed.reviewed_at == NOW


def test_reviewing_an_unknown_signal_is_an_error(store: SQLiteSignalStore) -> None:
    with pytest.raises(StoreError, match="no signal 'nope'"):
        store.review("nope", SignalState.DISMISSED, note="", now=NOW)


def test_ids_can_be_found_by_prefix_and_wildcards_are_literal(store: SQLiteSignalStore) -> None:
    store.record_poll(WatchState("u"), [signal("gh-8506-c1"), signal("gh-8506-c2"), signal("hf_x")])
    assert store.signal_ids("gh-8506") == ["gh-8506-c1", "gh-8506-c2"]
    assert store.signal_ids("hf_") == ["hf_x"]
    assert store.signal_ids("h%") == []


def test_a_source_state_round_trips(store: SQLiteSignalStore) -> None:
    state = WatchState(
        "https://huggingface.co/api/models?author=marin-community",
        baseline_at=NOW,
        cursor="2026-11-30T09:00:00Z",
        cache_url="https://huggingface.co/api/models?author=marin-community&limit=100",
        etag='W/"abc"',
        last_modified="Sat, 28 Nov 2026 10:00:00 GMT",
        failures=2,
        next_attempt_at=NOW + dt.timedelta(minutes=10),
        last_error="HTTP 502",
        last_attempt_at=NOW,
        last_success_at=NOW - dt.timedelta(hours=1),
    )
    store.record_poll(state, [])
    assert store.source_state(state.url) == state
    assert store.source_states() == [state]
    assert store.source_state("never-polled") == WatchState("never-polled")


def test_signals_live_in_the_same_file_as_subscriptions(tmp_path: Path) -> None:
    path = tmp_path / "marin-watch.sqlite3"
    with SQLiteStore(path) as subscriptions, SQLiteSignalStore(path) as signals:
        signals.record_poll(WatchState("u"), [signal("a")])
        assert subscriptions.version == len(MIGRATIONS)
        assert subscriptions.subscriptions() == []
    with SQLiteSignalStore(path) as reopened:
        assert reopened.signal("a") is not None
