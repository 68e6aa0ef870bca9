"""Which channel of a server receives the daily digest: the rules, on the store, without Discord.

A server has at most one digest channel. Its subscription is keyed by the channel (the
destination the schedule posts to) and carries the server id as ``scope``, so that setting a
new channel replaces the old one, ``clear`` finds it, and a command anywhere in the server
can tell about a broken setting.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.store.contract import Destination, Store, Subscription

PLATFORM = "discord"
MISSING_PERMISSIONS = "missing permissions (403)"  # the broken reason the sender records
_TIME = re.compile(r"^\s*([01]?\d|2[0-3])[:.h]([0-5]\d)\s*$")


class BadSetting(ValueError):
    """A value a manager typed that we cannot use; ``key`` names the message that explains it."""

    def __init__(self, key: str, value: str) -> None:
        super().__init__(f"{key}: {value!r}")
        self.key, self.value = key, value


def destination(channel_id: int | str) -> Destination:
    return Destination(PLATFORM, str(channel_id))


def parse_time(value: str) -> dt.time:
    """``09:00``, ``9:00``, ``21.30`` or ``7h15`` → a wall-clock time."""
    match = _TIME.match(value)
    if match is None:
        raise BadSetting("bad_time", value)
    return dt.time(int(match[1]), int(match[2]))


def parse_timezone(value: str) -> str:
    name = value.strip()
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise BadSetting("bad_timezone", value) from exc
    return name


@cache
def _zones() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


def timezones_like(typed: str, limit: int = 25) -> list[str]:
    """Time zone names containing what was typed (for autocomplete), UTC first when empty."""
    needle = typed.strip().casefold()
    if not needle:
        return [
            "UTC",
            "Asia/Shanghai",
            "Europe/London",
            "Europe/Berlin",
            "America/New_York",
            "America/Los_Angeles",
        ][:limit]
    return [z for z in _zones() if needle in z.casefold()][:limit]


@dataclass(frozen=True)
class Change:
    subscription: Subscription
    replaced: tuple[Destination, ...] = ()


def set_channel(
    store: Store,
    *,
    guild_id: int | str,
    channel_id: int | str,
    at: dt.time,
    timezone: str,
    language: str,
) -> Change:
    """Make ``channel_id`` the server's digest channel; any other one of the server stops."""
    scope = str(guild_id)
    target = destination(channel_id)
    replaced = tuple(
        s.destination for s in server_subscriptions(store, scope) if s.destination != target
    )
    for old in replaced:
        store.unsubscribe(old, f"replaced by channel {target.id}")
    subscription = store.subscribe(
        Subscription(
            destination=target,
            language=language,
            digest_time=at,
            timezone=timezone,
            scope=scope,
        )
    )
    return Change(subscription, replaced)


def clear_channel(store: Store, *, guild_id: int | str, reason: str) -> list[Destination]:
    """Stop the server's digest; returns the channels that were receiving it."""
    stopped = [s.destination for s in server_subscriptions(store, str(guild_id))]
    for channel in stopped:
        store.unsubscribe(channel, reason)
    return stopped


def server_subscriptions(store: Store, scope: str) -> list[Subscription]:
    return [s for s in store.subscriptions(platform=PLATFORM) if s.scope == scope]


def take_broken(store: Store, guild_id: int | str) -> list[Subscription]:
    """The server's broken digest settings, each returned once: the caller tells someone."""
    broken = [s for s in server_subscriptions(store, str(guild_id)) if s.broken_reason]
    for subscription in broken:
        store.mark_broken(subscription.destination, None)
    return broken
