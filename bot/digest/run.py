"""One digest run's deliveries: build, record pending, send, mark sent or failed, resume.

``delivery.run_due`` and ``delivery.deliver_now`` drive a ``Run``; the rules it keeps are
told in ``delivery``'s docstring.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from answers.reply import Reply
from bot.digest.builder import Digest, DigestService
from bot.digest.schedule import DueDigest
from bot.digest.sending import PartlyDelivered, Sender, delivered_before
from bot.digest.window import Window
from bot.store.contract import Delivery, DeliveryState, Destination, Store
from knowledge.clock import Clock
from knowledge.errors import (
    DeliveryClaimed,
    DeliveryError,
    DestinationGone,
    DestinationMoved,
    MarinWatchError,
)

log = logging.getLogger("bot.digest.delivery")  # one logger for the whole delivery story


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


@dataclass
class Run:
    store: Store
    digests: DigestService
    sender: Sender
    clock: Clock
    report: RunReport
    owner: str | None = None  # the lease this run records its deliveries under
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

    async def reclaim(
        self, platform: str, *, stale_after: dt.timedelta, lease: dt.timedelta
    ) -> None:
        now = self.clock()
        for d in self.store.pending():
            if d.destination.platform != platform:
                continue
            taken = self.store.reclaim(
                d.id,
                owner=self.owner,
                stale_before=now - stale_after,
                lapsed_before=now - lease,
                now=now,
            )
            if not taken:
                continue  # its owner is alive (sending still), or another process took it
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
            log.warning("pending delivery %d to %s %s", d.id, name_of(d.destination), reason)
            self.store.finish_delivery(d.id, DeliveryState.FAILED, now=self.clock(), error=reason)
            return
        digest = self.digest(d.window_start, d.window_end, sub.language)
        if digest.quiet and not sub.post_on_quiet_days:
            self.store.finish_delivery(d.id, DeliveryState.SKIPPED, now=self.clock())
            return
        log.warning(
            "resending digest %d to %s: left pending by run %s, which ended mid-send; it may "
            "appear twice there%s",
            d.id,
            name_of(d.destination),
            d.owner or "(unknown)",
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
                dest,
                item.window_start,
                item.window_end,
                digest.content_hash,
                now=self.clock(),
                owner=self.owner,
            )
            if quiet:
                self.store.finish_delivery(delivery.id, DeliveryState.SKIPPED, now=self.clock())
                self.report.skipped.append(dest)
                return
        except DeliveryClaimed:
            self.report.claimed_elsewhere.append(dest)
            return
        except Exception as exc:  # a store or template failure: this destination only
            log.exception("could not prepare the digest for %s", name_of(dest))
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
                name_of(item.destination),
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
                log.info("%s moved to %s; moving its subscription", name_of(target), new.id)
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
                    log.exception("sender failed on %s", name_of(target))
                return self.fail(delivery, target, exc)
            break
        try:
            self.store.finish_delivery(delivery.id, DeliveryState.SENT, now=self.clock())
        except MarinWatchError as exc:
            # Sent but not recorded: it stays pending, and once this run releases its lease
            # the next run re-sends it (the chat may see it twice, as after a crash).
            log.error(
                "sent digest %d to %s but could not record it: %s",
                delivery.id,
                name_of(target),
                exc,
            )
        return None

    def fail(self, delivery: Delivery, target: Destination, exc: Exception) -> Exception:
        error = f"{type(exc).__name__}: {exc}"
        log.warning("digest %d to %s failed: %s", delivery.id, name_of(target), error)
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


def last_failed(deliveries: Iterable[Delivery]) -> dict[Destination, Delivery]:
    newest: dict[Destination, Delivery] = {}
    for d in deliveries:
        if d.kind == "daily" and d.state is DeliveryState.FAILED:
            if d.destination not in newest or d.id > newest[d.destination].id:
                newest[d.destination] = d
    return newest


def day_start(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)


def name_of(d: Destination) -> str:
    return f"{d.platform}:{d.id}"
