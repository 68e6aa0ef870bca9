"""Deliver due digests through a platform's ``Sender`` (``sending.py``): record, send, resume.

An adapter calls ``run_due`` from its own scheduler, e.g. every
``Settings.digest_check_seconds``::

    report = await run_due(store, digests, TelegramSender(bot), platform="telegram")

Each call of ``run_due`` holds a *lease* while it runs (``lease.py``): an owner id of its own,
written on every delivery it records, and a heartbeat it renews until it ends. Under it,
the run:

1. reclaims *pending* deliveries whose owner's lease has lapsed: a process died with them in
   flight (recorded, and maybe sent, but not recorded as sent). Each is sent once more (the
   platform may show it twice; silence would be worse), logged, and marked sent. Pending
   ones of a live owner (another replica, or a send still waiting out flood control) are
   left alone, however long they take. One recorded before owners existed (schema migration
   4, or an older release still running) is presumed abandoned after ``stale_after``.
2. asks ``schedule.due_digests`` which digests are due (one per destination, covering
   everything since the last one, however long the bot was down).
3. for each, ``CONCURRENCY`` at a time: builds the digest (once per window and language),
   records it PENDING with its content hash right *before* sending it, sends, then marks it
   SENT, or FAILED with the error. A quiet window of a subscription that posts only on
   change is recorded SKIPPED, unsent.

A run that ends normally releases its lease: nothing of it is still being sent, so what it
left pending (sent, but the store failed to record it) is reclaimed by the next run. A run
ended by an exception (cancelled) lets its lease lapse instead: its sends may be finishing.

So a digest can be posted twice only if it was PENDING when its process died: at most
``CONCURRENCY`` per run, since a delivery is recorded only inside the concurrency limit,
just before its send. One recorded SENT is never sent again; one not yet recorded is sent
once, by the next run.

Failures stay with their destination: ``DestinationGone`` unsubscribes it with the reason;
``DestinationMoved`` moves the subscription to the new id and sends there once; any other
error marks the delivery FAILED and the schedule retries later with backoff. If another
scheduler on the same store recorded the delivery first (``DeliveryClaimed``), this one
leaves it to them.

A digest split into several messages can fail part-way (message k of n, retries exhausted).
The sender then raises ``PartlyDelivered`` (``sending.send_each`` does this for it); the FAILED
record keeps how many went out (``Delivery.messages_sent``, schema migration 3). The retry
resumes at message k when it is the same digest: the same window start and the same content
hash (so the same messages); otherwise (the window grew past another day while it kept
failing, or the knowledge base changed) the new digest is sent whole, and its readers have
seen part of the older one.

``deliver_now`` sends one digest on request (a ``/digest`` command), recorded as "manual"
under a lease of its own; left pending by a crash, it is marked FAILED, never replayed.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import gc
import logging

from bot.digest.builder import Digest, DigestService
from bot.digest.lease import LEASE, holding_lease
from bot.digest.run import Run, RunReport, day_start, last_failed, name_of
from bot.digest.schedule import DueDigest, due_digests
from bot.digest.sending import Sender
from bot.digest.window import Window
from bot.store.contract import Delivery, Destination, Store
from knowledge.clock import Clock, system_clock

log = logging.getLogger(__name__)

# A pending delivery recorded without an owner (before schema migration 4) is presumed
# abandoned after this. It must outlast one send, flood-control waits included.
STALE_AFTER = dt.timedelta(minutes=10)
# Destinations served at once: enough to keep a platform's rate limiter busy.
CONCURRENCY = 8
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


async def run_due(
    store: Store,
    digests: DigestService,
    sender: Sender,
    *,
    platform: str,
    clock: Clock = system_clock,
    stale_after: dt.timedelta = STALE_AFTER,
    lease: dt.timedelta = LEASE,
) -> RunReport:
    """Send every digest due on ``platform`` now; never raises for one destination's failure."""
    async with holding_lease(store, clock, lease) as owner:
        run = Run(store, digests, sender, clock, RunReport(), owner=owner)
        await run.reclaim(platform, stale_after=stale_after, lease=lease)
        latest, due = check(store, clock(), platform)
        run.last_failed = last_failed(latest)
        limit = asyncio.Semaphore(CONCURRENCY)

        async def serve(item: DueDigest) -> None:
            # The delivery is recorded inside the limit, just before its send: a kill leaves
            # at most CONCURRENCY pending, not every digest of the broadcast.
            async with limit:
                try:
                    await run.due(item)
                except Exception as exc:  # e.g. the store failed mid-way: this one only
                    log.exception("digest for %s interrupted", name_of(item.destination))
                    run.report.failed.append((item.destination, str(exc)))

        await asyncio.gather(*(serve(item) for item in due))
    r = run.report
    if due or r.resent:
        log.info(
            "%s digests: %d sent, %d resent, %d quiet, %d failed, %d unsubscribed, "
            "%d left to another scheduler",
            platform,
            len(r.sent),
            len(r.resent),
            len(r.skipped),
            len(r.failed),
            len(r.unsubscribed),
            len(r.claimed_elsewhere),
        )
    return r


def check(
    store: Store, now: dt.datetime, platform: str | None
) -> tuple[list[Delivery], list[DueDigest]]:
    """One scheduler check: the latest daily records and the digests due from them.

    It builds a few objects per subscription at once (300,000 for 100,000 subscriptions),
    none of them in a cycle; the cyclic collector, left running, walks them again and again
    on the way (a third of the check, measured by ``benchmarks/bench_store.py``). So it is
    paused for the check; counting resumes after, with one collection of the survivors.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        subscriptions = store.subscriptions(platform=platform)
        latest = store.latest_deliveries(platform=platform)
        return latest, due_digests(now, subscriptions, latest)
    finally:
        if was_enabled:
            gc.enable()


async def deliver_now(
    store: Store,
    digests: DigestService,
    sender: Sender,
    destination: Destination,
    *,
    lang: str,
    window: Window | None = None,
    clock: Clock = system_clock,
) -> Digest:
    """Send one digest now (``window``, or since the last one sent here); raise on failure."""
    if window is None:
        digest = digests.since_last(store, destination, lang=lang)
    else:
        digest = digests.build(window, lang=lang)
    after = digest.changes.window.after
    start = EPOCH if after is None else day_start(after + dt.timedelta(days=1))
    # The end is "now", not the window's last date: a later "since the last one" then
    # repeats today (entries recorded later today included) instead of missing them.
    now = clock()
    async with holding_lease(store, clock, LEASE) as owner:
        delivery = store.begin_delivery(
            destination, start, now, digest.content_hash, kind="manual", now=now, owner=owner
        )
        run = Run(store, digests, sender, clock, RunReport(), owner=owner)
        error = await run.deliver(delivery, digest.reply)
    if error is not None:
        raise error
    return digest
