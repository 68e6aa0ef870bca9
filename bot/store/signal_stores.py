"""Where the watchers' signals and poll state live: the one place that decides it.

With ``MARIN_WATCH_DATABASE_URL`` set they live in PostgreSQL beside subscriptions and
deliveries (``pg_signals``): the watch lease passes between replicas, and the one taking
over must find the queue and each source's validators, cursor and backoff where the last
one left them; the curator's commands on any host see that one queue. Otherwise they live
in the SQLite file (``signals``).

``read_only``, for what only looks (``signals list``/``show``, the digest, ``/signals``):
SQLite opens the file the ``readonly`` way (no side file, no migration); PostgreSQL
migrates nothing and runs a ``default_transaction_read_only`` session, so the server
itself refuses a write. Either way an older schema is refused, and a store holding nothing
yet opens at version 0.
"""

from __future__ import annotations

from typing import Protocol

from bot.config import Settings
from bot.store.signals import SignalStore, SQLiteSignalStore


class OpenedSignalStore(SignalStore, Protocol):
    """A signal store as opened here: closed by ``with`` (or ``close()``), and its schema
    version (0: opened read-only on a store that holds nothing yet)."""

    version: int

    def __enter__(self) -> OpenedSignalStore: ...
    def __exit__(self, *exc: object) -> None: ...


def open_signal_store(settings: Settings, *, read_only: bool = False) -> OpenedSignalStore:
    url = settings.database_url
    if url is not None:
        # Imported here: psycopg is loaded only by a process configured for PostgreSQL.
        from bot.store.pg_signals import PostgresSignalStore

        return PostgresSignalStore(url.get_secret_value(), read_only=read_only)
    return SQLiteSignalStore(settings.db_path, read_only=read_only)
