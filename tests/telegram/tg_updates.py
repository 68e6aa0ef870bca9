"""The updates a user's actions produce, as Telegram would deliver them to the bot."""

from __future__ import annotations

import itertools
import time
from typing import Any

from tests.telegram.tg_fake import ALICE, BOT, Call, chat_of, plain_text

_ids = itertools.count(1)


def message(
    text: str,
    *,
    user: dict[str, Any] = ALICE,
    chat: dict[str, Any] | None = None,
    reply_to: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An update carrying ``text`` as a user would type it; commands and mentions get entities."""
    chat = chat or {"id": user["id"], "type": "private", "first_name": user["first_name"]}
    entities = []
    if text.startswith("/"):
        entities.append({"type": "bot_command", "offset": 0, "length": len(text.split()[0])})
    mention = f"@{BOT['username']}"
    if mention in text:
        entities.append(
            {"type": "mention", "offset": _utf16_offset(text, mention), "length": len(mention)}
        )
    msg: dict[str, Any] = {
        "message_id": next(_ids),
        "date": int(time.time()),
        "chat": chat,
        "from": user,
        "text": text,
    }
    if entities:
        msg["entities"] = entities
    if reply_to:
        msg["reply_to_message"] = reply_to
    return {"update_id": next(_ids), "message": msg}


def bot_message(sent: Call, message_id: int = 900) -> dict[str, Any]:
    """A message the bot sent earlier, as it appears in a reply to it."""
    return {
        "message_id": message_id,
        "date": int(time.time()),
        "chat": chat_of(sent.chat_id),
        "from": BOT,
        "text": plain_text(sent.text),
    }


def press(
    sent: Call, data: str, *, user: dict[str, Any] = ALICE, message_id: int = 901
) -> dict[str, Any]:
    """An update for pressing the inline button with callback ``data`` under ``sent``."""
    return {
        "update_id": next(_ids),
        "callback_query": {
            "id": str(next(_ids)),
            "from": user,
            "chat_instance": "ci-1",
            "data": data,
            "message": {
                **bot_message(sent, message_id),
                "reply_markup": sent.params.get("reply_markup"),
            },
        },
    }


def _utf16_offset(text: str, needle: str) -> int:
    return len(text[: text.index(needle)].encode("utf-16-le")) // 2


def photo(caption: str, *, user: dict[str, Any] = ALICE) -> dict[str, Any]:
    """A photo sent in a private chat with ``caption`` under it."""
    update = message("", user=user)
    msg = update["message"]
    del msg["text"]
    msg["photo"] = [{"file_id": "p1", "file_unique_id": "u1", "width": 90, "height": 90}]
    msg["caption"] = caption
    return update
