"""Deliver due digests through a platform's ``Sender``: the protocol every adapter follows.

An adapter implements ``Sender`` (one method) and calls ``run_due`` from its own scheduler,
e.g. every ``Settings.digest_check_seconds``::

    class TelegramSender:
        async def send(self, destination: Destination, reply: Reply, *, skip: int = 0) -> None:
            ...  # split reply.sections under 4,096 characters, post them from message skip+1
                 # on (``send_each``); translate errors:
                 # Forbidden → DestinationGone, ChatMigrated → DestinationMoved(new_id=...),
                 # RetryAfter / 5xx / network → DeliveryRetryable, anything else → DeliveryError

    report = await run_due(store, digests, TelegramSender(bot), platform="telegram")

Each call of ``run_due``:

1. reclaims *pending* deliveries older than ``stale_after``: a process died between sending
   and recording. Each is sent once more (the platform may show it twice; silence would be
   worse), logged, and marked sent. Fresh pending ones belong to a live scheduler: left alone.
2. asks ``schedule.due_digests`` which digests are due (one per destination, covering
   everything since the last one, however long the bot was down).
3. for each: builds the digest (once per window and language), records it PENDING with its
   content hash *before* sending, sends, then marks it SENT, or FAILED with the error. A
   quiet window of a subscription that posts only on change is recorded SKIPPED, unsent.

Failures stay with their destination: ``DestinationGone`` unsubscribes it with the reason;
``DestinationMoved`` moves the subscription to the new id and sends there once; any other
error marks the delivery FAILED and the schedule retries later with backoff. If another
scheduler on the same store recorded the delivery first (``DeliveryClaimed``), this one
leaves it to them. A delivery recorded SENT is never sent again.

A digest split into several messages can fail part-way (message k of n, retries exhausted).
The sender then raises ``PartlyDelivered`` (``send_each`` does this for it), and the FAILED
record keeps how many went out (``Delivery.messages_sent``, schema migration 3). The retry
resumes at message k when it is the same digest: the same window start and the same content
hash (so the same messages); otherwise (the window grew past another day while it kept
failing, or the knowledge base changed) the new digest is sent whole, and its readers have
seen part of the older one.

``deliver_now`` sends one digest on request (a ``/digest`` command), recorded as "manual".
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from answers.reply import Reply
from bot.digest.builder import Digest, DigestService
from bot.digest.changes import Window
from bot.digest.schedule import DueDigest, due_digests
from bot.store.contract import Delivery, DeliveryState, Destination, Store
from knowledge.clock import Clock, system_clock
from knowledge.errors import (
    DeliveryClaimed,
    DeliveryError,
    DestinationGone,
    DestinationMoved,
    MarinWatchError,
)

log = logging.getLogger(__name__)

# A pending delivery older than this is presumed abandoned by a crashed process. It must
# outlast one send, flood-control waits included.
STALE_AFTER = dt.timedelta(minutes=10)
# Destinations served at once: enough to keep a platform's rate limiter busy.
CONCURRENCY = 8
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


class Sender(Protocol):
    async def send(self, destination: Destination, reply: Reply, *, skip: int = 0) -> None:
        """Post ``reply`` (split at ``reply.sections`` as the platform needs), leaving out its
        first ``skip`` messages (already posted by an attempt that failed part-way), or raise
        one of ``DestinationGone``, ``DestinationMoved``, ``DeliveryRetryable``,
        ``DeliveryError``, or ``PartlyDelivered`` when some messages went out."""
        ...


class PartlyDelivered(DeliveryError):
    """The first ``delivered`` of a reply's ``total`` messages went out, then ``cause``."""

    def __init__(self, delivered: int, total: int, cause: DeliveryError) -> None:
        super().__init__(
            f"{delivered} of {total} messages sent; then {type(cause).__name__}: {cause}"
        )
        self.delivered, self.total, self.cause = delivered, total, cause


M = TypeVar("M")


async def send_each(
    messages: Sequence[M], post: Callable[[M], Awaitable[None]], *, skip: int = 0
) -> None:
    """Post ``messages[skip:]`` in order; a failure after the first message says how far it got.

    ``DestinationGone`` and ``DestinationMoved`` pass unchanged: the first ends the
    subscription, the second sends the whole digest to the new chat.
    """
    for index in range(skip, len(messages)):
        try:
            await post(messages[index])
        except (DestinationGone, DestinationMoved):
            raise
        except DeliveryError as exc:
            if index == 0:
                raise
            raise PartlyDelivered(index, len(messages), exc) from exc


def delivered_before(failed: Delivery | None) -> int:
    """How many messages a FAILED delivery got out before it failed (0 if none)."""
    if failed is None or failed.state is not DeliveryState.FAILED:
        return 0
    return failed.messages_sent


@dataclass
class RunReport:
    """What one ``run_due`` did, for logs and tests."""

    sent: list[Destination] = field(default_factory=list)
    resent: list[Destination] = field(default_factory=list)  # pending ones left by a crash
    # sent, from the first message a failed attempt left unsent (also listed in ``sent``)
    resumed: list[Destination] = field(default_factory=list)
    skipped: list[Destination] = field(default_factory=list)  # quiet windows, not posted
    failed: list[tuple[Destination, str]] = field(default_factory=list)
    unsubscribed: list[tuple[Destination, str]] = field(default_factory=list)
    moved: list[tuple[Destination, Destination]] = field(default_factory=list)
    claimed_elsewhere: list[Destination] = field(default_factory=list)


async def run_due(
    store: Store,
    digests: DigestService,
    sender: Sender,
    *,
    platform: str,
    clock: Clock = system_clock,
    stale_after: dt.timedelta = STALE_AFTER,
) -> RunReport:
    """Send every digest due on ``platform`` now; never raises for one destination's failure."""
    run = _Run(store, digests, sender, clock, RunReport())
    await run.reclaim(platform, stale_after)
    now = clock()
    subscriptions = store.subscriptions(platform=platform)
    latest = store.latest_deliveries(platform=platform)
    run.last_failed = _last_failed(latest)
    due = due_digests(now, subscriptions, latest)
    limit = asyncio.Semaphore(CONCURRENCY)

    async def serve(item: DueDigest) -> None:
        async with limit:
            try:
                await run.due(item)
            except Exception as exc:  # e.g. the store failed mid-way: this destination only
                log.exception("digest for %s interrupted", _name(item.destination))
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
    start = EPOCH if after is None else _day_start(after + dt.timedelta(days=1))
    # The end is "now", not the window's last date: a later "since the last one" then
    # repeats today (entries recorded later today included) instead of missing them.
    now = clock()
    delivery = store.begin_delivery(
        destination, start, now, digest.content_hash, kind="manual", now=now
    )
    run = _Run(store, digests, sender, clock, RunReport())
    error = await run.deliver(delivery, digest.reply)
    if error is not None:
        raise error
    return digest


@dataclass
class _Run:
    store: Store
    digests: DigestService
    sender: Sender
    clock: Clock
    report: RunReport
    cache: dict[tuple[Window, str], Digest] = field(default_factory=dict)
    # per destination, its newest failed daily delivery: a retry may resume where it stopped
    last_failed: dict[Destination, Delivery] = field(default_factory=dict)

    def digest(self, start: dt.datetime, end: dt.datetime, lang: str) -> Digest:
        # Most subscribers share a window's dates and a language: build each digest once.
        key = (Window.between(start, end), lang)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self.digests.build(key[0], lang=lang)
        return found

    async def reclaim(self, platform: str, stale_after: dt.timedelta) -> None:
        now = self.clock()
        for d in self.store.pending():
            if d.destination.platform != platform:
                continue
            if not self.store.reclaim(d.id, stale_before=now - stale_after, now=now):
                continue  # still fresh (a live sender has it) or another process took it
            try:
                await self.resend(d)
            except Exception:  # e.g. the store failed: it stays pending, resolved next time
                log.exception("could not resolve pending delivery %d", d.id)

    async def resend(self, d: Delivery) -> None:
        sub = self.store.subscription(d.destination)
        if d.kind != "daily" or sub is None or not sub.active:
            # A manual reply hours late would answer a question nobody is waiting on.
            reason = "abandoned after a crash: " + (
                "manual digests are not replayed" if d.kind != "daily" else "not subscribed"
            )
            log.warning("pending delivery %d to %s %s", d.id, _name(d.destination), reason)
            self.store.finish_delivery(d.id, DeliveryState.FAILED, now=self.clock(), error=reason)
            return
        digest = self.digest(d.window_start, d.window_end, sub.language)
        if digest.quiet and not sub.post_on_quiet_days:
            self.store.finish_delivery(d.id, DeliveryState.SKIPPED, now=self.clock())
            return
        log.warning(
            "resending digest %d to %s: recorded as pending by an interrupted run; it may "
            "appear twice there%s",
            d.id,
            _name(d.destination),
            "" if digest.content_hash == d.content_hash else " (its content changed since)",
        )
        if await self.deliver(d, digest.reply) is None:
            self.report.resent.append(d.destination)

    async def due(self, item: DueDigest) -> None:
        dest, sub = item.destination, item.subscription
        try:
            digest = self.digest(item.window_start, item.window_end, sub.language)
            quiet = digest.quiet and not sub.post_on_quiet_days
            delivery = self.store.begin_delivery(
                dest, item.window_start, item.window_end, digest.content_hash, now=self.clock()
            )
            if quiet:
                self.store.finish_delivery(delivery.id, DeliveryState.SKIPPED, now=self.clock())
                self.report.skipped.append(dest)
                return
        except DeliveryClaimed:
            self.report.claimed_elsewhere.append(dest)
            return
        except Exception as exc:  # a store or template failure: this destination only
            log.exception("could not prepare the digest for %s", _name(dest))
            self.report.failed.append((dest, str(exc)))
            return
        skip = self.resume_at(item, digest)
        if await self.deliver(delivery, digest.reply, skip=skip) is None:
            self.report.sent.append(dest)
            if skip:
                self.report.resumed.append(dest)

    def resume_at(self, item: DueDigest, digest: Digest) -> int:
        """The messages of this digest an earlier attempt already posted (0: send it whole)."""
        failed = self.last_failed.get(item.destination)
        if failed is None or failed.window_start != item.window_start:
            return 0
        if failed.content_hash != digest.content_hash:
            return 0  # another digest now (a longer window): its readers need all of it
        skip = delivered_before(failed)
        if skip:
            log.info(
                "resuming digest to %s at message %d: delivery %d posted the ones before",
                _name(item.destination),
                skip + 1,
                failed.id,
            )
        return skip

    async def deliver(self, delivery: Delivery, reply: Reply, *, skip: int = 0) -> Exception | None:
        """Send a recorded delivery (from message ``skip`` + 1) and record how it went; return
        the error, if any."""
        target = delivery.destination
        moved = False
        while True:
            try:
                await self.sender.send(target, reply, skip=skip)
            except DestinationMoved as exc:
                if moved:  # moved twice in one send: give up until the next run
                    return self.fail(delivery, target, exc)
                new = Destination(target.platform, exc.new_id)
                log.info("%s moved to %s; moving its subscription", _name(target), new.id)
                self.store.move(target, new)
                self.report.moved.append((target, new))
                target, moved, skip = new, True, 0  # the new chat has seen none of it
                continue
            except DestinationGone as exc:
                reason = str(exc) or "the destination no longer accepts messages"
                self.store.unsubscribe(target, reason)
                self.report.unsubscribed.append((target, reason))
                return self.fail(delivery, target, exc)
            except Exception as exc:  # DeliveryError, or an adapter bug: this destination only
                if not isinstance(exc, DeliveryError):
                    log.exception("sender failed on %s", _name(target))
                return self.fail(delivery, target, exc)
            break
        try:
            self.store.finish_delivery(delivery.id, DeliveryState.SENT, now=self.clock())
        except MarinWatchError as exc:
            # Sent but not recorded: it stays pending and is resent after STALE_AFTER.
            log.error(
                "sent digest %d to %s but could not record it: %s", delivery.id, _name(target), exc
            )
        return None

    def fail(self, delivery: Delivery, target: Destination, exc: Exception) -> Exception:
        error = f"{type(exc).__name__}: {exc}"
        log.warning("digest %d to %s failed: %s", delivery.id, _name(target), error)
        self.report.failed.append((target, error))
        try:
            self.store.finish_delivery(
                delivery.id,
                DeliveryState.FAILED,
                now=self.clock(),
                error=error,
                messages_sent=exc.delivered if isinstance(exc, PartlyDelivered) else 0,
            )
        except MarinWatchError as store_exc:
            log.error("could not record the failure of digest %d: %s", delivery.id, store_exc)
        return exc


def _last_failed(deliveries: Iterable[Delivery]) -> dict[Destination, Delivery]:
    newest: dict[Destination, Delivery] = {}
    for d in deliveries:
        if d.kind == "daily" and d.state is DeliveryState.FAILED:
            if d.destination not in newest or d.id > newest[d.destination].id:
                newest[d.destination] = d
    return newest


def _day_start(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)


def _name(d: Destination) -> str:
    return f"{d.platform}:{d.id}"
