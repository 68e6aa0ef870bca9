"""The signal store (``bot.store.signals.SignalStore``), held by both backends: the curator's
queue (deduplicated, newest first, reviewable) and each watched source's poll state.

Each test runs on SQLite and on PostgreSQL (``conftest.py``: ``backend.open_signals()``).
What only PostgreSQL has (replicas recording at once, its read-only session, its URL's
password) is in ``test_pg_signals.py``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

from bot.store.signal_stores import OpenedSignalStore
from bot.store.signals import WatchState
from bot.watchers.signal import Signal, SignalState
from knowledge.errors import StoreError
from knowledge.schema import SourceKind
from tests.store_contract.conftest import Backend

NOW = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
SHANGHAI = dt.timezone(dt.timedelta(hours=8))


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


@pytest.fixture
def store(backend: Backend) -> OpenedSignalStore:
    return backend.open_signals()


# signals


def test_a_signal_round_trips_exactly(store: OpenedSignalStore) -> None:
    s = signal("gh-8506-c1")
    store.record_poll(WatchState("u"), [s])
    assert store.signal("gh-8506-c1") == s
    assert store.signal("gh-8506-c2") is None


def test_times_come_back_aware_in_utc_and_text_unchanged(store: OpenedSignalStore) -> None:
    s = replace(
        signal("hf-x"),
        date=dt.datetime(2026, 11, 28, 20, 0, 0, 123456, tzinfo=SHANGHAI),
        found_at=None,  # stored as the record's date
        title="训练进度 ✓ 'quoted' \\ 100%_done",
        claims=("b-claim", "a-claim"),  # in the order given, not sorted
        watch_points=(),
    )
    store.record_poll(WatchState("u"), [s])

    back = store.signal("hf-x")
    assert back is not None
    assert back.date == s.date and back.date.tzinfo is dt.UTC
    assert back.found_at == s.date and back.found_at.tzinfo is dt.UTC
    assert (back.title, back.claims, back.watch_points) == (s.title, s.claims, ())


def test_a_naive_time_is_refused(store: OpenedSignalStore) -> None:
    naive = replace(signal("a"), date=dt.datetime(2026, 11, 28, 12, 0))
    with pytest.raises(ValueError, match="naive datetime"):
        store.record_poll(WatchState("u"), [naive])
    assert store.signal("a") is None and store.source_states() == []  # nothing half-written
    with pytest.raises(ValueError, match="naive datetime"):
        store.signals(found_after=dt.datetime(2026, 11, 28))


def test_recording_the_same_signal_twice_keeps_one(store: OpenedSignalStore) -> None:
    assert store.record_poll(WatchState("u"), [signal("a"), signal("b")]) == [
        signal("a"),
        signal("b"),
    ]
    assert store.record_poll(WatchState("u"), [signal("b"), signal("c")]) == [signal("c")]
    assert store.known(["a", "c", "zzz"]) == {"a", "c"}


def test_within_one_poll_the_first_of_an_id_is_kept_and_the_order_given_is_returned(
    store: OpenedSignalStore,
) -> None:
    first, again = signal("m", day=20), replace(signal("m", day=21), title="again")
    added = store.record_poll(WatchState("u"), [signal("z"), first, signal("a"), again])
    assert added == [signal("z"), first, signal("a")]
    assert store.signal("m") == first


def test_many_ids_are_looked_up_at_once(store: OpenedSignalStore) -> None:
    store.record_poll(WatchState("u"), [signal(f"s{i}") for i in range(0, 1200, 3)])
    wanted = [f"s{i}" for i in range(1200)] + ["s0"]  # over SQLite's chunk, a duplicate
    assert store.known(wanted) == {f"s{i}" for i in range(0, 1200, 3)}
    assert store.known([]) == set()


def test_the_queue_is_newest_first_and_leaves_out_baseline_and_reviewed(
    store: OpenedSignalStore,
) -> None:
    store.record_poll(
        WatchState("u"),
        [signal("old", day=20), signal("new", day=28), signal("base", state=SignalState.BASELINE)],
    )
    store.review("old", SignalState.DISMISSED, note="duplicate of #8506 handoff", now=NOW)

    assert [s.id for s in store.signals()] == ["new"]
    assert [s.id for s in store.signals(states=None)] == ["base", "new", "old"]
    assert [s.id for s in store.signals(states=[SignalState.DISMISSED])] == ["old"]
    assert store.signals(states=[]) == []


def test_one_date_sorts_by_id_bytewise(store: OpenedSignalStore) -> None:
    store.record_poll(WatchState("u"), [signal(i) for i in ("b", "B", "a", "_", "é")])
    # the byte order of UTF-8, whatever the database's collation: "B" < "_" < "a" < "é"
    assert [s.id for s in store.signals()] == ["B", "_", "a", "b", "é"]
    assert [s.id for s in store.signals(limit=2)] == ["B", "_"]
    assert len(store.signals(limit=-1)) == 5  # negative: no limit, as SQLite reads it
    assert store.signals(limit=0) == []


def test_the_queue_can_be_cut_by_when_each_signal_was_found(store: OpenedSignalStore) -> None:
    hour = dt.timedelta(hours=1)
    found = {"a": NOW - 2 * hour, "b": NOW - hour, "c": NOW}
    store.record_poll(WatchState("u"), [replace(signal(i), found_at=t) for i, t in found.items()])

    assert [s.id for s in store.signals(found_after=NOW - 2 * hour)] == ["b", "c"]
    assert [s.id for s in store.signals(found_through=NOW - hour)] == ["a", "b"]
    # the same moments given in another zone
    after, through = (NOW - 2 * hour).astimezone(SHANGHAI), (NOW - hour).astimezone(SHANGHAI)
    assert [s.id for s in store.signals(found_after=after, found_through=through)] == ["b"]


def test_a_promotion_to_a_second_claim_keeps_the_first_on_record(
    store: OpenedSignalStore,
) -> None:
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
    assert reviewed.state is SignalState.PROMOTED and store.signal("a") == reviewed


def test_a_dismissal_replaces_the_note_and_an_empty_note_is_not_kept_on_record(
    store: OpenedSignalStore,
) -> None:
    store.record_poll(WatchState("u"), [signal("a"), signal("b")])
    store.review("a", SignalState.PROMOTED, note="progress-latest supports direct", now=NOW)
    later = NOW + dt.timedelta(days=1)
    assert store.review("a", SignalState.DISMISSED, note="wrong run", now=later).review == (
        "wrong run"
    )
    store.review("b", SignalState.DISMISSED, note="", now=NOW)
    promoted = store.review("b", SignalState.PROMOTED, note="spec supports direct", now=later)
    assert (promoted.review, promoted.reviewed_at) == ("spec supports direct", later)
    assert [s.id for s in store.signals()] == []


def test_reviewing_an_unknown_signal_is_an_error(store: OpenedSignalStore) -> None:
    with pytest.raises(StoreError, match="no signal 'nope'"):
        store.review("nope", SignalState.DISMISSED, note="", now=NOW)


def test_ids_can_be_found_by_prefix_and_wildcards_are_literal(store: OpenedSignalStore) -> None:
    store.record_poll(WatchState("u"), [signal("gh-8506-c1"), signal("gh-8506-c2"), signal("hf_x")])
    assert store.signal_ids("gh-8506") == ["gh-8506-c1", "gh-8506-c2"]
    assert store.signal_ids("gh-8506", limit=1) == ["gh-8506-c1"]
    assert store.signal_ids("hf_") == ["hf_x"]
    assert store.signal_ids("h%") == []
    assert store.signal_ids("h\\") == []


def test_a_prefix_folds_ascii_letters_only(store: OpenedSignalStore) -> None:
    store.record_poll(WatchState("u"), [signal("gh-8506-c1"), signal("é-1")])
    assert store.signal_ids("GH-85") == ["gh-8506-c1"]  # as typed in capitals
    assert store.signal_ids("É") == []  # SQLite's LIKE folds ASCII only; so must the other


def test_text_that_is_not_valid_unicode_is_refused_in_one_line(store: OpenedSignalStore) -> None:
    with pytest.raises(StoreError, match="is not valid text") as caught:
        store.signal("gh-\udcff")
    assert "\n" not in str(caught.value)


# sources


def test_a_source_state_round_trips(store: OpenedSignalStore) -> None:
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


def test_a_poll_replaces_the_sources_whole_state(store: OpenedSignalStore) -> None:
    failing = WatchState(
        "https://b.example",
        failures=3,
        next_attempt_at=(NOW + dt.timedelta(hours=1)).astimezone(SHANGHAI),
        last_error="HTTP 502",
    )
    store.record_poll(failing, [])
    store.record_poll(WatchState("https://a.example", baseline_at=NOW), [])
    stored = store.source_state("https://b.example")
    assert stored == failing and stored.next_attempt_at is not None
    assert stored.next_attempt_at.tzinfo is dt.UTC

    recovered = WatchState("https://b.example", baseline_at=NOW, last_success_at=NOW)
    store.record_poll(recovered, [signal("x")])
    assert store.source_state("https://b.example") == recovered  # failures and error cleared
    assert [s.url for s in store.source_states()] == ["https://a.example", "https://b.example"]


# the database


def test_signals_live_in_the_same_database_as_subscriptions(backend: Backend) -> None:
    subscriptions, signals = backend.open(), backend.open_signals()
    signals.record_poll(WatchState("u"), [signal("a")])
    assert subscriptions.subscriptions() == []
    assert signals.version == subscriptions.version  # type: ignore[attr-defined]
    signals.close()
    assert backend.open_signals().signal("a") == signal("a")


def test_a_read_only_store_reads_and_refuses_to_write(backend: Backend) -> None:
    backend.open_signals().record_poll(WatchState("u", failures=1), [signal("a")])
    reader = backend.open_signals(read_only=True)

    assert reader.signal("a") == signal("a") and reader.source_state("u").failures == 1
    with pytest.raises(StoreError, match="read-only"):
        reader.record_poll(WatchState("u"), [signal("b")])
    with pytest.raises(StoreError, match="read-only"):
        reader.review("a", SignalState.DISMISSED, note="", now=NOW)
    assert reader.known(["a", "b"]) == {"a"} and reader.signals() == [signal("a")]
    assert reader.source_state("u").failures == 1


def test_a_closed_store_refuses_to_read(backend: Backend) -> None:
    store = backend.open_signals()
    store.close()
    with pytest.raises(StoreError):
        store.signals()
