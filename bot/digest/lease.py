"""A digest run's lease: who is sending, and proof they still are (a heartbeat).

A run takes a fresh owner id (``host:pid:random``), writes it on every delivery it records
pending, and renews a heartbeat row while it sends. Another run takes a pending delivery
over only once its owner's lease has lapsed (``Store.reclaim``): a killed process's sends are
re-sent at the next start, a live replica's never.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.store.contract import Store
from knowledge.clock import Clock
from knowledge.errors import MarinWatchError

log = logging.getLogger(__name__)

# A run beats BEATS_PER_LEASE times per LEASE while it sends; once a whole LEASE passes
# without a beat, another run takes over its pending deliveries. Three beats, so that one
# beat held up by a busy store (BUSY_TIMEOUT_MS, 10 s) or a slow event loop does not hand
# live sends to another process; and short, so that a bot restarted after a crash re-sends
# what was in flight at its first or second digest check (every 60 s by default).
LEASE = dt.timedelta(seconds=45)
BEATS_PER_LEASE = 3


def new_owner() -> str:
    """A lease owner id: unique per run, and readable in logs (which host, which process)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


@asynccontextmanager
async def holding_lease(store: Store, clock: Clock, length: dt.timedelta) -> AsyncIterator[str]:
    """Hold a fresh owner's lease while the block runs: beat now, then every
    ``length / BEATS_PER_LEASE``. Released when the block ends normally; left to lapse when
    it raises, since sends it started may still be under way (or the process is dying)."""
    owner = new_owner()
    store.beat(owner, now=clock())
    beating = asyncio.create_task(_beat(store, owner, clock, length / BEATS_PER_LEASE))
    try:
        yield owner
    finally:
        beating.cancel()
        await asyncio.gather(beating, return_exceptions=True)
    try:
        store.release(owner, lapsed_before=clock() - length)
    except MarinWatchError as exc:  # harmless: the lease lapses by itself
        log.warning("could not release delivery lease %s: %s", owner, exc)


async def _beat(store: Store, owner: str, clock: Clock, every: dt.timedelta) -> None:
    while True:
        await asyncio.sleep(every.total_seconds())
        try:
            store.beat(owner, now=clock())
        except MarinWatchError as exc:  # a busy store: the next beat may do, the lease allows
            log.warning("could not renew delivery lease %s: %s", owner, exc)
