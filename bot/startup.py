"""Starting an adapter: retried while the network is down, then served until ``stop``.

``serve`` owns this, not the adapters: each adapter only says how to make one start-up
attempt (``start``), which errors are worth another (``retry_in``), how to serve once up
(``serve_until``) and how to let go of its connections (``close``). ``run_adapter`` applies
the one retry policy to all of them (``StartBackoff``: capped exponential backoff).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

log = logging.getLogger(__name__)

# Seconds a start-up error asks to wait before the next attempt, or None: retrying won't help.
RetryIn = Callable[[BaseException], "float | None"]
T = TypeVar("T")


class ChatAdapter(Protocol):
    """A platform, as ``serve`` runs it."""

    name: str

    async def start(self) -> None:
        """One start-up attempt; up and receiving when it returns. A failed or cancelled
        attempt cleans up after itself."""

    def retry_in(self, exc: BaseException) -> float | None:
        """Seconds to wait before trying again after ``exc``, or None: it will not fix itself."""

    async def serve_until(self, stop: asyncio.Event) -> None:
        """Serve until ``stop`` is set (or the platform ends the connection)."""

    async def close(self) -> None:
        """Finish what is in flight (a digest run is completed and recorded), then let go."""


async def run_adapter(
    adapter: ChatAdapter, stop: asyncio.Event, *, backoff: StartBackoff | None = None
) -> None:
    """Start ``adapter`` (again and again while the network is down), serve until ``stop``
    is set, then close it cleanly, started or not."""
    try:
        started = await start_with_retries(
            _started(adapter), stop, name=adapter.name, retry_in=adapter.retry_in, backoff=backoff
        )
        if started is None:
            log.info("%s: stopped before it was up", adapter.name)
            return
        await adapter.serve_until(stop)
    finally:
        await adapter.close()


def _started(adapter: ChatAdapter) -> Callable[[], Awaitable[bool]]:
    async def attempt() -> bool:
        await adapter.start()
        return True

    return attempt


@dataclass(frozen=True, kw_only=True)
class StartBackoff:
    """Waits between start-up attempts: ``first`` seconds, doubling, at most ``longest``."""

    first: float = 1.0
    longest: float = 60.0

    def delay(self, attempt: int) -> float:
        """The wait after failed attempt number ``attempt`` (1, 2, ...)."""
        return float(min(self.first * 2 ** min(max(attempt - 1, 0), 30), self.longest))


async def start_with_retries(
    start: Callable[[], Awaitable[T]],
    stop: asyncio.Event,
    *,
    name: str,
    retry_in: RetryIn,
    backoff: StartBackoff | None = None,
) -> T | None:
    """``start()``'s result once an attempt succeeds, or None if ``stop`` is set first.

    An error ``retry_in`` gives a wait for is transient (the network is down, a 5xx, flood
    control): it is logged and ``start`` runs again after that wait or the next backoff
    delay, whichever is longer. Any other error (a rejected token, bad configuration) is
    raised at once. ``stop`` interrupts a wait, and an attempt too: it is cancelled. An
    attempt that fails or is cancelled must clean up after itself (close its sessions).
    """
    backoff = backoff or StartBackoff()
    attempt = 0
    while True:
        attempt += 1
        try:
            return await _unless_stopped(start, stop)
        except Exception as exc:
            wait = retry_in(exc)
            if wait is None:
                raise
            delay = max(wait, backoff.delay(attempt))
            log.warning(
                "%s could not start (attempt %d: %s); trying again in %g s",
                name,
                attempt,
                str(exc) or type(exc).__name__,
                delay,
            )
        try:
            await asyncio.wait_for(stop.wait(), timeout=delay)
        except TimeoutError:
            continue
        return None


async def _unless_stopped(start: Callable[[], Awaitable[T]], stop: asyncio.Event) -> T | None:
    """Run one attempt; if ``stop`` is set first, cancel it and return None."""
    attempt = asyncio.ensure_future(start())
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({attempt, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
        if not attempt.done():
            attempt.cancel()
            await asyncio.gather(attempt, return_exceptions=True)
    if attempt.cancelled():
        return None
    return attempt.result()
