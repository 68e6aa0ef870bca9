"""Deliver a digest to a Telegram chat: the digest runner's ``Sender`` for Telegram.

Bot API failures are translated here, once, into ``knowledge.errors``:

    Forbidden (blocked, kicked, not admin)   → DestinationGone
    BadRequest "chat not found"              → DestinationGone
    ChatMigrated (group → supergroup)        → DestinationMoved(new id)
    RetryAfter (flood control)               → wait and retry (logged at INFO, never as an
                                               error); DeliveryRetryable if it persists
    TimedOut / NetworkError / 5xx            → retry with backoff; DeliveryRetryable if it persists
    any other BadRequest                     → DeliveryError (our message is wrong; not retried)

Each message of a split reply is retried on its own, so a transient failure on the third
message does not resend the first two; if it persists, ``PartlyDelivered`` tells the runner
that two went out, and the retry starts at the third (``send(..., skip=2)``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import warnings
from collections.abc import Awaitable, Callable

from telegram import Bot
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.warnings import PTBDeprecationWarning

from answers.reply import Reply
from bot.adapters.telegram.format import messages
from bot.digest.sending import send_each
from bot.store.contract import Destination
from knowledge.errors import DeliveryError, DeliveryRetryable, DestinationGone, DestinationMoved

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]

PLATFORM = "telegram"
_FORMATTED_KEPT = 16  # distinct digests (windows × languages) in one run are few
_GONE_BAD_REQUESTS = (
    "chat not found",
    "chat_id is empty",
    "have no rights to send",
    "not enough rights",
)


def retry_after_seconds(exc: RetryAfter) -> float:
    """``RetryAfter.retry_after`` in seconds, without PTB's int → timedelta migration warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = exc.retry_after
    return value.total_seconds() if isinstance(value, dt.timedelta) else float(value)


class _FloodWaitedOut(logging.Filter):
    """Demotes PTB's record of a 429 to DEBUG, without its traceback: see
    ``quiet_ptb_flood_errors``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info is None or not isinstance(record.exc_info[1], RetryAfter):
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        record.exc_info, record.exc_text = None, None
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


_FLOOD_WAITED_OUT = _FloodWaitedOut()


def quiet_ptb_flood_errors() -> None:
    """PTB's ``AIORateLimiter`` (``max_retries=0``, in ``app``) logs every 429 at ERROR with a
    traceback as it raises it. Its caller handles it: this sender and the answers
    (``replies``) wait it out and retry, saying so at INFO; anyone else logs the error if it
    fails. So that record is kept at DEBUG. Safe to call again: the filter is added once."""
    logging.getLogger("telegram.ext.AIORateLimiter").addFilter(_FLOOD_WAITED_OUT)


class TelegramSender:
    """Sends replies as HTML messages; see the module docstring for the error mapping."""

    platform = PLATFORM

    def __init__(
        self,
        bot: Bot,
        *,
        attempts: int = 4,
        backoff: float = 1.0,
        max_flood_wait: float = 120.0,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.bot = bot
        self.attempts = attempts
        self.backoff = backoff
        self.max_flood_wait = max_flood_wait
        self.sleep = sleep
        # id → (the reply, kept alive so its id is not reused; its messages)
        self._formatted: dict[int, tuple[Reply, list[str]]] = {}

    async def send(self, destination: Destination, reply: Reply, *, skip: int = 0) -> None:
        async def post(message: str) -> None:
            await self.send_html(destination.id, message)

        picture = reply.extra.get("picture")
        if skip == 0 and isinstance(picture, bytes):
            await self.send_picture(destination.id, picture, reply.title)
        await send_each(self.formatted(reply), post, skip=skip)

    async def send_picture(self, chat_id: str, png: bytes, title: str) -> None:
        """The chart above a digest. Only an illustration: if it fails, the words (which
        carry the caveat) still go out, and their errors are the ones that count."""
        try:
            await self.bot.send_photo(chat_id, png, caption=title[:1024])
        except TelegramError as exc:
            log.info("telegram chat %s: the chart was not sent: %s", chat_id, exc)

    def formatted(self, reply: Reply) -> list[str]:
        """``messages(reply)``, once per reply: a run sends the same digest to many chats."""
        hit = self._formatted.get(id(reply))
        if hit is None or hit[0] is not reply:
            if len(self._formatted) >= _FORMATTED_KEPT:
                self._formatted.clear()
            hit = self._formatted[id(reply)] = (reply, messages(reply))
        return hit[1]

    async def send_html(self, chat_id: str, message: str) -> None:
        where = f"telegram chat {chat_id}"
        for attempt in range(1, self.attempts + 1):
            try:
                await self.bot.send_message(chat_id, message, parse_mode=ParseMode.HTML)
                return
            except Forbidden as exc:
                raise DestinationGone(f"{where}: {exc.message}") from exc
            except ChatMigrated as exc:
                raise DestinationMoved(
                    f"{where} is now a supergroup {exc.new_chat_id}", str(exc.new_chat_id)
                ) from exc
            except RetryAfter as exc:
                wait = retry_after_seconds(exc)
                if attempt == self.attempts or wait > self.max_flood_wait:
                    raise DeliveryRetryable(f"{where}: flood control", retry_after=wait) from exc
                log.info("%s: flood control, retrying in %g s as Telegram asks", where, wait)
                await self.sleep(wait)
            except BadRequest as exc:
                if any(marker in exc.message.lower() for marker in _GONE_BAD_REQUESTS):
                    raise DestinationGone(f"{where}: {exc.message}") from exc
                raise DeliveryError(
                    f"{where}: Telegram refused the message: {exc.message}"
                ) from exc
            except InvalidToken as exc:
                raise DeliveryError("Telegram rejected the bot token") from exc
            except NetworkError as exc:  # TimedOut, 5xx, connection errors
                if attempt == self.attempts:
                    raise DeliveryRetryable(f"{where}: {exc.message}") from exc
                delay = self.backoff * 2 ** (attempt - 1)
                log.debug("%s: %s; retrying in %g s", where, exc.message, delay)
                await self.sleep(delay)
