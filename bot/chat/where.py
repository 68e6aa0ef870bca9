"""Who is speaking, where, and what the platform says they may do: the adapter's facts."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bot.store.contract import Destination


@dataclass(frozen=True)
class Chat:
    """One person in one chat, as an adapter sees them. Decisions are the conversation's;
    these are only facts the platform supplies (a Telegram group admin, a Discord member with
    Manage Server, a curator listed in the configuration)."""

    platform: str  # "telegram", "discord", "console"
    id: str  # where replies go and a subscription lives: a chat, a channel, a DM
    user: str  # who speaks: follow-ups are read per person and chat
    private: bool = True  # a one-to-one chat (a DM, the console)
    locale: str | None = None  # the client's language tag: "zh-TW", "en-US", "zh-hans"
    manager: bool = False  # may manage this chat or server (group admin, Manage Server)
    curator: bool = False  # one of the bot's own admins (the signal queue)
    server: str | None = None  # a Discord server: the scope of its digest channel

    @property
    def destination(self) -> Destination:
        return Destination(self.platform, self.id)

    @property
    def conversation(self) -> str:
        """The key of this person's conversation here (the follow-up memory)."""
        return f"{self.platform}:{self.id}:{self.user}"

    @property
    def may_manage(self) -> bool:
        """Who may change this chat's digest: anyone in a private chat, else its managers."""
        return self.private or self.manager or self.curator


@dataclass(frozen=True)
class Quoted:
    """The message a command answers to (a Telegram reply, a forward): its words, and when
    they were written, so its "last Tuesday" is the Tuesday before it."""

    text: str
    written: dt.datetime | None = None
