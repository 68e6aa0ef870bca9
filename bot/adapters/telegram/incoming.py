"""Pure readings of an incoming message: is it a question for the bot, in which language."""

from __future__ import annotations

from telegram import Message, MessageEntity, User
from telegram.constants import ChatType


def user_language(user: User | None, default: str) -> str:
    code = (user.language_code or "").lower() if user else ""
    if code.startswith("zh"):
        return "zh"
    if code.startswith("en"):
        return "en"
    return default


def question_in(message: Message, username: str, bot_id: int) -> str | None:
    """The question a message asks the bot, or None when it is not addressed to the bot.

    Private chat: the whole text. Group: the text without the mention, when the bot is
    mentioned or the message replies to the bot; otherwise None (never answer everyone).
    """
    # a photo or document with a question in its caption is a question too
    captioned = message.text is None and message.caption is not None
    body = (message.caption if captioned else message.text) or ""
    if message.chat.type == ChatType.PRIVATE:
        return body.strip()
    mention = f"@{username}".lower()
    entities = (
        message.parse_caption_entities([MessageEntity.MENTION])
        if captioned
        else message.parse_entities([MessageEntity.MENTION])
    )
    mentioned = [value for value in entities.values() if value.lower() == mention]
    for value in mentioned:
        body = body.replace(value, " ")
    replied = message.reply_to_message
    to_bot = (
        replied is not None and replied.from_user is not None and replied.from_user.id == bot_id
    )
    if mentioned or to_bot:
        return " ".join(body.split())
    return None
