"""/digest: what changed in the evidence, here, now.

In a private chat the whole digest is sent and recorded as a "manual" delivery, so the next
plain ``/digest`` there starts after it. In a group or a server channel, where a digest of six
messages would bury the conversation, a summary of the first few changed claims is posted,
unrecorded, with the command that gives the whole window in a private chat.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Sequence

from answers.reply import Reply
from bot.chat import args as parse
from bot.chat.subscriptions import invalid
from bot.chat.texts import Notice
from bot.chat.where import Chat
from bot.digest.builder import DigestService
from bot.digest.delivery import deliver_now
from bot.digest.sending import Sender
from bot.digest.window import Window
from bot.store.contract import Destination, Store
from knowledge.clock import Clock

# A group sees this many changed claims; the rest are a private /digest away.
SUMMARY_CLAIMS = 3


class DigestRequests:
    def __init__(self, digests: DigestService, store: Store | None, clock: Clock) -> None:
        self.digests = digests
        self.store = store
        self.clock = clock

    async def digest(
        self, chat: Chat, words: Sequence[str], lang: str, sender: Sender
    ) -> Notice | None:
        """Send the digest ``words`` ask for through ``sender``; a notice when there is more
        to say (a refusal, or where to read the whole of a summary)."""
        today = self.clock().date()
        asked = parse.parse_digest(words, today=today)
        if isinstance(asked, parse.Invalid):
            return invalid(asked, lang, chat)
        window = None
        if asked.days is not None:
            window = Window.last_days(asked.days, today)
        elif asked.since is not None:
            window = Window.since(asked.since, today)
        if not chat.private:
            return await self._summary(chat, lang, window, sender)
        if self.store is None:  # the console: nothing to record a delivery in
            digest = (
                self.digests.build(window, lang=lang) if window else self.digests.recent(lang=lang)
            )
            await sender.send(chat.destination, digest.reply)
            return None
        await deliver_now(
            self.store,
            self.digests,
            sender,
            chat.destination,
            lang=lang,
            window=window,
            clock=self.clock,
        )
        return None

    async def _summary(
        self, chat: Chat, lang: str, window: Window | None, sender: Sender
    ) -> Notice | None:
        limit = SUMMARY_CLAIMS
        if window is not None:
            digest = self.digests.build(window, lang=lang, limit=limit)
        elif self.store is not None:
            digest = self.digests.since_last(self.store, chat.destination, lang=lang, limit=limit)
        else:
            digest = self.digests.recent(lang=lang, limit=limit)
        await sender.send(chat.destination, digest.reply)
        total = len(digest.changes.claims)
        if total <= limit:
            return None
        start = digest.changes.window.first or parse.DIGEST_EARLIEST
        return Notice(
            "digest_summary",
            lang,
            {
                "shown": str(limit),
                "total": str(total),
                "since": start.isoformat(),
                "command": _whole_window(chat.platform, start, self.clock().date()),
            },
            chat.platform,
        )


def _whole_window(platform: str, start: dt.date, today: dt.date) -> str:
    """The command that asks for the same window in a private chat."""
    if platform == "discord":  # Discord's /digest takes a day count only
        days = min(max((today - start).days + 1, 1), parse.DIGEST_DAYS.stop - 1)
        return f"/digest days:{days}"
    return f"/digest since {start.isoformat()}"


class SayingSender:
    """A digest ``Sender`` that answers in the conversation, instead of posting by itself."""

    def __init__(self, say: Callable[[Reply], Awaitable[None]]) -> None:
        self.say = say

    async def send(self, destination: Destination, reply: Reply, *, skip: int = 0) -> None:
        # An answer to a command is never retried, so there is nothing to skip.
        await self.say(reply)
