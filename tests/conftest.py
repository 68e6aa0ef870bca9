"""Shared fixtures: a bot to talk to, pinned to a known day, on the bundled knowledge base."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest

from answers.reply import Reply
from bot.core import Core
from knowledge.clock import fixed_clock
from knowledge.knowledge_base import KnowledgeBase
from knowledge.loader import load

# The day after the knowledge base last learned evidence (2026-11-30): a digest reports a
# recorded day once it is over, so this is the first day that reports it.
TODAY = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture(scope="session")
def kb() -> KnowledgeBase:
    return load(today=TODAY.date())


@dataclass
class Conversation:
    """Talk to the core like a user would: ``bot.ask("has it started?")``."""

    core: Core

    def ask(self, question: str, **kwargs: object) -> Reply:
        return self.core.ask(question, **kwargs)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def bot(kb: KnowledgeBase) -> Conversation:
    return Conversation(Core(kb, clock=fixed_clock(TODAY)))
