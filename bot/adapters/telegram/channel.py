"""The channel configured by id: the bot must be an admin there to post the daily digest.

``channel_problem`` asks Telegram and answers in words an operator can act on, or None when
the bot may post.
"""

from __future__ import annotations

from telegram import Bot, ChatMember, ChatMemberAdministrator
from telegram.error import BadRequest, Forbidden


async def channel_problem(bot: Bot, channel_id: str) -> str | None:
    """None when the bot can post in the channel; otherwise what is wrong and how to fix it."""
    fix = (
        f"add @{bot.username} to the channel as an administrator with the right to post "
        "messages (channel settings → Administrators → Add Admin)"
    )
    try:
        member = await bot.get_chat_member(channel_id, bot.id)
    except (Forbidden, BadRequest) as exc:
        return f"Telegram channel {channel_id}: the bot cannot reach it ({exc.message}); {fix}."
    if member.status == ChatMember.OWNER:
        return None
    if isinstance(member, ChatMemberAdministrator):
        if member.can_post_messages:
            return None
        return (
            f"Telegram channel {channel_id}: the bot is an administrator but may not post "
            'messages; give it the "Post messages" right.'
        )
    return f"Telegram channel {channel_id}: the bot is not an administrator there; {fix}."
