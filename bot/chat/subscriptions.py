"""Daily digests: a chat's subscription, and a Discord server's one digest channel.

The decisions live here, once: who may change a subscription (``Chat.may_manage``), which
defaults apply, what a setting may be. A server's digest subscription is keyed by its channel
(the destination the schedule posts to) with the server as ``scope``, so that setting a new
channel replaces the old one, clearing finds it, and a command anywhere in the server can tell
about a broken setting.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from bot.chat import args as parse
from bot.chat.texts import Notice
from bot.chat.where import Chat
from bot.store.contract import Destination, Store, Subscription

DEFAULT_TIME = dt.time(9, 0)
DEFAULT_TIMEZONE = "UTC"
MISSING_PERMISSIONS = "missing permissions (403)"  # the broken reason the Discord sender records
# The commands whose answer depends on ``Chat.manager``: an adapter finds that fact out (a
# Telegram group's member list is one API call away) only for these.
NEEDS_MANAGER = ("subscribe", "unsubscribe", "settings")


class Subscriptions:
    def __init__(self, store: Store | None) -> None:
        self.store = store

    def language(self, chat: Chat) -> str | None:
        """The language this chat's digest is in, when it has one."""
        if self.store is None or chat.platform == "console":
            return None
        sub = self.store.subscription(chat.destination)
        return sub.language if sub is not None and sub.active else None

    def subscribe(self, chat: Chat, words: Sequence[str], lang: str) -> Notice:
        """/subscribe [HH:MM] [time zone]: a daily digest in this chat."""
        refused = self._refusal(chat, lang)
        if refused is not None:
            return refused
        assert self.store is not None  # _refusal said no store is a refusal
        asked = parse.parse_subscribe(words)
        if isinstance(asked, parse.Invalid):
            return invalid(asked, lang, chat)
        current = self.store.subscription(chat.destination)
        base = current if current and current.active else None
        sub = self.store.subscribe(
            Subscription(
                destination=chat.destination,
                language=lang,
                digest_time=asked.time or (base.digest_time if base else DEFAULT_TIME),
                timezone=asked.timezone or (base.timezone if base else DEFAULT_TIMEZONE),
                post_on_quiet_days=base.post_on_quiet_days if base else False,
            )
        )
        quiet = Notice("quiet_on" if sub.post_on_quiet_days else "quiet_off", sub.language)
        values = {**_when(sub), "quiet": quiet.plain()}
        return Notice("subscribed", sub.language, values, chat.platform)

    def unsubscribe(self, chat: Chat, lang: str) -> Notice:
        refused = self._refusal(chat, lang)
        if refused is not None:
            return refused
        assert self.store is not None
        done = self.store.unsubscribe(chat.destination, f"/unsubscribe by user {chat.user}")
        return Notice("unsubscribed" if done else "not_subscribed", lang, {}, chat.platform)

    def settings(self, chat: Chat, words: Sequence[str], lang: str) -> Notice:
        """/settings [language|time|timezone|quiet VALUE]: show or change this chat's digest."""
        if self.store is None or chat.platform == "console":
            return Notice("no_subscriptions_here", lang, {}, chat.platform)
        sub = self.store.subscription(chat.destination)
        if sub is None or not sub.active:
            return Notice("settings_unsubscribed", lang, {}, chat.platform)
        change = parse.parse_setting(words)
        if isinstance(change, parse.Invalid):
            return invalid(change, lang, chat)
        if change is not None:
            if not chat.may_manage:
                return Notice("admins_only", lang, {}, chat.platform)
            sub = self.store.subscribe(parse.apply_setting(sub, change))
        quiet = Notice("on" if sub.post_on_quiet_days else "off", sub.language)
        values = {"language": sub.language, **_when(sub), "quiet": quiet.plain()}
        return Notice("settings", sub.language, values, chat.platform)

    def move(self, old: Destination, new: Destination) -> bool:
        """A chat got a new id (a Telegram group became a supergroup): its digest follows."""
        if self.store is None or self.store.subscription(old) is None:
            return False
        self.store.move(old, new)
        return True

    def end(self, gone: Destination, reason: str) -> bool:
        """The bot was blocked or removed: no more digests there, for ``reason``."""
        return self.store is not None and self.store.unsubscribe(gone, reason)

    # --- a Discord server's digest channel --------------------------------------------------

    def set_digest_channel(
        self,
        chat: Chat,
        channel: str,
        time: str,
        zone: str,
        digest_language: str | None,
        lang: str,
    ) -> Notice:
        """Make ``channel`` the server's digest channel; any other one of the server stops."""
        refused = self._server_refusal(chat, lang)
        if refused is not None:
            return refused
        assert self.store is not None and chat.server is not None
        at = parse.parse_time(time)
        if at is None:
            return invalid(parse.Invalid("bad_time", time), lang, chat)
        parsed = parse.parse_zone(zone)
        if isinstance(parsed, parse.Invalid):
            return invalid(parsed, lang, chat)
        target = Destination(chat.platform, channel)
        replaced = tuple(
            s.destination for s in self._server(chat.server) if s.destination != target
        )
        for old in replaced:
            self.store.unsubscribe(old, f"replaced by channel {target.id}")
        chosen = digest_language or lang
        sub = self.store.subscribe(
            Subscription(
                destination=target,
                language=chosen,
                digest_time=at,
                timezone=parsed,
                scope=chat.server,
            )
        )
        name = Notice("english" if chosen == "en" else "chinese", lang).plain()
        replacing = "".join(
            " " + Notice("digest_replaced", lang, {"channel": f"<#{d.id}>"}).plain()
            for d in replaced
        )
        values = {"channel": f"<#{channel}>", **_when(sub), "language": name, "replaced": replacing}
        return Notice("digest_set", lang, values, chat.platform)

    def clear_digest_channel(self, chat: Chat, lang: str) -> Notice:
        refused = self._server_refusal(chat, lang)
        if refused is not None:
            return refused
        assert self.store is not None and chat.server is not None
        stopped = [s.destination for s in self._server(chat.server)]
        for channel in stopped:
            self.store.unsubscribe(
                channel, f"cleared by {chat.platform.capitalize()} user {chat.user}"
            )
        if not stopped:
            return Notice("digest_none", lang, {}, chat.platform)
        channels = ", ".join(f"<#{d.id}>" for d in stopped)
        return Notice("digest_cleared", lang, {"channel": channels}, chat.platform)

    def broken(self, chat: Chat, lang: str) -> list[Notice]:
        """The server's broken digest settings, each told once: the person should know."""
        if self.store is None or chat.server is None:
            return []
        found = [s for s in self._server(chat.server) if s.broken_reason]
        notices = []
        for sub in found:
            self.store.mark_broken(sub.destination, None)
            reason = sub.broken_reason or MISSING_PERMISSIONS
            if reason == MISSING_PERMISSIONS:
                reason = Notice("missing_access", lang).plain()
            values = {"channel": f"<#{sub.destination.id}>", "reason": reason}
            notices.append(Notice("broken", lang, values, chat.platform))
        return notices

    def broken_servers(self, platform: str) -> set[str]:
        if self.store is None:
            return set()
        subs = self.store.subscriptions(platform=platform)
        return {s.scope for s in subs if s.broken_reason and s.scope}

    # --- decisions --------------------------------------------------------------------------

    def _refusal(self, chat: Chat, lang: str) -> Notice | None:
        if self.store is None or chat.platform == "console":
            return Notice("no_subscriptions_here", lang, {}, chat.platform)
        if not chat.may_manage:
            return Notice("admins_only", lang, {}, chat.platform)
        return None

    def _server_refusal(self, chat: Chat, lang: str) -> Notice | None:
        if self.store is None or chat.server is None:
            return Notice("server_only", lang, {}, chat.platform)
        if not (chat.manager or chat.curator):  # in a server, a DM's "private" is no right
            return Notice("admins_only", lang, {}, chat.platform)
        return None

    def _server(self, scope: str) -> list[Subscription]:
        assert self.store is not None
        return [s for s in self.store.subscriptions(platform="discord") if s.scope == scope]


def invalid(bad: parse.Invalid, lang: str, chat: Chat) -> Notice:
    """Explain an argument we could not use (named in ``bad``)."""
    values = {"value": bad.value, "example": bad.example}
    return Notice(bad.key, lang, values, chat.platform)


def _when(sub: Subscription) -> dict[str, str]:
    return {"time": sub.digest_time.strftime("%H:%M"), "tz": parse.zone_label(sub.timezone)}
