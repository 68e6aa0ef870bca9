"""The last answered question of each conversation, so "and how many of them?" can be read.

A follow-up that says too little to be read on its own ("are any of them public?", "那 loss
呢" is fine alone, "ok when then?" is not) is read as being about what the same person asked
last in the same chat, if that was recently. Bounded in size and age: a chat bot in thousands
of chats must not grow without end, and a question from yesterday is not a context.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from answers.reply import Outcome, Reply

if TYPE_CHECKING:
    from bot.core import Core

MAX_CONVERSATIONS = 10_000
FORGET_AFTER = dt.timedelta(minutes=15)


class Followups:
    def __init__(self, *, size: int = MAX_CONVERSATIONS, ttl: dt.timedelta = FORGET_AFTER) -> None:
        self._last: OrderedDict[str, tuple[str, dt.datetime]] = OrderedDict()
        self.size = size
        self.ttl = ttl

    def previous(self, conversation: str, now: dt.datetime) -> str | None:
        found = self._last.get(conversation)
        if found is None or now - found[1] > self.ttl:
            return None
        return found[0]

    def remember(self, conversation: str, question: str, now: dt.datetime) -> None:
        self._last[conversation] = (question, now)
        self._last.move_to_end(conversation)
        while len(self._last) > self.size:
            self._last.popitem(last=False)


def ask_in(
    core: Core, memory: Followups, conversation: str, question: str, **options: Any
) -> Reply:
    """Ask the core in a conversation: a follow-up is read against the last answered
    question, and an answered question becomes the context for the next one."""
    now = core.clock()
    reply = core.ask(question, previous=memory.previous(conversation, now), **options)
    if reply.outcome == Outcome.ANSWER and not reply.extra.get("followed"):
        memory.remember(conversation, question, now)
    return reply
