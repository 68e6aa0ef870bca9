"""Long polling, watched: a Telegram outage reads as two log lines, not a traceback per poll.

PTB's updater retries a failed ``getUpdates`` every 1 to 30 s for as long as it fails, and by
default logs each failure at ERROR with its traceback. Instead, ``PollingWatch`` wraps the
getUpdates request and logs the streak:

    WARNING  Telegram unreachable: <the first error>; polling goes on
    INFO     Telegram reachable again after <N> failed polls

A refusal that is not the network's (409 ``Conflict``: another process polls with this
token) is logged at ERROR, once per streak too. One that lasts (``GIVE_UP_AFTER`` polls in a
row: not a deploy's brief overlap) sets ``conflicted``, and the bot stops with a message
saying why: Telegram hands updates to one long-poller per token. Polling is started with
``error_callback=already_logged``, which keeps PTB's own record of each failure out.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from telegram.error import TelegramError
from telegram.request import BaseRequest, HTTPXRequest

log = logging.getLogger(__name__)

# Refused polls in a row before another poller counts as there to stay (PTB waits 1 s, then
# longer, between polls: a few minutes, more than a rolling deploy's overlap).
GIVE_UP_AFTER = 10


def watched(requests: tuple[BaseRequest, BaseRequest] | None) -> tuple[BaseRequest, PollingWatch]:
    """The (calls, getUpdates) requests for the application, the second one watched; PTB's
    defaults (as ``ApplicationBuilder`` makes them) when none are given."""
    calls, updates = requests or (HTTPXRequest(), HTTPXRequest(connection_pool_size=1))
    return calls, PollingWatch(updates)


def already_logged(exc: TelegramError) -> None:
    """The updater's polling error callback: ``PollingWatch`` has counted and logged ``exc``."""


class PollingWatch(BaseRequest):
    """A ``BaseRequest`` passing every call to ``request``, counting the failures in a row."""

    def __init__(self, request: BaseRequest) -> None:
        self.request = request
        self.failures = 0  # in a row, since the last poll that went through
        self.refused = False  # the current streak includes a refusal
        self.refusals = 0  # refused polls in the current streak
        self.conflicted = asyncio.Event()  # another poller, there to stay

    @property
    def read_timeout(self) -> float | None:
        return self.request.read_timeout

    async def initialize(self) -> None:
        await self.request.initialize()

    async def shutdown(self) -> None:
        await self.request.shutdown()

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        # PTB's BaseRequest turns the answer into its errors, as for any request.
        try:
            code, payload = await self.request.do_request(*args, **kwargs)
        except TelegramError as exc:  # the network's: refused, reset, timed out
            self.failed(str(exc), refused=False)
            raise
        if 200 <= code <= 299:
            self.succeeded()
        else:
            self.failed(_description(code, payload), refused=code < 500 and code != 429)
        return code, payload

    def failed(self, why: str, *, refused: bool) -> None:
        self.failures += 1
        self.refusals += refused
        if self.refusals >= GIVE_UP_AFTER:
            self.conflicted.set()
        if refused and not self.refused:
            self.refused = True
            log.error("Telegram refused polling: %s", why)
        elif not refused and self.failures == 1:
            log.warning("Telegram unreachable: %s; polling goes on", why)

    def succeeded(self) -> None:
        if self.failures:
            state = "accepts polling" if self.refused else "reachable"
            log.info("Telegram %s again after %d failed polls", state, self.failures)
        self.failures, self.refused, self.refusals = 0, False, 0


def _description(code: int, payload: bytes) -> str:
    """Telegram's own words for a failed call, else the HTTP status."""
    try:
        return str(BaseRequest.parse_json_payload(payload)["description"])
    except (TelegramError, KeyError, TypeError):
        return f"HTTP {code}"
