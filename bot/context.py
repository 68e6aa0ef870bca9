"""What a command needs, built once at the entry point from ``Settings`` and passed down.

Expensive or stateful parts (the knowledge base, the store) open lazily: ``marin-watch ask``
never touches SQLite, and ``subscriptions list`` never renders an answer. Commands that only
look at the store open it read-only (``reading_store``, ``reading_signals``): they never
create, migrate or write the file (``bot.store.readonly``).
"""

from __future__ import annotations

import datetime as dt
import logging
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from answers.lexicon import load_lexicon, uncovered_topics
from answers.render import Renderer
from answers.reply import Reply
from bot.config import Settings
from bot.core import Core
from bot.digest.builder import DigestService
from bot.digest.window import MAX_DAYS, Window
from bot.store.contract import Store
from bot.store.signal_stores import OpenedSignalStore, open_signal_store
from bot.watchers.review import StoreSignalFeed
from knowledge.clock import Clock, system_clock
from knowledge.errors import KnowledgeInvalid, StoreError
from knowledge.knowledge_base import KnowledgeBase
from knowledge.loader import load_with_problems

log = logging.getLogger(__name__)

# "What's new?" in a chat shows this many changed claims; `digest` shows them all.
CHAT_DIGEST_CLAIMS = 5

if TYPE_CHECKING:
    pass


def no_store(path: Path) -> str:
    """Why a read-only command found nothing: no file, or one that holds nothing yet."""
    return f"nothing stored at {path}" if path.exists() else f"no store at {path}"


class AppContext:
    def __init__(self, settings: Settings, *, clock: Clock = system_clock) -> None:
        self.settings = settings
        self.clock = clock
        self._store: Store | None = None
        self._reading_store: Store | None = None
        self._reading_signals: OpenedSignalStore | None = None

    def today(self) -> dt.date:
        return self.clock().date()

    @cached_property
    def kb(self) -> KnowledgeBase:
        """The validated knowledge base; raises ``KnowledgeInvalid`` naming file and field."""
        kb, problems = load_with_problems(self.settings.kb_dir, today=self.today())
        problems += uncovered_topics(kb, load_lexicon())
        if problems:  # the same list, in the same words, as `marin-watch kb check`
            raise KnowledgeInvalid(problems)
        return kb

    @cached_property
    def core(self) -> Core:
        return Core(
            self.kb,
            clock=self.clock,
            default_language=self.settings.default_language,
            changes=self._changes,
        )

    @property
    def store(self) -> Store:
        """The store subscriptions and deliveries live in: PostgreSQL when
        ``MARIN_WATCH_DATABASE_URL`` is set (several replicas), else the SQLite file."""
        if self._store is None:
            url = self.settings.database_url
            if url is not None:
                from bot.store.postgres import PostgresStore

                self._store = PostgresStore(url.get_secret_value(), clock=self.clock)
            else:
                from bot.store.sqlite import SQLiteStore

                self._store = SQLiteStore(self.settings.db_path, clock=self.clock)
        return self._store

    def reading_store(self) -> Store | None:
        """The store opened read-only, or None when there is none yet (no file, or a database
        that holds nothing); one that is not ours, or not at our version, is refused.
        With PostgreSQL too: a read-only session, nothing migrated."""
        url = self.settings.database_url
        if self._reading_store is None and (url is not None or self.settings.db_path.exists()):
            store: Store
            if url is not None:
                from bot.store.postgres import PostgresStore

                store = PostgresStore(url.get_secret_value(), read_only=True)
            else:
                from bot.store.sqlite import SQLiteStore

                store = SQLiteStore(self.settings.db_path, read_only=True)
            if store.version:
                self._reading_store = store
            else:
                store.close()  # a PostgreSQL session would be held open for nothing
        return self._reading_store

    def reading_signals(self) -> OpenedSignalStore | None:
        """The signal store opened read-only, or None when there is none yet (as above).
        With PostgreSQL too: a read-only session, nothing migrated (``signal_stores``)."""
        there = self.settings.database_url is not None or self.settings.db_path.exists()
        if self._reading_signals is None and there:
            signals = open_signal_store(self.settings, read_only=True)
            if signals.version:
                self._reading_signals = signals
            else:
                signals.close()  # a PostgreSQL session would be held open for nothing
        return self._reading_signals

    @cached_property
    def digests(self) -> DigestService:
        """Digests with the watchers' unreviewed signals, once a store exists, read-only
        (``ask`` and ``digest`` never create the database file just to find it empty)."""
        feed = None
        try:
            signals = self.reading_signals()
        except StoreError as exc:
            # The evidence digest needs only the knowledge base; an unreadable store
            # costs the unreviewed-signals section, not the answer.
            log.warning("digest without watcher signals: %s", exc)
        else:
            feed = StoreSignalFeed(signals) if signals is not None else None
        return DigestService(self.kb, Renderer(self.kb, self.clock), signals=feed)

    def _changes(self, lang: str, as_of: dt.date | None, days: int | None) -> Reply:
        """ "What changed (this week)?" in a chat: the changes in that many days, or the newest
        batch of evidence changes; capped for a chat, and no store needed."""
        if days is None:
            return self.digests.recent(lang=lang, as_of=as_of, limit=CHAT_DIGEST_CLAIMS).reply
        window = Window.last_days(min(days, MAX_DAYS), as_of or self.today())
        return self.digests.build(window, lang=lang, limit=CHAT_DIGEST_CLAIMS).reply

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None
        for reader in (self._reading_store, self._reading_signals):
            if reader is not None:
                reader.close()
        self._reading_store = self._reading_signals = None
