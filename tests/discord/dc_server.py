"""The research server the bot was invited to: its channels and the people in it, as the
gateway describes them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.discord.dc_fake import bot_user

GUILD_ID = 700000000000000001
GENERAL = 700000000000000011  # where people talk to the bot
DIGEST = 700000000000000012  # where the daily digest goes
NEWS = 700000000000000013  # read-only for everyone but the moderators, the bot included
OWNER = 700000000000000099
DM_CHANNEL = 700000000000000050  # a direct message channel with the bot

VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
READ_HISTORY = 1 << 16
MANAGE_GUILD = 1 << 5
MEMBER_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | READ_HISTORY
BOT_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | READ_HISTORY


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    locale: str = "en-US"
    permissions: int = MEMBER_PERMISSIONS

    def user(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name.title(),
            "avatar": None,
        }

    def member(self) -> dict[str, Any]:
        return {
            "user": self.user(),
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(self.permissions),
        }


ALICE = Person(800000000000000001, "alice")
LI = Person(800000000000000002, "li", locale="zh-CN")
MEI = Person(800000000000000004, "mei", locale="zh-TW")
MOD = Person(800000000000000003, "mod", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)


def text_channel(
    channel_id: int, name: str, position: int, *, deny_everyone: int = 0
) -> dict[str, Any]:
    overwrites = [{"id": str(GUILD_ID), "type": 0, "allow": "0", "deny": str(deny_everyone)}]
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(GUILD_ID),
        "name": name,
        "position": position,
        "permission_overwrites": overwrites if deny_everyone else [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "rate_limit_per_user": 0,
        "last_message_id": None,
    }


def guild() -> dict[str, Any]:
    """The research server the bot was invited to, as GUILD_CREATE describes it."""
    everyone = {
        "id": str(GUILD_ID),
        "name": "@everyone",
        "permissions": str(MEMBER_PERMISSIONS),
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
    return {
        "id": str(GUILD_ID),
        "name": "Marin readers",
        "icon": None,
        "owner_id": str(OWNER),
        "roles": [everyone],
        "emojis": [],
        "stickers": [],
        "features": [],
        "channels": [
            text_channel(GENERAL, "general", 0),
            text_channel(DIGEST, "digest", 1),
            text_channel(NEWS, "news", 2, deny_everyone=SEND_MESSAGES),
        ],
        # Discord always includes the bot's own member: ``guild.me``, for permission checks
        "members": [
            {
                "user": bot_user(),
                "roles": [],
                "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
            }
        ],
        "threads": [],
        "voice_states": [],
        "presences": [],
        "member_count": 4,
        "large": False,
        "unavailable": False,
        "joined_at": "2026-01-01T00:00:00+00:00",
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "premium_tier": 0,
        "nsfw_level": 0,
        "system_channel_id": None,
        "preferred_locale": "en-US",
        "afk_timeout": 300,
    }
