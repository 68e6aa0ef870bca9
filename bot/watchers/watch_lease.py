"""Which replica runs the watchers: one at a time, the next one taking over when it dies.

Watching is not a thing to do twice (two replicas polling GitHub halve the rate limit and
queue every finding twice), so the loop runs a cycle only while it holds the lease:

- ``FileLease``, one host: an exclusive ``flock`` on a file beside the SQLite store;
- ``PostgresLease``, several hosts: a session-level advisory lock on the shared PostgreSQL.

Both are released by the operating system or the server when the holder's process dies, so
no heartbeat is needed: another replica takes the lease at its next try.
"""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path
from typing import Any, Protocol

from bot.config import Settings

log = logging.getLogger(__name__)

# The advisory lock's key: any fixed 64-bit number; this one spells nothing in particular.
ADVISORY_KEY = 535_023_001


class WatchLease(Protocol):
    def hold(self) -> bool:
        """True when this process holds the lease (taking it if it is free)."""

    def close(self) -> None: ...


class FileLease:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def hold(self) -> bool:
        if self._fd is not None:
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the lock
            self._fd = None


class PostgresLease:
    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: Any = None

    def hold(self) -> bool:
        if self._conn is not None and not self._conn.closed:
            return True
        import psycopg

        from bot.store.pg_database import redact

        try:
            conn = psycopg.connect(self.url, autocommit=True)
        except psycopg.Error as exc:
            log.warning(
                "watchers: cannot reach %s for the lease: %s", redact(self.url), type(exc).__name__
            )
            return False
        got = conn.execute("SELECT pg_try_advisory_lock(%s)", (ADVISORY_KEY,)).fetchone()
        if not (got and got[0]):
            conn.close()
            return False
        self._conn = conn  # held while this session lives
        return True

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()  # the server releases a session's advisory locks
            self._conn = None


def lease_for(settings: Settings) -> WatchLease:
    if settings.database_url is not None:
        return PostgresLease(settings.database_url.get_secret_value())
    return FileLease(settings.db_path.with_name(settings.db_path.name + ".watchers.lock"))
