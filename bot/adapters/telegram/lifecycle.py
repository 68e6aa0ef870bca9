"""The Telegram bot as ``marin-watch serve`` runs it (``bot.startup.run_adapter``).

Long polling by default, a webhook when ``MARIN_WATCH_TELEGRAM_WEBHOOK_URL`` is set. Due
digests are checked on the job queue every ``digest_check_seconds`` by the shared
``bot.digest.delivery.run_due``; stopping waits for a check in progress, so a send in flight
is finished and recorded, never lost.

One start-up attempt (``start``) is getMe, the command menu, the channel check, then polling
or the webhook; ``serve`` retries it while the network or Telegram is down (``retry_in``
says which errors are worth it: a rejected token or a bad request stops at once). Once
running, PTB's updater retries network errors itself; an outage is logged once as it starts
and once as it ends, with the count (``polling``).
A 429 is waited out by whoever sent the request, never logged as an error (``sender``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from telegram import Bot
from telegram.error import BadRequest, InvalidToken, NetworkError, RetryAfter, TelegramError
from telegram.ext import BaseRateLimiter, ContextTypes
from telegram.request import BaseRequest

from answers.reply import Reply
from bot.adapters.telegram.app import (
    ALLOWED_UPDATES,
    TelegramApp,
    TelegramOptions,
    build_application,
)
from bot.adapters.telegram.channel import channel_problem
from bot.adapters.telegram.commands import register_commands
from bot.adapters.telegram.handlers import PLATFORM, Handlers
from bot.adapters.telegram.polling import GIVE_UP_AFTER, PollingWatch, already_logged, watched
from bot.adapters.telegram.sender import (
    Sleep,
    TelegramSender,
    quiet_ptb_flood_errors,
    retry_after_seconds,
)
from bot.chat.conversation import Conversation
from bot.core import Core
from bot.digest.builder import DigestService
from bot.digest.delivery import run_due
from bot.digest.lease import LEASE
from bot.digest.run import RunReport
from bot.store.contract import Destination, Store, Subscription
from knowledge.clock import Clock, system_clock
from knowledge.errors import ConfigError

log = logging.getLogger(__name__)

DIGEST_JOB = "telegram-digests"
# While the configured channel does not let the bot post, ask again this often.
CHANNEL_RECHECK = dt.timedelta(minutes=10)


@dataclass
class TelegramBot:
    """The Telegram side of ``serve``: the application, its digest job and the channel."""

    options: TelegramOptions
    core: Core
    store: Store
    digests: DigestService
    clock: Clock = system_clock
    sleep: Sleep = asyncio.sleep  # how the sender waits out flood control and backoff
    signals_for: Callable[[str], Reply] | None = None  # /signals for admins
    # (calls, getUpdates) in place of PTB's HTTP clients: the tests' fake Bot API
    requests: tuple[BaseRequest, BaseRequest] | None = field(default=None, repr=False)
    name: str = "Telegram"
    lease: dt.timedelta = LEASE  # a dead scheduler's sends are taken over after this
    last_report: RunReport | None = field(default=None, repr=False)
    app: TelegramApp | None = field(default=None, repr=False)
    _polling: PollingWatch | None = field(default=None, repr=False)
    _channel_checked: dt.datetime | None = field(default=None, repr=False)

    def application(
        self,
        *,
        requests: tuple[BaseRequest, BaseRequest] | None = None,
        rate_limiter: BaseRateLimiter[Any] | None = None,
    ) -> TelegramApp:
        quiet_ptb_flood_errors()
        calls, updates = watched(requests)
        self._polling = updates
        app = build_application(
            self.options, self.handlers(), requests=(calls, updates), rate_limiter=rate_limiter
        )
        if app.job_queue is None:  # the job-queue extra is a dependency; fail loudly without it
            raise ConfigError("python-telegram-bot[job-queue] is required for the daily digest")
        app.job_queue.run_repeating(
            self.digest_job, interval=self.options.digest_interval, first=1.0, name=DIGEST_JOB
        )
        return app

    def handlers(self) -> Handlers:
        conversation = Conversation(
            self.core,
            self.digests,
            store=self.store,
            clock=self.clock,
            signals_for=self.signals_for,
        )
        return Handlers(
            conversation=conversation,
            sender_for=lambda bot: TelegramSender(bot, sleep=self.sleep),
            admin_ids=self.options.admin_ids,
        )

    async def digest_job(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.deliver_due(context.bot)

    async def deliver_due(self, bot: Bot) -> RunReport:
        """Post every Telegram digest due now (the job's body)."""
        await self.ensure_channel(bot)
        sender = TelegramSender(bot, sleep=self.sleep)
        self.last_report = await run_due(
            self.store, self.digests, sender, platform=PLATFORM, clock=self.clock, lease=self.lease
        )
        return self.last_report

    async def ensure_channel(self, bot: Bot) -> str | None:
        """Subscribe the configured channel once the bot may post there; say clearly if not.

        Returns the problem, if there is one. Checked at start and, while it persists (or
        after a send found the bot removed), again every ``CHANNEL_RECHECK``.
        """
        opts = self.options
        if not opts.channel_id:
            return None
        destination = Destination(PLATFORM, opts.channel_id)
        wanted = Subscription(
            destination=destination,
            language=opts.channel_language,
            digest_time=opts.channel_time,
            timezone=opts.channel_timezone,
        )
        current = self.store.subscription(destination)
        if current is not None and current.active and _same_schedule(current, wanted):
            return None
        now = self.clock()
        if self._channel_checked is not None and now - self._channel_checked < CHANNEL_RECHECK:
            return current.inactive_reason if current else None
        self._channel_checked = now
        try:
            problem = await channel_problem(bot, opts.channel_id)
        except TelegramError as exc:
            log.warning("could not check Telegram channel %s: %s", opts.channel_id, exc)
            return str(exc)
        if problem is not None:
            log.error("%s The daily digest is posted there once this is fixed.", problem)
            if current is not None and current.active:
                self.store.unsubscribe(destination, problem)
            return problem
        self.store.subscribe(wanted)
        log.info(
            "Telegram channel %s: daily digest at %s %s (%s)",
            opts.channel_id,
            opts.channel_time.strftime("%H:%M"),
            opts.channel_timezone,
            opts.channel_language,
        )
        return None

    async def serve_until(self, stop: asyncio.Event) -> None:
        assert self.app is not None  # started
        how = "receiving updates by webhook" if self.options.webhook_url else "polling for updates"
        log.info("Telegram: @%s is %s", self.app.bot.username, how)
        conflicted = self._polling.conflicted if self._polling is not None else asyncio.Event()
        ended = asyncio.create_task(stop.wait())
        refused = asyncio.create_task(conflicted.wait())
        try:
            await asyncio.wait([ended, refused], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (ended, refused):
                task.cancel()
        if conflicted.is_set() and not stop.is_set():
            raise ConfigError(
                "Telegram: another process is polling with this bot token (409 Conflict, "
                f"{GIVE_UP_AFTER} polls in a row). Telegram hands updates to one long-poller "
                "per token: stop the other one, or run several replicas behind a load "
                "balancer with MARIN_WATCH_TELEGRAM_WEBHOOK_URL."
            )
        log.info("Telegram: stopping; a digest run in progress is finished first")

    async def close(self) -> None:
        app = self.app
        if app is None:
            return
        updater = app.updater
        if updater is not None and updater.running:
            await updater.stop()
        if app.running:
            await app.stop()  # waits for running jobs: in-flight sends are recorded
        await app.shutdown()
        await app.bot.shutdown()  # its HTTP clients, even when getMe never answered

    def retry_in(self, exc: BaseException) -> float | None:
        return retry_in(exc)

    async def start(self) -> None:
        """One start-up attempt: who the bot is, its menu, its channel, then updates flowing.

        Each step is safe to repeat after a later one failed (PTB initializes once).
        """
        if self.app is None:
            self.app = self.application(requests=self.requests)
        app = self.app
        try:
            await app.initialize()
        except InvalidToken as exc:
            raise ConfigError(
                "Telegram rejected the bot token (MARIN_WATCH_TELEGRAM_TOKEN / TELEGRAM_BOT_TOKEN)"
            ) from exc
        await register_commands(app.bot)
        await self.ensure_channel(app.bot)
        updater = app.updater
        assert updater is not None  # built by ApplicationBuilder unless disabled
        opts = self.options
        if opts.webhook_url:
            await updater.start_webhook(
                listen=opts.webhook_listen,
                port=opts.webhook_port,
                url_path=urlparse(opts.webhook_url).path.lstrip("/"),
                webhook_url=opts.webhook_url,
                secret_token=opts.webhook_secret,
                allowed_updates=ALLOWED_UPDATES,
            )
        else:
            await updater.start_polling(
                allowed_updates=ALLOWED_UPDATES, error_callback=already_logged
            )
        await app.start()


def retry_in(exc: BaseException) -> float | None:
    """Start-up errors worth retrying: the network (DNS, refused, timed out, 5xx) and flood
    control. A rejected token, a bad request or a conflict will not fix themselves."""
    if isinstance(exc, RetryAfter):
        return retry_after_seconds(exc)
    if isinstance(exc, NetworkError) and not isinstance(exc, BadRequest):
        return 0.0
    return None


def _same_schedule(a: Subscription, b: Subscription) -> bool:
    return (a.language, a.digest_time, a.timezone) == (b.language, b.digest_time, b.timezone)
