"""Reading the store without writing a byte of it, for the commands that only look
(``subscriptions list``, ``signals list`` and ``show``, ``digest``).

SQLite's ``mode=ro`` is not enough on its own: a WAL-mode file (ours always is) opened
read-only still gets its ``-wal`` and ``-shm`` files created beside it, and leaves them there.
So each read opens a connection of its own (``connection``), chosen by what is on disk:

- a writer's ``-wal`` (or a rollback ``-journal``) is there: ``mode=ro``, an ordinary reader
  that takes the locks and reads the log, in side files that were the writer's already (a
  writer that closes during the read leaves them, as with any reader, to the next writer);
- neither is: no process has the file open and all of it is in the file itself, so it is
  opened ``immutable=1`` (no lock, no side file). A writer that starts meanwhile writes its
  own new ``-wal``; only a checkpoint changes the file under us, and that changes its size
  or times: a read that saw the file change is refused (``StoreError``), to be run again.
  (Times are fine-grained on current Linux; where they are coarse, a checkpoint within one
  clock tick of the write before our open could go unseen.)

A file is read only at this marin-watch's schema version (``readable_version``): an older one
is refused with the command that migrates it, since reading never migrates; one that holds
nothing yet is version 0, which the commands show as "nothing stored yet".
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from knowledge.errors import StoreError

# Run by a writer, which migrates the file at open (the CLI's read-only commands never do).
MIGRATING_COMMANDS = "`marin-watch serve` or `marin-watch watch --once`"


@contextmanager
def connection(path: Path, *, timeout: float) -> Iterator[sqlite3.Connection]:
    """One read-only connection to ``path``, closed after the read it is for."""
    writer_present = any(Path(f"{path}{side}").exists() for side in ("-wal", "-journal"))
    before = None if writer_present else _state(path)
    mode = "mode=ro" if writer_present else "mode=ro&immutable=1"
    try:
        conn = sqlite3.connect(
            f"{path.absolute().as_uri()}?{mode}",
            uri=True,
            timeout=timeout,
            isolation_level=None,
            check_same_thread=False,
        )
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the store at {path}: {exc}") from exc
    conn.row_factory = sqlite3.Row
    try:
        yield conn
    finally:
        conn.close()
        if before is not None and _state(path) != before:
            # Raised over any error of the read itself: a torn page explains that error.
            raise StoreError(
                f"the store at {path} was written while being read; run the command again"
            )


def readable_version(path: Path | str, version: int, target: int) -> int:
    """The version a read-only open accepts (0: nothing stored yet), or a refusal.
    ``path``: the file, or a PostgreSQL store's redacted URL (``pg_migrations.readable``)."""
    if 0 < version < target:
        raise StoreError(
            f"the store at {path} is at schema version {version}, older than this "
            f"marin-watch's {target}; run {MIGRATING_COMMANDS} once to migrate it "
            "(this command only reads, and never migrates)"
        )
    return version


def _state(path: Path) -> tuple[int, int, int, int] | None:
    """What a write to the file would change (None: the file is gone)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
