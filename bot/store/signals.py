"""The watchers' part of the store: signals (the curator's queue) and each source's state.

``SignalStore`` is the small interface the watchers, the curator and the digest depend on;
``SQLiteSignalStore`` keeps it in the same SQLite file as subscriptions (its tables are
migration 2 in ``bot.store.migrations``), ``pg_signals.PostgresSignalStore`` in PostgreSQL
(``signal_stores`` opens the configured one). It opens its own connection through
``bot.store.connection.Database``, so the file's rules are the same as ``SQLiteStore``'s: WAL,
a busy timeout, migrations applied at open, every multi-row change in one ``BEGIN IMMEDIATE``
transaction, ``sqlite3`` errors turned into ``StoreError``. Only ``synchronous`` differs:
NORMAL here (see ``SQLiteSignalStore``).
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from bot.store.connection import Database, parse_timestamp, timestamp
from bot.store.migrations import MIGRATIONS, Migration
from bot.watchers.signal import Signal, SignalState
from knowledge.errors import StoreError
from knowledge.schema import SourceKind


@dataclass(frozen=True)
class WatchState:
    """What we remember about one configured URL between polls."""

    url: str
    baseline_at: dt.datetime | None = None  # None: the next successful poll is the baseline
    cursor: str | None = None
    cache_url: str | None = None  # the full URL (query included) the validators belong to
    etag: str | None = None
    last_modified: str | None = None
    failures: int = 0  # consecutive
    next_attempt_at: dt.datetime | None = None  # backing off (errors or a rate limit) until
    last_error: str | None = None
    last_attempt_at: dt.datetime | None = None
    last_success_at: dt.datetime | None = None


class SignalStore(Protocol):
    def source_state(self, url: str) -> WatchState: ...
    def source_states(self) -> list[WatchState]: ...
    def record_poll(self, state: WatchState, signals: Sequence[Signal]) -> list[Signal]:
        """Save the source's state and add the signals not seen before, in one transaction;
        return the ones added (the rest were duplicates)."""
        ...

    def known(self, ids: Collection[str]) -> set[str]:
        """Which of these signal ids are stored already (in any state)."""
        ...

    def signal(self, signal_id: str) -> Signal | None: ...
    def signal_ids(self, prefix: str, *, limit: int = 10) -> list[str]: ...
    def signals(
        self,
        *,
        states: Collection[SignalState] | None = (SignalState.NEW,),
        found_after: dt.datetime | None = None,
        found_through: dt.datetime | None = None,
        limit: int | None = None,
    ) -> list[Signal]:
        """Newest record first; ``states=None`` means every state."""
        ...

    def review(
        self, signal_id: str, state: SignalState, *, note: str, now: dt.datetime
    ) -> Signal: ...
    def close(self) -> None: ...


class SQLiteSignalStore:
    """``SignalStore`` over one SQLite file; use as a context manager or ``close()``."""

    def __init__(
        self,
        path: Path | str,
        *,
        migrations: Sequence[Migration] = MIGRATIONS,
        read_only: bool = False,  # writes refused; see bot.store.readonly
    ) -> None:
        self.path = Path(path)
        # NORMAL, not FULL, on this connection only: in WAL mode a power cut can lose the
        # last polls, never corrupt the file, and a lost poll is simply redone (signals are
        # deduplicated by id). Deliveries keep FULL in SQLiteStore.
        self._db = Database(
            self.path, migrations=migrations, synchronous="NORMAL", read_only=read_only
        )
        self.version = self._db.version  # 0 only read-only, for a file that holds nothing yet

    def __enter__(self) -> SQLiteSignalStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    # sources

    def source_state(self, url: str) -> WatchState:
        with self._db.reading("read a source's state") as conn:
            row = conn.execute("SELECT * FROM watch_sources WHERE url = ?", (url,)).fetchone()
        return WatchState(url) if row is None else _state(row)

    def source_states(self) -> list[WatchState]:
        with self._db.reading("read the sources' state") as conn:
            rows = conn.execute("SELECT * FROM watch_sources ORDER BY url").fetchall()
        return [_state(row) for row in rows]

    def record_poll(self, state: WatchState, signals: Sequence[Signal]) -> list[Signal]:
        added: list[Signal] = []
        with self._db.transaction("record a poll") as conn:
            for s in signals:
                cur = conn.execute(
                    """INSERT OR IGNORE INTO signals (id, watched, kind, url, date, title,
                           excerpt, publisher, claims, watch_points, state, found_at)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                    (
                        s.id,
                        s.watched,
                        str(s.kind),
                        s.url,
                        timestamp(s.date),
                        s.title,
                        s.excerpt,
                        s.publisher,
                        json.dumps(list(s.claims)),
                        json.dumps(list(s.watch_points)),
                        str(s.state),
                        timestamp(s.found_at or s.date),
                    ),
                )
                if cur.rowcount == 1:
                    added.append(s)
            conn.execute(
                """INSERT INTO watch_sources (url, baseline_at, cursor, cache_url, etag,
                       last_modified, failures, next_attempt_at, last_error, last_attempt_at,
                       last_success_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT (url) DO UPDATE SET
                       baseline_at = excluded.baseline_at, cursor = excluded.cursor,
                       cache_url = excluded.cache_url, etag = excluded.etag,
                       last_modified = excluded.last_modified, failures = excluded.failures,
                       next_attempt_at = excluded.next_attempt_at,
                       last_error = excluded.last_error,
                       last_attempt_at = excluded.last_attempt_at,
                       last_success_at = excluded.last_success_at""",
                (
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
                ),
            )
        return added

    # signals

    def known(self, ids: Collection[str]) -> set[str]:
        wanted = list(dict.fromkeys(ids))
        found: set[str] = set()
        with self._db.reading("look up signal ids") as conn:
            for i in range(0, len(wanted), 500):  # below SQLite's bound-parameter limit
                chunk = wanted[i : i + 500]
                rows = conn.execute(
                    f"SELECT id FROM signals WHERE id IN ({', '.join('?' * len(chunk))})", chunk
                ).fetchall()
                found.update(row["id"] for row in rows)
        return found

    def signal(self, signal_id: str) -> Signal | None:
        found = self._signals("SELECT * FROM signals WHERE id = ?", signal_id)
        return found[0] if found else None

    def signal_ids(self, prefix: str, *, limit: int = 10) -> list[str]:
        escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        with self._db.reading("look up signal ids") as conn:
            rows = conn.execute(
                "SELECT id FROM signals WHERE id LIKE ? ESCAPE '\\' ORDER BY id LIMIT ?",
                (escaped + "%", limit),
            ).fetchall()
        return [row["id"] for row in rows]

    def signals(
        self,
        *,
        states: Collection[SignalState] | None = (SignalState.NEW,),
        found_after: dt.datetime | None = None,
        found_through: dt.datetime | None = None,
        limit: int | None = None,
    ) -> list[Signal]:
        sql = "SELECT * FROM signals WHERE 1 = 1"
        params: list[Any] = []
        if states is not None:
            sql += f" AND state IN ({', '.join('?' * len(states))})"
            params += [str(s) for s in states]
        if found_after is not None:
            sql += " AND found_at > ?"
            params.append(timestamp(found_after))
        if found_through is not None:
            sql += " AND found_at <= ?"
            params.append(timestamp(found_through))
        sql += " ORDER BY date DESC, id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return self._signals(sql, *params)

    def review(self, signal_id: str, state: SignalState, *, note: str, now: dt.datetime) -> Signal:
        with self._db.transaction("review a signal") as conn:
            row = conn.execute("SELECT review FROM signals WHERE id = ?", (signal_id,)).fetchone()
            if row is None:
                raise StoreError(f"no signal {signal_id!r}")
            # Several promotions of one signal (one record, two claims) all stay on record.
            again = row["review"] and state is SignalState.PROMOTED
            history = f"{row['review']}; {note}" if again else note
            conn.execute(
                "UPDATE signals SET state = ?, reviewed_at = ?, review = ? WHERE id = ?",
                (str(state), timestamp(now), history, signal_id),
            )
        stored = self.signal(signal_id)
        assert stored is not None  # updated in the transaction above
        return stored

    # plumbing

    def _signals(self, sql: str, *params: Any) -> list[Signal]:
        with self._db.reading("read signals") as conn:
            rows = conn.execute(sql, params).fetchall()
        return [_signal(row) for row in rows]


def _opt(moment: dt.datetime | None) -> str | None:
    return None if moment is None else timestamp(moment)


def _state(row: sqlite3.Row) -> WatchState:
    return WatchState(
        url=row["url"],
        baseline_at=parse_timestamp(row["baseline_at"]),
        cursor=row["cursor"],
        cache_url=row["cache_url"],
        etag=row["etag"],
        last_modified=row["last_modified"],
        failures=row["failures"],
        next_attempt_at=parse_timestamp(row["next_attempt_at"]),
        last_error=row["last_error"],
        last_attempt_at=parse_timestamp(row["last_attempt_at"]),
        last_success_at=parse_timestamp(row["last_success_at"]),
    )


def _signal(row: sqlite3.Row) -> Signal:
    return Signal(
        id=row["id"],
        watched=row["watched"],
        kind=SourceKind(row["kind"]),
        url=row["url"],
        date=dt.datetime.fromisoformat(row["date"]),
        title=row["title"],
        excerpt=row["excerpt"],
        publisher=row["publisher"],
        claims=tuple(json.loads(row["claims"])),
        watch_points=tuple(json.loads(row["watch_points"])),
        state=SignalState(row["state"]),
        found_at=parse_timestamp(row["found_at"]),
        reviewed_at=parse_timestamp(row["reviewed_at"]),
        review=row["review"],
    )
