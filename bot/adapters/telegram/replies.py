"""Sending an answer in a chat, with the Bot API's transient errors retried.

A single 429 (flood control) or 5xx used to lose an ordinary answer: the user saw only the
error text. Retried here with tenacity, which does retry policy better than another
hand-written loop: ``retry_after`` is respected when Telegram gives one (up to a bound), other
transient errors back off exponentially, and a refusal (400, 403) is not retried. A flood
wait is logged at INFO (PTB's own ERROR record of it is demoted: ``sender``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram.error import BadRequest, Forbidden, InvalidToken, NetworkError, RetryAfter
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
)

from bot.adapters.telegram.sender import retry_after_seconds

log = logging.getLogger(__name__)

T = TypeVar("T")

ATTEMPTS = 3
# Flood waits longer than this are not worth holding an answer for: the user asks again.
MAX_WAIT = 30.0


def _transient(exc: BaseException) -> bool:
    if isinstance(exc, RetryAfter):
        return retry_after_seconds(exc) <= MAX_WAIT
    refused = (BadRequest, Forbidden, InvalidToken)
    return isinstance(exc, NetworkError) and not isinstance(exc, refused)


class _Wait:
    """Telegram's own retry_after when it gives one, else exponential backoff."""

    def __init__(self, base: float) -> None:
        self.backoff = wait_exponential(multiplier=base, max=MAX_WAIT)

    def __call__(self, state: RetryCallState) -> float:
        failed = state.outcome.exception() if state.outcome else None
        if isinstance(failed, RetryAfter):
            return retry_after_seconds(failed)
        return float(self.backoff(state))


def _log_wait(state: RetryCallState) -> None:
    failed = state.outcome.exception() if state.outcome else None
    wait = state.next_action.sleep if state.next_action else 0.0
    level = logging.INFO if isinstance(failed, RetryAfter) else logging.DEBUG
    log.log(level, "Telegram answer: %s; retrying in %g s", failed, wait)


async def with_retries(send: Callable[[], Awaitable[T]], *, base_wait: float = 1.0) -> T:
    """``await send()``, retried on flood control and transient network errors."""
    async for attempt in AsyncRetrying(
        retry=retry_if_exception(_transient),
        stop=stop_after_attempt(ATTEMPTS),
        wait=_Wait(base_wait),
        before_sleep=_log_wait,
        reraise=True,
    ):
        with attempt:
            return await send()
    raise AssertionError("unreachable: tenacity reraises the last error")
