"""What a command needs, built once at the entry point from ``Settings`` and passed down.

Expensive or stateful parts (the knowledge base, the store) open lazily: ``marin-watch ask``
never touches SQLite, and ``subscriptions list`` never renders an answer.
"""

from __future__ import annotations

import datetime as dt
import logging
from functools import cached_property
from typing import TYPE_CHECKING

from answers.lexicon import load_lexicon, uncovered_topics
from answers.render import Renderer
from answers.reply import Reply
from bot.config import Settings
from bot.core import Core
from bot.digest.builder import DigestService
from bot.digest.window import MAX_DAYS, Window
from bot.store.signals import SQLiteSignalStore
from bot.watchers.review import StoreSignalFeed
from knowledge.clock import Clock, system_clock
from knowledge.errors import KnowledgeInvalid, StoreError
from knowledge.knowledge_base import KnowledgeBase
from knowledge.loader import load_with_problems

log = logging.getLogger(__name__)

# "What's new?" in a chat shows this many changed claims; `digest` shows them all.
CHAT_DIGEST_CLAIMS = 5

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
    def store(self) -> SQLiteStore:
        if self._store is None:
            from bot.store.sqlite import SQLiteStore

            self._store = SQLiteStore(self.settings.db_path)
        return self._store

    @cached_property
    def digests(self) -> DigestService:
        """Digests with the watchers' unreviewed signals, once a store exists (``ask`` and
        ``digest`` never create the database file just to find it empty)."""
        feed = None
        if self.settings.db_path.exists():
            try:
                feed = StoreSignalFeed(self.signals)
            except StoreError as exc:
                # The evidence digest needs only the knowledge base; an unreadable store
                # costs the unreviewed-signals section, not the answer.
                log.warning("digest without watcher signals: %s", exc)
        return DigestService(self.kb, Renderer(self.kb, self.clock), signals=feed)

    @property
    def signals(self) -> SQLiteSignalStore:
        if self._signals is None:
            self._signals = SQLiteSignalStore(self.settings.db_path)
        return self._signals

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
        if self._signals is not None:
            self._signals.close()
            self._signals = None
