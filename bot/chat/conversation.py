"""``Conversation``: everything a person can say to the bot, answered once for every platform.

An adapter builds a ``Chat`` from its event and calls one method; what comes back is a
``Reply`` (an answer from the core, with its caveat) or a ``Notice`` (the conversation's own
short message), which the adapter renders its way. A /command runs by name through
``command``, and everything it says goes to the adapter's ``say``: adding a command is one
branch here plus one line of wiring per platform.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Awaitable, Callable, Sequence
from functools import cached_property

from answers.assertions import asks_only
from answers.check_reply import check_reply
from answers.checking import Checker
from answers.inputs import clean, reject_reason
from answers.reply import Reply
from answers.script import traditional_reply
from answers.second_opinion import load_opinion
from answers.why import why_reply
from bot.chat.digest_requests import DigestRequests, SayingSender
from bot.chat.language import locale_language, wants_traditional
from bot.chat.pictures import Picture, progress_picture
from bot.chat.subscriptions import Subscriptions
from bot.chat.texts import Notice
from bot.chat.where import Chat, Quoted
from bot.core import Core
from bot.digest.builder import DigestService
from bot.digest.sending import Sender
from bot.followups import Followups, ask_in
from bot.store.contract import Store
from knowledge.clock import Clock

Said = Reply | Notice | Picture
Say = Callable[[Said], Awaitable[None]]
# The answers with a command of their own; the rest of the core's topics are asked for.
TOPIC_COMMANDS = ("status", "sources", "watch")
# Answers whose levels a "Why?" button explains (a check or a digest names its own).
EXPLAINED = ("fact", "progress", "overview")
# "why is that confirmed?", "为什么说已确认？": about the levels of the last answer.
_WHY = re.compile(
    r"^\W*(?:why|how come|how do you know)\b.{0,40}\b(?:confirmed|corroborated|single[- ]source"
    r"|disputed|indirect|no record|level|sure|certain|that|this)\b"
    r"|^\W*(?:why\??|why that\??)\W*$"
    r"|^\W*(?:为什么|為什麼|凭什么|憑什麼|怎么知道|怎麼知道).{0,20}(?:确认|確認|佐证|佐證|单一信源|單一信源"
    r"|存疑|间接|間接|未见记录|未見記錄|可信|确定|確定|这样|這樣)",
    re.IGNORECASE,
)
# Every /command, by the name every platform uses for it (Discord's digest channel is set
# with arguments no text command has: ``set_digest_channel``).
COMMANDS = (
    "start",
    "help",
    "ask",
    *TOPIC_COMMANDS,
    "digest",
    "subscribe",
    "unsubscribe",
    "settings",
    "signals",
    "check",
    "why",
    "chart",
)


class Conversation:
    def __init__(
        self,
        core: Core,
        digests: DigestService,
        *,
        store: Store | None = None,
        clock: Clock | None = None,
        signals_for: Callable[[str], Reply] | None = None,
        followups: Followups | None = None,
    ) -> None:
        self.core = core
        self.signals_for = signals_for  # the curator's queue, for /signals
        self.followups = followups or Followups()
        self.subscriptions = Subscriptions(store)
        self.digests = DigestRequests(digests, store, clock or core.clock)

    # --- language ---------------------------------------------------------------------------

    def language(self, chat: Chat) -> str:
        """The chat's digest language, else the person's client language, else the default."""
        return (
            self.subscriptions.language(chat)
            or locale_language(chat.locale)
            or self.core.default_language
        )

    def notice(self, chat: Chat, key: str, lang: str | None = None, **values: str) -> Notice:
        return Notice(
            key,
            lang or self.language(chat),
            values,
            chat.platform,
            traditional=wants_traditional(chat.locale),
        )

    def _script(self, chat: Chat, reply: Reply) -> Reply:
        """A Chinese reply in traditional characters for a Taiwan or Hong Kong client."""
        if reply.language == "zh" and wants_traditional(chat.locale):
            return traditional_reply(reply)  # idempotent on a reply already traditional
        return reply

    def _told(self, chat: Chat, notice: Notice) -> Notice:
        return dataclasses.replace(notice, traditional=wants_traditional(chat.locale))

    # --- questions --------------------------------------------------------------------------

    def ask(self, chat: Chat, question: str, *, lang: str | None = None) -> Reply:
        """A question in the person's words, answered in their language (or ``lang``);
        nothing asked gets the help; "why is that confirmed?" explains the last answer."""
        if not question.strip():
            return self.help(chat)
        where = chat.conversation
        previous = self.followups.previous(where, self.core.clock())
        if previous is not None and _WHY.search(question.strip()):
            asked = self.core.ask(previous)
            why_lang = lang or self.core.detect_language(question)
            return self._script(chat, self.why(chat, [c.id for c in asked.claims], why_lang))
        return self._script(chat, ask_in(self.core, self.followups, where, question, lang=lang))

    @cached_property
    def checker(self) -> Checker:
        return Checker(self.core.kb, self.core.reader, load_opinion())

    def check(self, chat: Chat, message: str, written: dt.datetime | None = None) -> Reply:
        """What the evidence says about each assertion of a message someone posted (on
        ``written``, by default now: "last Tuesday" is the Tuesday before it)."""
        if reject_reason(message) is not None:
            return self._script(chat, self.core.ask(message))  # the refusal, explained
        if asks_only(clean(message)):  # "has it started?" checked: a question, answered
            return self.ask(chat, message)
        lang = self.language(chat)
        day = (written or self.core.clock()).date()
        said = check_reply(self.core.renderer, self.checker, clean(message), lang=lang, written=day)
        return self._script(chat, said)

    def why(self, chat: Chat, about: Sequence[str], lang: str | None = None) -> Reply:
        """How the levels of these claims (or of a topic's answer) were derived."""
        lang = lang or self.language(chat)
        claims = [c for c in about if c in self.core.kb.claims]
        for key in about:  # a topic: the claims its answer uses
            if key not in self.core.kb.claims:
                claims += [c.id for c in self.core.answer_key(key, lang=lang).claims]
        if not claims:
            return self._script(chat, self.core.answer_key("help", lang=lang))
        return self._script(chat, why_reply(self.core.renderer, claims, lang=lang))

    def chart(self, chat: Chat) -> Picture:
        """The progress timeline, with a caption that says what it shows and since when."""
        picture = progress_picture(self.core, self.language(chat))
        return dataclasses.replace(picture, reply=self._script(chat, picture.reply))

    def explainable(self, reply: Reply) -> str | None:
        """The topic a "Why?" under ``reply`` explains, or None: no levels to explain."""
        topic = reply.extra.get("topic")
        if reply.outcome != "answer" or not reply.claims or reply.kind not in EXPLAINED:
            return None
        return topic if isinstance(topic, str) and 0 < len(topic.encode()) <= 40 else None

    def topic(self, chat: Chat, key: str) -> Reply:
        """A topic picked by name: a command such as /status, or the autocomplete of /ask."""
        return self._script(chat, self.core.answer_key(key, lang=self.language(chat)))

    def topics(self, chat: Chat) -> list[tuple[str, str]]:
        """(key, label) of every topic the bot can answer, for an autocomplete."""
        return [(c.key, c.label) for c in self.core.topic_choices(self.language(chat))]

    def choose(
        self, chat: Chat, key: str | None, *, shown: str | None = None, lang: str | None = None
    ) -> Reply | Notice:
        """A choice picked under a "which one do you mean?" reply; ``None`` is "none of
        these". The answer is in the language the choices were offered in: ``lang`` when the
        platform kept it, else read from the text they were offered under (``shown``)."""
        if lang is None:
            lang = self.core.detect_language(shown) if shown else self.language(chat)
        if key is None:
            return self.notice(chat, "none_chosen", lang)
        return self._script(chat, self.core.answer_key(key, lang=lang))

    def help(self, chat: Chat, bot_name: str | None = None) -> Reply:
        """The chat commands of this platform, then the core's topics (with its caveat)."""
        lang = self.language(chat)
        core_help = self.core.answer_key("help", lang=lang)
        commands = Notice("commands", lang, {"bot": bot_name or "@…"}, chat.platform).plain()
        return self._script(
            chat,
            dataclasses.replace(
                core_help,
                body=f"{commands}\n\n{core_help.body}",
                sections=(commands, *(core_help.sections or (core_help.body,))),
            ),
        )

    def said(
        self, chat: Chat, words: str, *, forwarded: Quoted | None = None, bot: str | None = None
    ) -> Reply:
        """Words sent to the bot outside a command. A message forwarded into a private chat
        is a message to check, of the day it was written; nothing said gets the help."""
        if not words.strip():
            return self.help(chat, bot)
        if forwarded is not None and chat.private:
            return self.check(chat, words, forwarded.written)
        return self.ask(chat, words)

    # --- commands ---------------------------------------------------------------------------

    async def command(
        self,
        chat: Chat,
        name: str,
        words: Sequence[str],
        say: Say,
        *,
        sender: Sender | None = None,
        bot_name: str | None = None,
        quoted: Quoted | None = None,
    ) -> None:
        """Run ``/name words``; everything it says goes to ``say``. A digest goes through
        ``sender`` when the platform has one for digests (retries, splitting), else ``say``.
        ``quoted``: the message the command replies to (``/check`` with no words checks it)."""
        lang = self.language(chat)
        if name in TOPIC_COMMANDS:
            await say(self.topic(chat, name))
        elif name == "help":
            await say(self.help(chat, bot_name))
        elif name == "start":
            await say(self.notice(chat, "start", lang))
        elif name == "ask":
            await say(self.ask(chat, " ".join(words)) if words else self.notice(chat, "ask_usage"))
        elif name == "digest":
            found = await self.digests.digest(chat, words, lang, sender or SayingSender(say))
            if found is not None:
                await say(self._told(chat, found))
        elif name in ("subscribe", "unsubscribe", "settings"):
            await say(self._told(chat, self._subscription(chat, name, words, lang)))
        elif name == "check":
            if words:
                await say(self.check(chat, " ".join(words)))
            elif quoted is not None:
                await say(self.check(chat, quoted.text, quoted.written))
            else:
                await say(self.notice(chat, "check_usage"))
        elif name == "why":
            await say(self.why(chat, words) if words else self.notice(chat, "why_usage"))
        elif name == "chart":
            await say(self.chart(chat))
        elif name == "signals":
            if self.signals_for is None or not chat.curator:
                await say(self.notice(chat, "curators_only", lang))
            else:
                await say(self.signals_for(lang))
        else:
            await say(self.notice(chat, "unknown_command", lang))

    def _subscription(self, chat: Chat, name: str, words: Sequence[str], lang: str) -> Notice:
        if name == "subscribe":
            return self.subscriptions.subscribe(chat, words, lang)
        if name == "unsubscribe":
            return self.subscriptions.unsubscribe(chat, lang)
        return self.subscriptions.settings(chat, words, lang)

    def set_digest_channel(
        self,
        chat: Chat,
        channel: str,
        *,
        time: str = "09:00",
        zone: str = "UTC",
        digest_language: str | None = None,
    ) -> Notice:
        """A server's daily digest in ``channel`` (Discord's ``/digest-channel set``)."""
        lang = self.language(chat)
        said = self.subscriptions.set_digest_channel(
            chat, channel, time, zone, digest_language, lang
        )
        return self._told(chat, said)

    def clear_digest_channel(self, chat: Chat) -> Notice:
        return self._told(chat, self.subscriptions.clear_digest_channel(chat, self.language(chat)))

    def broken_notices(self, chat: Chat) -> list[Notice]:
        """What is wrong with this server's digest channel, told once to whoever is here."""
        lang = self.language(chat)
        return [self._told(chat, n) for n in self.subscriptions.broken(chat, lang)]

    def error(self, chat: Chat) -> Notice:
        return self.notice(chat, "error")
