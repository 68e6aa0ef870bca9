"""Every error marin-watch raises on purpose, in one tree.

    MarinWatchError                 base: a message meant for a human, never a traceback
    ├── KnowledgeError              the curated knowledge files are unusable
    │   └── KnowledgeInvalid        one or more problems, each naming file and field
    ├── ConfigError                 a setting is missing or malformed (names the variable)
    ├── InputRejected               a chat message or CLI argument we will not process
    ├── StoreError                  the SQLite store cannot be opened or migrated
    │   └── DeliveryClaimed         another scheduler already holds this daily delivery
    ├── DeliveryError               sending a digest failed
    │   ├── DestinationGone         the chat/channel no longer accepts us (blocked, deleted)
    │   ├── DestinationMoved        the chat has a new id (Telegram group → supergroup)
    │   └── DeliveryRetryable       flood control, 5xx or network: try again later
    ├── WatcherError                a source watcher could not fetch or parse a source
    │   └── SourceRateLimited       the source asked us to wait (403/429, Retry-After, reset)
    └── CuratorError                a signal cannot be promoted or dismissed as asked

Foreign errors (tomllib, pydantic, sqlite3, httpx, the chat SDKs) are translated into this
tree once, at the boundary that meets them, with ``raise ... from exc``.

It lives in ``knowledge/``, the bottom layer, so that every layer can raise from the one tree
while ``knowledge/`` itself imports nothing of ours (``tests/test_layering.py``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass


class MarinWatchError(Exception):
    """Base of every deliberate marin-watch error; ``str()`` is a human-readable message."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a knowledge file, located precisely enough to fix it."""

    file: str
    where: str  # e.g. "claim 'training-started' → evidence[2].source"
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.where}: {self.message}"


class KnowledgeError(MarinWatchError):
    """The curated knowledge base cannot be used."""


class KnowledgeInvalid(KnowledgeError):
    """The knowledge files have problems; each one names its file and field."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"knowledge base is invalid ({len(self.problems)} problem(s)):\n{lines}")


class ConfigError(MarinWatchError):
    """A setting is missing or malformed."""


class InputRejected(MarinWatchError):
    """Input we refuse to process; the message says why in one line."""


class StoreError(MarinWatchError):
    """The SQLite store cannot be opened, migrated or written."""


class DeliveryClaimed(StoreError):
    """Another scheduler already recorded this daily delivery: it, not we, will send it."""


class DeliveryError(MarinWatchError):
    """Sending a message to a destination failed."""


class DestinationGone(DeliveryError):
    """The destination refuses us for good (user blocked the bot, channel deleted)."""


class DestinationMoved(DeliveryError):
    """The destination now lives under another id (Telegram ChatMigrated)."""

    def __init__(self, message: str, new_id: str) -> None:
        super().__init__(message)
        self.new_id = new_id


class DeliveryRetryable(DeliveryError):
    """A temporary failure: flood control, a 5xx, a network error."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class WatcherError(MarinWatchError):
    """A watcher could not fetch or understand a source."""


class SourceRateLimited(WatcherError):
    """The source said to come back later; ``until`` is when (timezone-aware)."""

    def __init__(self, message: str, until: dt.datetime) -> None:
        super().__init__(message)
        self.until = until


class CuratorError(MarinWatchError):
    """A curator action (promote, dismiss) cannot be carried out."""
