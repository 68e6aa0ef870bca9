"""The watchers' part of the store on PostgreSQL: the curator's queue and each source's state.

The same ``SignalStore`` as ``SQLiteSignalStore``, for replicas that hand the watch lease to
one another (``bot.watchers.watch_lease``): whichever holds it finds the validators, cursors
and backoff the last one left, and the curator's commands on any host see one queue. The
connection's rules (UTC session, one-line ``StoreError`` with the URL's password redacted,
read-only sessions) are ``pg_database``'s; the tables are migration 2 of ``pg_migrations``.

Where SQLite serialises writers, two replicas may record at once (a replica that lost its
lease's session can still be finishing a cycle as the next one starts). So:

- a signal is added by ``INSERT … ON CONFLICT (id) DO NOTHING``: of two replicas recording
  it, the second waits for the first's commit and adds nothing, as a duplicate;
- a poll inserts its signals in id order, so two polls sharing ids lock them in one order
  and never deadlock (the ones added are still returned in the order given);
- ``review`` decides "append to the review history, or replace it" inside its ``UPDATE``,
  which a second curator's update waits for and then reads afresh: both notes stay.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from typing import Any

from bot.store.migrations import Migration
from bot.store.pg_database import PgDatabase
from bot.store.pg_migrations import MIGRATIONS
from bot.store.pg_rows import Row, aware, utc
from bot.store.signals import WatchState
from bot.watchers.signal import Signal, SignalState
from knowledge.errors import StoreError
from knowledge.schema import SourceKind

SIGNAL = """id, watched, kind, url, date, title, excerpt, publisher, claims, watch_points,
    state, found_at, reviewed_at, review"""
SOURCE = """url, baseline_at, cursor, cache_url, etag, last_modified, failures, next_attempt_at,
    last_error, last_attempt_at, last_success_at"""

_ADD = f"""INSERT INTO signals ({SIGNAL})
    VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, NULL, NULL)
    ON CONFLICT (id) DO NOTHING RETURNING id"""
_SAVE = f"""INSERT INTO watch_sources ({SOURCE})
    VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
    ON CONFLICT (url) DO UPDATE SET
        baseline_at = excluded.baseline_at, cursor = excluded.cursor,
        cache_url = excluded.cache_url, etag = excluded.etag,
        last_modified = excluded.last_modified, failures = excluded.failures,
        next_attempt_at = excluded.next_attempt_at, last_error = excluded.last_error,
        last_attempt_at = excluded.last_attempt_at, last_success_at = excluded.last_success_at"""
# A second promotion of one signal (one record, two claims) keeps the first on record.
_REVIEW = f"""UPDATE signals SET state = %(state)s, reviewed_at = %(now)s,
        review = CASE WHEN %(promoted)s AND review <> '' THEN review || '; ' || %(note)s
                      ELSE %(note)s END
    WHERE id = %(id)s RETURNING {SIGNAL}"""


class PostgresSignalStore:
    """``SignalStore`` over one PostgreSQL database; a context manager, or ``close()``.

    ``read_only``: nothing migrated, the session refuses writes (``pg_database``); a database
    holding nothing yet opens at version 0, as a SQLite file does."""

    def __init__(
        self,
        url: str,
        *,
        migrations: Sequence[Migration] = MIGRATIONS,
        read_only: bool = False,
    ) -> None:
        self._db = PgDatabase(url, migrations=migrations, read_only=read_only)
        self.url = self._db.where  # redacted: safe to show
        self.version = self._db.version

    def __repr__(self) -> str:
        return f"PostgresSignalStore({self.url!r})"

    def __enter__(self) -> PostgresSignalStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    # sources

    def source_state(self, url: str) -> WatchState:
        with self._db.reading("read a source's state") as conn:
            row = conn.execute(
                f"SELECT {SOURCE} FROM watch_sources WHERE url = %s", (url,)
            ).fetchone()
        return WatchState(url) if row is None else _state(row)

    def source_states(self) -> list[WatchState]:
        with self._db.reading("read the sources' state") as conn:
            rows = conn.execute(f"SELECT {SOURCE} FROM watch_sources ORDER BY url").fetchall()
        return [_state(row) for row in rows]

    def record_poll(self, state: WatchState, signals: Sequence[Signal]) -> list[Signal]:
        # In id order (see the module's docstring); a stable sort, so of one id given twice
        # the first is inserted, as in SQLite.
        ordered = sorted(range(len(signals)), key=lambda i: signals[i].id)
        added: set[int] = set()
        with self._db.transaction("record a poll") as conn:
            if ordered:
                with conn.cursor() as cur:  # one round trip for the batch (pipelined)
                    values = [_signal_values(signals[i]) for i in ordered]
                    cur.executemany(_ADD, values, returning=True)
                    for i in ordered:  # one result per signal: its id if it was added
                        if cur.fetchone() is not None:
                            added.add(i)
                        cur.nextset()
            conn.execute(_SAVE, _state_values(state))
        return [s for i, s in enumerate(signals) if i in added]

    # signals

    def known(self, ids: Collection[str]) -> set[str]:
        with self._db.reading("look up signal ids") as conn:
            rows = conn.execute(
                "SELECT id FROM signals WHERE id = ANY(%s)", (list(dict.fromkeys(ids)),)
            ).fetchall()
        return {row[0] for row in rows}

    def signal(self, signal_id: str) -> Signal | None:
        found = self._signals(f"SELECT {SIGNAL} FROM signals WHERE id = %s", [signal_id])
        return found[0] if found else None

    def signal_ids(self, prefix: str, *, limit: int = 10) -> list[str]:
        escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        with self._db.reading("look up signal ids") as conn:
            # ILIKE on the "C"-collated id folds ASCII letters only: SQLite's LIKE, exactly.
            rows = conn.execute(
                r"SELECT id FROM signals WHERE id ILIKE %s ESCAPE '\' ORDER BY id LIMIT %s",
                (escaped + "%", _limit(limit)),
            ).fetchall()
        return [row[0] for row in rows]

    def signals(
        self,
        *,
        states: Collection[SignalState] | None = (SignalState.NEW,),
        found_after: dt.datetime | None = None,
        found_through: dt.datetime | None = None,
        limit: int | None = None,
    ) -> list[Signal]:
        sql = f"SELECT {SIGNAL} FROM signals WHERE true"
        params: list[Any] = []
        if states is not None:
            sql += " AND state = ANY(%s)"
            params.append([str(s) for s in states])
        if found_after is not None:
            sql += " AND found_at > %s"
            params.append(aware(found_after))
        if found_through is not None:
            sql += " AND found_at <= %s"
            params.append(aware(found_through))
        sql += " ORDER BY date DESC, id"
        if limit is not None:
            sql += " LIMIT %s"
            params.append(_limit(limit))
        return self._signals(sql, params)

    def review(self, signal_id: str, state: SignalState, *, note: str, now: dt.datetime) -> Signal:
        values = {
            "id": signal_id,
            "state": str(state),
            "now": aware(now),
            "promoted": state is SignalState.PROMOTED,
            "note": note,
        }
        with self._db.transaction("review a signal") as conn:
            row = conn.execute(_REVIEW, values).fetchone()
        if row is None:
            raise StoreError(f"no signal {signal_id!r}")
        return _signal(row)

    # plumbing

    def _signals(self, sql: str, params: Sequence[Any]) -> list[Signal]:
        with self._db.reading("read signals") as conn:
            rows = conn.execute(sql, params).fetchall()
        return [_signal(row) for row in rows]


def _limit(limit: int) -> int | None:
    """SQLite reads a negative LIMIT as no limit, where PostgreSQL refuses it: read as SQLite
    does (``LIMIT NULL`` is none)."""
    return None if limit < 0 else limit


def _opt(moment: dt.datetime | None) -> dt.datetime | None:
    return None if moment is None else aware(moment)


def _signal_values(s: Signal) -> tuple[Any, ...]:
    return (
        s.id,
        s.watched,
        str(s.kind),
        s.url,
        aware(s.date),
        s.title,
        s.excerpt,
        s.publisher,
        list(s.claims),
        list(s.watch_points),
        str(s.state),
        aware(s.found_at or s.date),
    )


def _state_values(state: WatchState) -> tuple[Any, ...]:
    return (
        state.url,
        _opt(state.baseline_at),
        state.cursor,
        state.cache_url,
        state.etag,
        state.last_modified,
        state.failures,
        _opt(state.next_attempt_at),
        state.last_error,
        _opt(state.last_attempt_at),
        _opt(state.last_success_at),
    )


def _state(row: Row) -> WatchState:
    return WatchState(
        url=row[0],
        baseline_at=utc(row[1]),
        cursor=row[2],
        cache_url=row[3],
        etag=row[4],
        last_modified=row[5],
        failures=row[6],
        next_attempt_at=utc(row[7]),
        last_error=row[8],
        last_attempt_at=utc(row[9]),
        last_success_at=utc(row[10]),
    )


def _signal(row: Row) -> Signal:
    return Signal(
        id=row[0],
        watched=row[1],
        kind=SourceKind(row[2]),
        url=row[3],
        date=utc(row[4]),
        title=row[5],
        excerpt=row[6],
        publisher=row[7],
        claims=tuple(row[8]),
        watch_points=tuple(row[9]),
        state=SignalState(row[10]),
        found_at=utc(row[11]),
        reviewed_at=utc(row[12]),
        review=row[13],
    )
