"""What a command needs, built once at the entry point from ``Settings`` and passed down.

Expensive or stateful parts (the knowledge base, the store) open lazily: ``marin-watch ask``
never touches SQLite, and ``subscriptions list`` never renders an answer.
"""

from __future__ import annotations

import datetime as dt
from functools import cached_property
from typing import TYPE_CHECKING

from answers.render import Renderer
from answers.reply import Reply
from bot.clock import Clock, system_clock
from bot.config import Settings
from bot.core import Core
from bot.digest.service import DigestService
from bot.store.signals import SQLiteSignalStore
from bot.watchers.review import StoreSignalFeed
from knowledge.base import KnowledgeBase
from knowledge.loader import load

if TYPE_CHECKING:
    from bot.store.sqlite import SQLiteStore


class AppContext:
    def __init__(self, settings: Settings, *, clock: Clock = system_clock) -> None:
        self.settings = settings
        self.clock = clock
        self._store: SQLiteStore | None = None
        self._signals: SQLiteSignalStore | None = None

    def today(self) -> dt.date:
        return self.clock().date()

    @cached_property
    def kb(self) -> KnowledgeBase:
        """The validated knowledge base; raises ``KnowledgeInvalid`` naming file and field."""
        return load(self.settings.kb_dir, today=self.today())

    @cached_property
    def core(self) -> Core:
        return Core(
            self.kb,
            clock=self.clock,
            default_language=self.settings.default_language,
            changes=self._changes,
        )

    @property
    def store(self) -> SQLiteStore:
        if self._store is None:
            from bot.store.sqlite import SQLiteStore

            self._store = SQLiteStore(self.settings.db_path)
        return self._store

    @cached_property
    def digests(self) -> DigestService:
        """Digests with the watchers' unreviewed signals, once a store exists (``ask`` and
        ``digest`` never create the database file just to find it empty)."""
        feed = StoreSignalFeed(self.signals) if self.settings.db_path.exists() else None
        return DigestService(self.kb, Renderer(self.kb, self.clock), signals=feed)

    @property
    def signals(self) -> SQLiteSignalStore:
        if self._signals is None:
            self._signals = SQLiteSignalStore(self.settings.db_path)
        return self._signals

    def _changes(self, lang: str, as_of: dt.date | None) -> Reply:
        """ "What changed?" in a chat: the newest batch of evidence changes (no store needed)."""
        return self.digests.recent(lang=lang, as_of=as_of).reply

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None
        if self._signals is not None:
            self._signals.close()
            self._signals = None
