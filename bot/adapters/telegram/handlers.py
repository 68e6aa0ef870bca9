"""Thin handlers: translate an ``Update`` into a core call and the ``Reply`` into messages.

What to say is the core's decision, how it looks is ``format``'s; these functions only pick
the language, find the question in a message, and check who may change a subscription.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from telegram import Bot, CallbackQuery, ChatMember, Message, Update
from telegram.constants import ChatType
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from answers.reply import Reply
from bot.adapters.telegram import args as parse
from bot.adapters.telegram.format import NONE_OF_THESE, choice_keyboard, esc, messages
from bot.adapters.telegram.incoming import question_in, user_language
from bot.adapters.telegram.replies import with_retries
from bot.adapters.telegram.texts import text
from bot.core import Core
from bot.followups import Followups, ask_in
from bot.store.contract import Destination, Store, Subscription

log = logging.getLogger(__name__)

PLATFORM = "telegram"
DEFAULT_TIME = dt.time(9, 0)
DEFAULT_TIMEZONE = "UTC"

# What Telegram answers when a button's callback query can no longer be answered (it was
# pressed while the bot was down, more than about 15 seconds ago): the press still counts.
_STALE_QUERY = ("query is too old", "query id is invalid")

Context = ContextTypes.DEFAULT_TYPE
# Sends the /digest reply to a destination and records it: (bot, destination, language, window).
SendDigest = Callable[[Bot, Destination, str, parse.DigestArgs], Awaitable[None]]


@dataclass
class Handlers:
    core: Core
    store: Store
    send_digest: SendDigest
    default_language: str = "en"
    admin_ids: frozenset[int] = frozenset()
    # The curator's queue for /signals (bot admins only), or None when not wired.
    signals_for: Callable[[str], Reply] | None = None
    followups: Followups = field(default_factory=Followups)
    retry_wait: float = 1.0  # the first backoff when an answer meets a transient error

    # --- questions -----------------------------------------------------------------------

    async def start(self, update: Update, context: Context) -> None:
        """/start: what the bot is, in the user's language."""
        message = update.effective_message
        if message:
            await message.reply_html(text(self.language(update), "start"))

    async def ask(self, update: Update, context: Context) -> None:
        """/ask <question>, in any chat."""
        question = " ".join(context.args or ())
        if not question:
            await self._say(update, text(self.language(update), "ask_usage"))
            return
        await self._answer(update, self._ask(update, question))

    def _ask(self, update: Update, question: str) -> Reply:
        chat, user = update.effective_chat, update.effective_user
        where = f"tg:{chat.id if chat else 0}:{user.id if user else 0}"
        return ask_in(self.core, self.followups, where, question)

    async def on_text(self, update: Update, context: Context) -> None:
        """Any text in a private chat; in a group only a mention or a reply to the bot."""
        message = update.effective_message
        if message is None or (message.text is None and message.caption is None):
            return
        question = question_in(message, context.bot.username, context.bot.id)
        if question is None:
            return
        if not question:
            reply = self.help_reply(self.language(update), context.bot.username)
        else:
            reply = self._ask(update, question)
        await self._answer(update, reply)

    async def unknown_command(self, update: Update, context: Context) -> None:
        """A /command we do not have, in a private chat: a hint, not silence."""
        await self._say(update, text(self.language(update), "unknown_command"))

    async def help(self, update: Update, context: Context) -> None:
        """/help: the chat commands, then the core's topics (with its caveat)."""
        await self._answer(update, self.help_reply(self.language(update), context.bot.username))

    def help_reply(self, lang: str, username: str | None) -> Reply:
        core_help = self.core.answer_key("help", lang=lang)
        commands = text(lang, "commands", bot=f"@{username}" if username else "@…")
        return dataclasses.replace(
            core_help,
            body=f"{commands}\n\n{core_help.body}",
            sections=(commands, *(core_help.sections or (core_help.body,))),
        )

    def command(self, key: str) -> Callable[[Update, Context], Coroutine[Any, Any, None]]:
        """/status, /sources, /watch: a fixed reply from the core."""

        async def handler(update: Update, context: Context) -> None:
            await self._answer(update, self.core.answer_key(key, lang=self.language(update)))

        handler.__doc__ = f"/{key}"
        return handler

    async def signals(self, update: Update, context: Context) -> None:
        """/signals: the unreviewed watcher signals, for the bot's admins only."""
        user = update.effective_user
        if self.signals_for is None or user is None or user.id not in self.admin_ids:
            await self._say(update, text(self.language(update), "curators_only"))
            return
        await self._answer(update, self.signals_for(self.language(update)))

    async def on_choice(self, update: Update, context: Context) -> None:
        """A pressed button under a choices reply: answer it by editing that message."""
        query = update.callback_query
        if query is None or query.data is None:
            return
        try:
            await query.answer()  # stops the button's spinner
        except BadRequest as exc:
            if not any(marker in exc.message.lower() for marker in _STALE_QUERY):
                raise
            log.info("answering a button pressed a while ago: %s", exc.message)
        shown = query.message
        lang = (
            self.core.detect_language(shown.text)
            if isinstance(shown, Message) and shown.text
            else self.language(update)
        )
        if query.data == NONE_OF_THESE:
            await _edit(query, text(lang, "none_chosen"))
            return
        reply = self.core.answer_key(query.data, lang=lang)
        first, *rest = messages(reply)
        keyboard = choice_keyboard(reply)
        if not await _edit(query, first, reply_markup=None if rest else keyboard):
            return  # pressed twice: the first press already answered
        if isinstance(shown, Message):
            for i, part in enumerate(rest, 1):
                await shown.reply_html(
                    part, do_quote=False, reply_markup=keyboard if i == len(rest) else None
                )

    # --- digest and subscription ---------------------------------------------------------

    async def digest(self, update: Update, context: Context) -> None:
        """/digest [days | since DATE]: what changed in the evidence."""
        lang = self.language(update)
        asked = parse.parse_digest(context.args or (), today=self.core.clock().date())
        if isinstance(asked, parse.Invalid):
            await self._refuse(update, lang, asked)
            return
        await self.send_digest(context.bot, self.destination(update), lang, asked)

    async def subscribe(self, update: Update, context: Context) -> None:
        """/subscribe [HH:MM] [time zone]: a daily digest in this chat."""
        lang = self.language(update)
        if not await self._may_manage(update):
            await self._say(update, text(lang, "admins_only"))
            return
        asked = parse.parse_subscribe(context.args or ())
        if isinstance(asked, parse.Invalid):
            await self._refuse(update, lang, asked)
            return
        destination = self.destination(update)
        current = self.store.subscription(destination)
        base = current if current and current.active else None
        sub = Subscription(
            destination=destination,
            language=lang,
            digest_time=asked.time or (base.digest_time if base else DEFAULT_TIME),
            timezone=asked.timezone or (base.timezone if base else DEFAULT_TIMEZONE),
            post_on_quiet_days=base.post_on_quiet_days if base else False,
        )
        await self._say(update, self._confirmation(self.store.subscribe(sub)))

    async def unsubscribe(self, update: Update, context: Context) -> None:
        """/unsubscribe: stop the daily digest here."""
        lang = self.language(update)
        if not await self._may_manage(update):
            await self._say(update, text(lang, "admins_only"))
            return
        user = update.effective_user
        who = f"user {user.id}" if user else "a user"
        done = self.store.unsubscribe(self.destination(update), f"/unsubscribe by {who}")
        await self._say(update, text(lang, "unsubscribed" if done else "not_subscribed"))

    async def settings(self, update: Update, context: Context) -> None:
        """/settings [language|time|timezone|quiet VALUE]: show or change this chat's digest."""
        lang = self.language(update)
        sub = self.store.subscription(self.destination(update))
        if sub is None or not sub.active:
            await self._say(update, text(lang, "settings_unsubscribed"))
            return
        change = parse.parse_setting(context.args or ())
        if isinstance(change, parse.Invalid):
            await self._refuse(update, lang, change)
            return
        if change is not None:
            if not await self._may_manage(update):
                await self._say(update, text(lang, "admins_only"))
                return
            sub = self.store.subscribe(parse.apply_setting(sub, change))
            lang = sub.language
        await self._say(
            update,
            text(
                lang,
                "settings",
                language=sub.language,
                time=sub.digest_time.strftime("%H:%M"),
                tz=esc(parse.zone_label(sub.timezone)),
                quiet=text(lang, "on" if sub.post_on_quiet_days else "off"),
            ),
        )

    # --- chat lifecycle --------------------------------------------------------------------

    async def on_migrate(self, update: Update, context: Context) -> None:
        """A group became a supergroup: its subscription follows it to the new id."""
        message = update.effective_message
        if message is None or message.migrate_to_chat_id is None:
            return
        old = Destination(PLATFORM, str(message.chat.id))
        if self.store.subscription(old) is not None:
            self.store.move(old, Destination(PLATFORM, str(message.migrate_to_chat_id)))
            log.info("telegram chat %s migrated to %s", old.id, message.migrate_to_chat_id)

    async def on_membership(self, update: Update, context: Context) -> None:
        """Blocked by a user or removed from a group: stop the digest and say why."""
        change = update.my_chat_member
        if change is None:
            return
        if change.new_chat_member.status in (ChatMember.BANNED, ChatMember.LEFT):
            reason = (
                "the user blocked the bot"
                if change.chat.type == ChatType.PRIVATE
                else "the bot was removed from the chat"
            )
            if self.store.unsubscribe(Destination(PLATFORM, str(change.chat.id)), reason):
                log.info("telegram chat %s unsubscribed: %s", change.chat.id, reason)

    async def on_error(self, update: object, context: Context) -> None:
        """Log first; then tell the user something went wrong, if there is one to tell."""
        log.error("telegram handler failed", exc_info=context.error)
        if isinstance(update, Update) and update.effective_message:
            try:
                await update.effective_message.reply_html(text(self.language(update), "error"))
            except TelegramError:
                log.warning(
                    "could not report the error to chat %s", update.effective_message.chat_id
                )

    # --- helpers ---------------------------------------------------------------------------

    def destination(self, update: Update) -> Destination:
        chat = update.effective_chat
        assert chat is not None  # every handler registered here is for a chat update
        return Destination(PLATFORM, str(chat.id))

    def language(self, update: Update) -> str:
        """The chat's subscription language, else the user's Telegram language, else default."""
        chat = update.effective_chat
        if chat is not None:
            sub = self.store.subscription(Destination(PLATFORM, str(chat.id)))
            if sub is not None and sub.active:
                return sub.language
        return user_language(update.effective_user, self.default_language)

    def _confirmation(self, sub: Subscription) -> str:
        lang = sub.language
        return text(
            lang,
            "subscribed",
            time=sub.digest_time.strftime("%H:%M"),
            tz=esc(parse.zone_label(sub.timezone)),
            quiet=text(lang, "quiet_on" if sub.post_on_quiet_days else "quiet_off"),
        )

    async def _may_manage(self, update: Update) -> bool:
        """Anyone in a private chat; in a group its administrators (and the bot's admins)."""
        chat, user, message = update.effective_chat, update.effective_user, update.effective_message
        if chat is None or user is None:
            return False
        if chat.type == ChatType.PRIVATE or user.id in self.admin_ids:
            return True
        if message is not None and message.sender_chat is not None:
            return message.sender_chat.id == chat.id  # an anonymous admin of this group
        member = await chat.get_member(user.id)
        return member.status in (ChatMember.ADMINISTRATOR, ChatMember.OWNER)

    async def _answer(self, update: Update, reply: Reply) -> None:
        message = update.effective_message
        if message is None:
            return
        quote = message.chat.type != ChatType.PRIVATE
        parts = messages(reply)
        keyboard = choice_keyboard(reply)
        for i, part in enumerate(parts):
            markup = keyboard if i == len(parts) - 1 else None
            send = partial(message.reply_html, part, do_quote=quote and i == 0, reply_markup=markup)
            await with_retries(send, base_wait=self.retry_wait)

    async def _refuse(self, update: Update, lang: str, invalid: parse.Invalid) -> None:
        """Explain an argument we could not use (named in ``invalid``)."""
        values = {"value": esc(invalid.value), "example": esc(invalid.example)}
        await self._say(update, text(lang, invalid.key, **values))

    async def _say(self, update: Update, html: str) -> None:
        message = update.effective_message
        if message is not None:
            await message.reply_html(html, do_quote=message.chat.type != ChatType.PRIVATE)


async def _edit(query: CallbackQuery, new_text: str, **options: Any) -> bool:
    """Replace the choices message; False when it already shows this (a double tap, or two
    members pressing the same button): Telegram says "message is not modified", and the
    chat must not hear about it."""
    try:
        await query.edit_message_text(new_text, **options)
    except BadRequest as exc:
        if "not modified" not in exc.message.lower():
            raise
        log.info("a choice pressed again: %s", exc.message)
        return False
    return True
