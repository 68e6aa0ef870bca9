"""One SQLite connection, opened with the rules every store in the file follows.

- WAL mode, so a writer never blocks the processes reading; ``busy_timeout`` makes a second
  writer wait for the lock instead of failing at once.
- The schema is migrated at open (``bot.store.migrations``).
- ``synchronous`` is FULL unless the store asks for NORMAL (``SQLiteSignalStore`` does).
- ``transaction()`` is ``BEGIN IMMEDIATE`` … ``COMMIT``: the write lock is taken up front, so
  a read-then-write cannot be overtaken by another process between the two.
- ``sqlite3`` errors, and text it cannot bind (a lone surrogate), become
  ``knowledge.errors.StoreError`` here, once.
- ``read_only=True`` writes nothing, ever: no WAL switch, no migration, a connection per read
  (``bot.store.readonly``); only a file at the current version is read.
- Times are stored as UTC ISO-8601 text (``timestamp``), so they sort as text.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from bot.store import readonly
from bot.store.migrations import MIGRATIONS, Migration, migrate, refusal
from knowledge.errors import StoreError

BUSY_TIMEOUT_MS = 10_000


class Database:
    def __init__(
        self,
        path: Path | str,
        *,
        migrations: Sequence[Migration] = MIGRATIONS,
        synchronous: str = "FULL",
        read_only: bool = False,
    ) -> None:
        self.path = Path(path)
        self.read_only = read_only
        # One connection shared by whichever thread calls (adapters may use to_thread);
        # the lock keeps its transactions from interleaving. Read-only: none is kept open.
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        if read_only:
            with self.reading("open") as conn:
                version = self._refuse_unless_ours(conn, len(migrations))
            self.version = readonly.readable_version(self.path, version, len(migrations))
            return
        try:
            self._conn = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store at {self.path}: {exc}") from exc
        self._conn.row_factory = sqlite3.Row
        try:
            with self.reading("open") as conn:
                conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                # Refuse a foreign or newer file before the WAL switch: that writes the header.
                self._refuse_unless_ours(conn, len(migrations))
                mode = self._wal(conn)
                if mode != "wal":
                    raise StoreError(f"the store at {self.path} cannot use WAL mode ({mode})")
                if synchronous not in ("FULL", "NORMAL"):
                    raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
                conn.execute(f"PRAGMA synchronous = {synchronous}")
                self.version = migrate(conn, migrations)
        except BaseException:
            self._conn.close()
            raise

    @staticmethod
    def _refuse_unless_ours(conn: sqlite3.Connection, target: int) -> int:
        """``refusal``, in one read transaction, and the version it saw: its reads (version,
        application id, tables) must see one state of a file that another process may be
        migrating this instant; read apart, they can see its version before the commit and
        its tables after, and take our own fresh file for another program's."""
        conn.execute("BEGIN")
        try:
            refusal(conn, target)
            return int(conn.execute("PRAGMA user_version").fetchone()[0])
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")

    @staticmethod
    def _wal(conn: sqlite3.Connection) -> str:
        """Switch to WAL. A fresh file being migrated by another process at this moment
        keeps its old mode (SQLite returns it instead of waiting), so retry briefly."""
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                mode = str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
            except sqlite3.OperationalError as exc:
                # Under load the switch can also fail outright ("database is locked") while
                # the other process holds the file: the same race, retried the same way.
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if time.monotonic() > deadline:
                    raise
                mode = "locked"
            if mode == "wal" or time.monotonic() > deadline:
                return mode
            time.sleep(0.02)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()

    @contextmanager
    def reading(self, doing: str) -> Iterator[sqlite3.Connection]:
        """The connection, for statements that need no transaction of their own."""
        with self._lock:
            try:
                if self._conn is None:  # read-only
                    with readonly.connection(self.path, timeout=BUSY_TIMEOUT_MS / 1000) as conn:
                        yield conn
                else:
                    yield self._conn
            except sqlite3.Error as exc:
                raise StoreError(f"the store at {self.path} could not {doing}: {exc}") from exc
            except UnicodeEncodeError as exc:
                # A lone surrogate SQLite cannot bind: an undecodable byte in argv, say.
                bad = exc.object[exc.start : exc.end]
                raise StoreError(
                    f"the store at {self.path} could not {doing}: {bad!r} is not valid text"
                ) from exc

    @contextmanager
    def transaction(self, doing: str) -> Iterator[sqlite3.Connection]:
        """Every statement inside commits together, or none does."""
        if self.read_only:
            raise StoreError(f"the store at {self.path} was opened read-only: cannot {doing}")
        with self.reading(doing) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:  # also when COMMIT itself failed
                    conn.execute("ROLLBACK")
                raise


def timestamp(moment: dt.datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError(f"naive datetime {moment!r}: the store keeps aware times only")
    return moment.astimezone(dt.UTC).isoformat(timespec="microseconds")


def parse_timestamp(text: str | None) -> dt.datetime | None:
    return None if text is None else dt.datetime.fromisoformat(text)
