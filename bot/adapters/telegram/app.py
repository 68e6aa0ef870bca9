"""Build the python-telegram-bot ``Application``: options in, handlers wired, nothing started."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from telegram import LinkPreviewOptions, Update
from telegram.constants import ParseMode
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    Defaults,
    MessageHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.adapters.telegram.handlers import Handlers
from bot.chat.args import parse_time, parse_timezone
from bot.chat.conversation import COMMANDS
from bot.config import Settings
from knowledge.errors import ConfigError

TELEGRAM_API = "https://api.telegram.org/bot"

TelegramApp = Application[Any, Any, Any, Any, Any, Any]


@dataclass(frozen=True, kw_only=True)
class TelegramOptions:
    token: str = field(repr=False)
    base_url: str = TELEGRAM_API
    webhook_url: str | None = None
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    webhook_secret: str | None = field(default=None, repr=False)
    channel_id: str | None = None
    channel_time: dt.time = dt.time(9, 0)
    channel_timezone: str = "UTC"
    channel_language: str = "en"
    admin_ids: frozenset[int] = frozenset()
    default_language: str = "en"
    digest_interval: float = 60.0  # seconds between checks for due digests
    rate_limit: bool = True

    @classmethod
    def from_settings(cls, settings: Settings) -> TelegramOptions:
        if settings.telegram_token is None:
            raise ConfigError("no Telegram token: set MARIN_WATCH_TELEGRAM_TOKEN")
        channel_time = parse_time(settings.telegram_channel_time)
        if channel_time is None:
            raise ConfigError(
                f"MARIN_WATCH_TELEGRAM_CHANNEL_TIME: {settings.telegram_channel_time!r} is not "
                "a time of day (HH:MM)"
            )
        channel_timezone = parse_timezone(settings.telegram_channel_timezone)
        if channel_timezone is None:
            raise ConfigError(
                f"MARIN_WATCH_TELEGRAM_CHANNEL_TIMEZONE: unknown time zone "
                f"{settings.telegram_channel_timezone!r} (use an IANA name such as Asia/Shanghai)"
            )
        secret = settings.telegram_webhook_secret
        return cls(
            token=settings.telegram_token.get_secret_value(),
            base_url=settings.telegram_base_url,
            webhook_url=settings.telegram_webhook_url,
            webhook_listen=settings.telegram_webhook_listen,
            webhook_port=settings.telegram_webhook_port,
            webhook_secret=secret.get_secret_value() if secret is not None else None,
            channel_id=settings.telegram_channel_id,
            channel_time=channel_time,
            channel_timezone=channel_timezone,
            channel_language=settings.telegram_channel_language,
            admin_ids=frozenset(settings.telegram_admin_ids),
            default_language=settings.default_language,
            digest_interval=float(settings.digest_check_seconds),
        )


def build_application(
    options: TelegramOptions,
    handlers: Handlers,
    *,
    requests: tuple[BaseRequest, BaseRequest] | None = None,
    rate_limiter: BaseRateLimiter[Any] | None = None,
) -> TelegramApp:
    """The bot with every handler registered.

    ``requests`` (calls, getUpdates) and ``rate_limiter`` replace the defaults in tests and
    benchmarks.
    """
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] = (
        ApplicationBuilder()
        .token(options.token)
        .base_url(options.base_url)
        .defaults(
            Defaults(
                parse_mode=ParseMode.HTML,
                link_preview_options=LinkPreviewOptions(is_disabled=True),
            )
        )
    )
    if options.rate_limit:
        # Stay under Telegram's flood limits (30/s overall, 20/min per group) before they
        # bite; a RetryAfter that still comes is retried by the digest sender, which knows
        # which message of a split reply it was.
        builder = builder.rate_limiter(rate_limiter or AIORateLimiter(max_retries=0))
    if requests is not None:
        builder = builder.request(requests[0]).get_updates_request(requests[1])
    app = builder.build()
    register(app, handlers)
    return app


def register(app: TelegramApp, h: Handlers) -> None:
    """Route updates to handlers. New messages only: never edits, never channel posts."""
    new = filters.UpdateType.MESSAGE
    for name in COMMANDS:  # /signals is for admins: registered, not in the menu
        app.add_handler(CommandHandler(name, h.command(name), filters=new))
    app.add_handler(MessageHandler(new & filters.TEXT & ~filters.COMMAND, h.on_text))
    app.add_handler(MessageHandler(new & filters.CAPTION & ~filters.COMMAND, h.on_text))
    # after every CommandHandler: only commands none of them took reach this one
    unknown = new & filters.COMMAND & filters.ChatType.PRIVATE
    app.add_handler(MessageHandler(unknown, h.unknown_command))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, h.on_migrate))
    app.add_handler(CallbackQueryHandler(h.on_choice))
    app.add_handler(ChatMemberHandler(h.on_membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_error_handler(h.on_error)


ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]
