"""One PostgreSQL connection (psycopg 3), opened with the rules every PostgreSQL store follows.

- The URL's password never reaches a log or an error: the store is known by ``redact(url)``
  (``postgresql://user:***@host/db``), and any foreign message that echoes the password has
  it blanked (``Redactor.clean``).
- The session runs in UTC, in autocommit: a single statement commits alone, and
  ``transaction()`` wraps several in one ``BEGIN`` … ``COMMIT``.
- The schema is migrated, or the database refused untouched, at open (``pg_migrations``).
- ``read_only=True`` migrates nothing (a database of an older release is refused) and runs
  the session with ``default_transaction_read_only``: the server itself refuses any write.
- ``psycopg`` errors become ``knowledge.errors.StoreError`` here, once, on one line.
- A connection the server dropped (restart, failover) fails the statement it broke, and the
  next one reconnects: nothing is retried behind the caller's back.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote, unquote

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from bot.store.migrations import Migration
from bot.store.pg_migrations import MIGRATIONS, migrate, readable
from knowledge.errors import StoreError

Connection = psycopg.Connection[tuple[Any, ...]]
CONNECT_TIMEOUT_S = 10  # unless the URL sets connect_timeout
_KEYWORD_PASSWORD = re.compile(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", re.IGNORECASE)


def redact(url: str) -> str:
    """``url`` with its password (in the user part, or a ``password`` parameter) as ***.

    Read widely: the user part runs to the *last* @, so a password holding an unencoded
    @ or / is hidden whole (at worst, with more than the password)."""
    if "://" not in url:  # key=value form: host=… password=…
        return _KEYWORD_PASSWORD.sub(r"\1***", url)
    scheme, rest = url.split("://", 1)
    at = rest.rfind("@")
    if at >= 0 and ":" in rest[:at]:
        rest = rest[:at].split(":", 1)[0] + ":***" + rest[at:]
    rest = re.sub(r"([?&]password=)[^&]*", r"\1***", rest, flags=re.IGNORECASE)
    return f"{scheme}://{rest}"


class Redactor:
    """Blanks a URL's password wherever a foreign message might repeat it: as written, as
    libpq reads it, percent-encoded or not. Fragments shorter than 4 characters are left
    (blanking every "p" would mangle the message, and show where the password was)."""

    def __init__(self, url: str) -> None:
        found: set[str] = set()
        if "://" not in url:
            found.update(value.strip("'") for _, value in _KEYWORD_PASSWORD.findall(url))
        else:
            rest = url.split("://", 1)[1]
            at = rest.rfind("@")
            if at >= 0 and ":" in rest[:at]:
                found.add(rest[:at].split(":", 1)[1])
            found.update(re.findall(r"[?&]password=([^&]*)", rest, flags=re.IGNORECASE))
        try:
            found.add(str(conninfo_to_dict(url).get("password") or ""))
        except psycopg.Error:
            pass  # malformed: connecting will say so, without the URL
        spellings = {form for s in found for form in (s, quote(s, safe=""), unquote(s))}
        # longest first, so a password is blanked whole before any part of it
        self._secrets = sorted((s for s in spellings if len(s) >= 4), key=len, reverse=True)

    def clean(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


class PgDatabase:
    def __init__(
        self, url: str, *, migrations: Sequence[Migration] = MIGRATIONS, read_only: bool = False
    ) -> None:
        self.read_only = read_only
        self._redactor = Redactor(url)
        # cleaned too: where libpq reads the password differently from ``redact``
        self.where = self._redactor.clean(redact(url))
        self._url = url
        # One connection shared by whichever thread calls (adapters may use to_thread);
        # the lock keeps its transactions from interleaving, as for SQLite.
        self._lock = threading.RLock()
        self._closed = False
        self._conn = self._connect()
        try:
            with self.reading("open") as conn:
                if read_only:
                    self.version = readable(conn, len(migrations), where=self.where)
                else:
                    self.version = migrate(conn, migrations, where=self.where)
        except BaseException:
            self._conn.close()
            raise

    def _connect(self) -> Connection:
        try:
            settings = conninfo_to_dict(self._url)
        except psycopg.Error:
            raise StoreError(
                f"the database URL {self.where} is malformed; expected "
                "postgresql://user:password@host:5432/database"
            ) from None
        conninfo = self._url
        if "connect_timeout" not in settings:
            conninfo = make_conninfo(conninfo, connect_timeout=CONNECT_TIMEOUT_S)
        try:
            conn = psycopg.connect(conninfo, autocommit=True)
        except psycopg.Error as exc:
            # from None: the cause's text is shown here, cleaned; not kept raw for a traceback
            raise StoreError(
                f"cannot connect to the store at {self.where}: "
                f"{self._redactor.clean(one_line(exc))}"
            ) from None
        try:
            conn.execute("SET TIME ZONE 'UTC'")  # timestamptz values come back in UTC
            if self.read_only:  # every write refused by the server, not only transaction()'s
                conn.execute("SET default_transaction_read_only = on")
        except psycopg.Error as exc:
            conn.close()
            reason = self._redactor.clean(one_line(exc))
            raise StoreError(
                f"the store at {self.where} refused the session's settings: {reason}"
            ) from None
        return conn

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._conn.close()

    @contextmanager
    def reading(self, doing: str) -> Iterator[Connection]:
        """The connection, for statements that need no transaction of their own."""
        with self._lock:
            if self._closed:
                raise StoreError(f"the store at {self.where} is closed: cannot {doing}")
            if self._conn.closed or self._conn.broken:
                self._conn.close()
                self._conn = self._connect()
            try:
                yield self._conn
            except psycopg.Error as exc:
                raw = one_line(exc)
                message = self._redactor.clean(raw)
                error = StoreError(f"the store at {self.where} could not {doing}: {message}")
                # a cause that quoted the password is not kept for a traceback to print
                raise error from (exc if message == raw else None)
            except UnicodeEncodeError as exc:
                # A lone surrogate UTF-8 cannot carry (an undecodable byte in argv, say):
                # refused in the words SQLite's store uses (``connection.Database``).
                bad = exc.object[exc.start : exc.end]
                raise StoreError(
                    f"the store at {self.where} could not {doing}: {bad!r} is not valid text"
                ) from exc

    @contextmanager
    def transaction(self, doing: str) -> Iterator[Connection]:
        """Every statement inside commits together, or none does."""
        if self.read_only:
            raise StoreError(f"the store at {self.where} was opened read-only: cannot {doing}")
        with self.reading(doing) as conn, conn.transaction():
            yield conn
