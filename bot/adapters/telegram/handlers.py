"""Thin handlers: an ``Update`` becomes a ``Chat`` and a conversation call; what it says
becomes Telegram messages.

What to say is the conversation's decision (``bot.chat``), how it looks is ``format``'s. These
functions find the question in a message, supply the facts only Telegram knows (is this
person an administrator of the group?), and send.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from typing import Any

from telegram import Bot, CallbackQuery, ChatMember, InputFile, Message, Update
from telegram.constants import ChatType
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from answers.reply import Reply
from bot.adapters.telegram.format import (
    NONE_OF_THESE,
    WHY,
    choice_keyboard,
    messages,
    photo_caption,
    why_keyboard,
)
from bot.adapters.telegram.incoming import question_in
from bot.adapters.telegram.replies import with_retries
from bot.chat.conversation import Conversation, Said
from bot.chat.pictures import Picture
from bot.chat.subscriptions import NEEDS_MANAGER
from bot.chat.texts import HTML, Notice
from bot.chat.where import Chat, Quoted
from bot.digest.sending import Sender
from bot.store.contract import Destination

log = logging.getLogger(__name__)

PLATFORM = "telegram"

# What Telegram answers when a button's callback query can no longer be answered (it was
# pressed while the bot was down, more than about 15 seconds ago): the press still counts.
_STALE_QUERY = ("query is too old", "query id is invalid")

Context = ContextTypes.DEFAULT_TYPE
Handler = Callable[[Update, Context], Coroutine[Any, Any, None]]


@dataclass
class Handlers:
    conversation: Conversation
    sender_for: Callable[[Bot], Sender]  # how a /digest is posted: split, flood-controlled
    admin_ids: frozenset[int] = frozenset()  # the bot's curators
    retry_wait: float = 1.0  # the first backoff when an answer meets a transient error

    def command(self, name: str) -> Handler:
        """The handler of ``/name``: the conversation runs it, the replies come here."""

        async def handler(update: Update, context: Context) -> None:
            manager = name in NEEDS_MANAGER and await self._is_manager(update)
            chat = self.chat(update, manager=manager)
            await self.conversation.command(
                chat,
                name,
                tuple(context.args or ()),
                partial(self._say, update),
                sender=self.sender_for(context.bot),
                bot_name=_handle(context.bot),
                quoted=_replied(update),  # "/check" as a reply to a message
            )

        handler.__doc__ = f"/{name}"
        return handler

    async def on_text(self, update: Update, context: Context) -> None:
        """Any text in a private chat; in a group only a mention or a reply to the bot."""
        message = update.effective_message
        if message is None or (message.text is None and message.caption is None):
            return
        question = question_in(message, context.bot.username, context.bot.id)
        if question is None:
            return
        origin = message.forward_origin  # a forward: its words as written, on its own day
        forwarded = None if origin is None else Quoted(question, origin.date)
        reply = self.conversation.said(
            self.chat(update), question, forwarded=forwarded, bot=_handle(context.bot)
        )
        await self._say(update, reply)

    async def unknown_command(self, update: Update, context: Context) -> None:
        """A /command we do not have, in a private chat: a hint, not silence."""
        await self._say(update, self.conversation.notice(self.chat(update), "unknown_command"))

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
        offered = shown.text if isinstance(shown, Message) and shown.text else None
        if query.data.startswith(WHY):  # "Why?" under an answer: the derivation, below it
            lang = self.conversation.core.detect_language(offered) if offered else None
            why = self.conversation.why(self.chat(update), [query.data[len(WHY) :]], lang)
            if isinstance(shown, Message):
                for part in messages(why):
                    await shown.reply_html(part, do_quote=False)
            return
        key = None if query.data == NONE_OF_THESE else query.data
        said = self.conversation.choose(self.chat(update), key, shown=offered)
        if isinstance(said, Notice):
            await _edit(query, said.render(HTML))
            return
        first, *rest = messages(said)
        keyboard = choice_keyboard(said)
        if not await _edit(query, first, reply_markup=None if rest else keyboard):
            return  # pressed twice: the first press already answered
        if isinstance(shown, Message):
            for i, part in enumerate(rest, 1):
                await shown.reply_html(
                    part, do_quote=False, reply_markup=keyboard if i == len(rest) else None
                )

    # --- chat lifecycle --------------------------------------------------------------------

    async def on_migrate(self, update: Update, context: Context) -> None:
        """A group became a supergroup: its subscription follows it to the new id."""
        message = update.effective_message
        if message is None or message.migrate_to_chat_id is None:
            return
        old = Destination(PLATFORM, str(message.chat.id))
        new = Destination(PLATFORM, str(message.migrate_to_chat_id))
        if self.conversation.subscriptions.move(old, new):
            log.info("telegram chat %s migrated to %s", old.id, new.id)

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
            gone = Destination(PLATFORM, str(change.chat.id))
            if self.conversation.subscriptions.end(gone, reason):
                log.info("telegram chat %s unsubscribed: %s", change.chat.id, reason)

    async def on_error(self, update: object, context: Context) -> None:
        """Log first; then tell the user something went wrong, if there is one to tell."""
        log.error("telegram handler failed", exc_info=context.error)
        if isinstance(update, Update) and update.effective_message:
            try:
                notice = self.conversation.error(self.chat(update))
                await update.effective_message.reply_html(notice.render(HTML))
            except TelegramError:
                log.warning(
                    "could not report the error to chat %s", update.effective_message.chat_id
                )

    # --- helpers ---------------------------------------------------------------------------

    def chat(self, update: Update, *, manager: bool = False) -> Chat:
        """The platform-free facts of this update: where, who, which language, what rights."""
        chat, user = update.effective_chat, update.effective_user
        return Chat(
            platform=PLATFORM,
            id=str(chat.id if chat else 0),
            user=str(user.id if user else 0),
            private=chat is None or chat.type == ChatType.PRIVATE,
            locale=user.language_code if user else None,
            manager=manager,
            curator=user is not None and user.id in self.admin_ids,
        )

    async def _is_manager(self, update: Update) -> bool:
        """An administrator of this group (or an anonymous one, posting as the group)."""
        chat, user, message = update.effective_chat, update.effective_user, update.effective_message
        if chat is None or user is None or chat.type == ChatType.PRIVATE:
            return False
        if message is not None and message.sender_chat is not None:
            return message.sender_chat.id == chat.id
        member = await chat.get_member(user.id)
        return member.status in (ChatMember.ADMINISTRATOR, ChatMember.OWNER)

    async def _say(self, update: Update, said: Said) -> None:
        message = update.effective_message
        if message is None:
            return
        quote = message.chat.type != ChatType.PRIVATE
        if isinstance(said, Notice):
            await message.reply_html(said.render(HTML), do_quote=quote)
            return
        if isinstance(said, Picture):
            caption, rest = photo_caption(said.reply)
            photo = InputFile(said.png, filename=said.name)
            send = partial(message.reply_photo, photo, caption=caption, do_quote=quote)
            await with_retries(send, base_wait=self.retry_wait)
            if rest:  # the caption's limit is 1,024: the caveat follows as a message
                await self._answer(message, said.reply, quote=False)
            return
        await self._answer(message, said, quote)

    async def _answer(self, message: Message, reply: Reply, quote: bool) -> None:
        parts = messages(reply)
        why = self.conversation.explainable(reply)
        keyboard = choice_keyboard(reply) or why_keyboard(why, reply.language)
        for i, part in enumerate(parts):
            markup = keyboard if i == len(parts) - 1 else None
            send = partial(message.reply_html, part, do_quote=quote and i == 0, reply_markup=markup)
            await with_retries(send, base_wait=self.retry_wait)


def _replied(update: Update) -> Quoted | None:
    """The message this one replies to, with the date it was written, if it has words."""
    message = update.effective_message
    replied = message.reply_to_message if message is not None else None
    text = (replied.text or replied.caption or "") if replied is not None else ""
    return Quoted(text, replied.date) if replied is not None and text else None


def _handle(bot: Bot) -> str | None:
    return f"@{bot.username}" if bot.username else None


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
