"""One watch cycle: poll every configured source once, politely, and queue what is new.

For each source the runner

1. skips it while it is backing off (after errors, or until a rate limit resets);
2. fetches its configured URL conditionally (ETag / Last-Modified of the last answer);
3. turns the answer into findings (the watcher), drops those already stored, and ties the
   rest to watch points and claims (the rules); a *broad* source keeps only findings some
   pattern matched;
4. stores the source's new state and the findings not seen before, in one transaction.

The first successful poll of a source is its **baseline**: what is already there is recorded
(so it is never reported later) but not queued, so a fresh install raises no flood. Errors
back a source off exponentially (5 min, 10, 20 … at most 6 h); one source failing never
stops the others. Sources on the same host are polled one after another, hosts in parallel,
and the whole cycle within a deadline (``deadline``): a source still waiting at the deadline
is *not polled* this cycle, its state untouched, and goes first on its host next cycle.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from bot.store.signals import SignalStore, WatchState
from bot.watchers.deadline import CYCLE_DEADLINE, by_origin, poll_within
from bot.watchers.fetch import Fetched, Fetcher, Validators
from bot.watchers.rules import Rules
from bot.watchers.signal import Signal, SignalState
from bot.watchers.watcher import Poll, Watcher
from knowledge.clock import Clock
from knowledge.errors import SourceRateLimited, WatcherError

log = logging.getLogger(__name__)


class Outcome(StrEnum):
    BASELINE = "baseline"
    NEW = "new"
    NOTHING_NEW = "nothing new"
    NOT_MODIFIED = "not modified"
    SKIPPED = "backing off"
    RATE_LIMITED = "rate limited"
    FAILED = "failed"
    NOT_POLLED = "not polled"  # the cycle's deadline came first; tried again next cycle


@dataclass(frozen=True, kw_only=True)
class Backoff:
    first: dt.timedelta = dt.timedelta(minutes=5)
    longest: dt.timedelta = dt.timedelta(hours=6)

    def after(self, failures: int) -> dt.timedelta:
        doublings: int = min(max(failures - 1, 0), 20)
        return min(self.first * (1 << doublings), self.longest)


@dataclass(frozen=True)
class SourceReport:
    url: str
    label: str
    outcome: Outcome
    signals: tuple[Signal, ...] = ()  # queued for review (or, on a baseline, recorded)
    message: str | None = None
    until: dt.datetime | None = None  # when a source backing off will be tried again


@dataclass(frozen=True)
class CycleReport:
    started_at: dt.datetime
    sources: tuple[SourceReport, ...]
    requests: int  # HTTP requests actually sent

    @property
    def new_signals(self) -> list[Signal]:
        return [s for r in self.sources if r.outcome is Outcome.NEW for s in r.signals]

    @property
    def failed(self) -> list[SourceReport]:
        """The sources this cycle could not read (a cut by the deadline included)."""
        unread = (Outcome.FAILED, Outcome.RATE_LIMITED, Outcome.NOT_POLLED)
        return [r for r in self.sources if r.outcome in unread]


class WatchRunner:
    def __init__(
        self,
        watchers: Sequence[Watcher],
        fetcher: Fetcher,
        store: SignalStore,
        rules: Rules,
        *,
        clock: Clock,
        backoff: Backoff | None = None,
        failures_logged_at: int = logging.WARNING,
        known_through: dt.date | None = None,
        deadline: float = CYCLE_DEADLINE,
    ) -> None:
        self.watchers = list(watchers)
        # The date of the knowledge base's newest record: on a source's first poll, anything
        # newer is news the curated files do not hold yet, so it is queued, not buried in the
        # baseline (a fresh install catches up instead of starting blind).
        self.known_through = known_through
        self.fetcher = fetcher
        self.store = store
        self.rules = rules
        self.clock = clock
        self.backoff = backoff or Backoff()
        self.deadline = deadline  # seconds of wall time for a whole cycle
        # A caller that prints each cycle's report (``marin-watch watch``) names every failure
        # there already; it asks for DEBUG, so a failure is not said twice.
        self.failures_logged_at = failures_logged_at

    def _newer_than_kb(self, date: dt.datetime) -> bool:
        try:
            day = date.astimezone(dt.UTC).date()
        except OverflowError:  # 0001-01-01T00:00:00+14:00 has no UTC date
            return False
        return self.known_through is not None and day > self.known_through

    async def run_once(self, *, force: bool = False) -> CycleReport:
        """Poll every source once (``force``: also those backing off after errors)."""
        started = self.clock()
        sent_before = self.fetcher.requests
        # Least recently tried first: a source the last deadline cut goes before those that
        # were polled, so a slow neighbour on its host cannot starve it cycle after cycle.
        tried = {s.url: s.last_attempt_at for s in self.store.source_states()}
        never = dt.datetime.min.replace(tzinfo=dt.UTC)
        order = sorted(self.watchers, key=lambda w: tried.get(w.url) or never)
        results: dict[str, SourceReport] = {}

        async def poll_one(watcher: Watcher) -> None:
            results[watcher.url] = await self.poll(watcher, force=force)

        await poll_within(by_origin((w.url, w) for w in order), poll_one, deadline=self.deadline)
        for w in self.watchers:
            if w.url not in results:
                results[w.url] = self._not_polled(w)
        return CycleReport(
            started_at=started,
            sources=tuple(results[w.url] for w in self.watchers),
            requests=self.fetcher.requests - sent_before,
        )

    def _not_polled(self, watcher: Watcher) -> SourceReport:
        message = "deadline: not polled this cycle"
        why = f"the cycle's {self.deadline:g}s ran out"
        log.log(self.failures_logged_at, "%s: %s (%s)", watcher.url, message, why)
        return self._report(watcher, Outcome.NOT_POLLED, message)

    async def poll(self, watcher: Watcher, *, force: bool = False) -> SourceReport:
        now = self.clock()
        state = self.store.source_state(watcher.url)
        if state.next_attempt_at is not None and now < state.next_attempt_at and not force:
            return self._report(watcher, Outcome.SKIPPED, state.last_error, state.next_attempt_at)
        try:
            fetched = await self.fetcher.get(
                watcher.url,
                params=watcher.params(state.cursor, now),
                validators=_validators(state),
                accept=watcher.accept,
            )
            if fetched.not_modified:
                poll = Poll([], state.cursor)
            else:
                poll = _parse(watcher, fetched, state, now)
        except SourceRateLimited as exc:
            log.log(self.failures_logged_at, "%s", exc)
            self.store.record_poll(
                replace(state, next_attempt_at=exc.until, last_error=str(exc), last_attempt_at=now),
                [],
            )
            return self._report(watcher, Outcome.RATE_LIMITED, str(exc), exc.until)
        except WatcherError as exc:
            failures = state.failures + 1
            until = now + self.backoff.after(failures)
            log.log(
                self.failures_logged_at,
                "%s (failure %d; next try after %s)",
                exc,
                failures,
                until.isoformat(),
            )
            self.store.record_poll(
                replace(
                    state,
                    failures=failures,
                    next_attempt_at=until,
                    last_error=str(exc),
                    last_attempt_at=now,
                ),
                [],
            )
            return self._report(watcher, Outcome.FAILED, str(exc), until)

        baseline = state.baseline_at is None
        # Most of a listing was seen before: look the ids up once, match only the rest.
        known = self.store.known([f.id for f in poll.findings])
        fresh = {f.id: f for f in poll.findings if f.id not in known}
        signals = []
        for finding in fresh.values():
            # A baseline is what existed before we watched: it is remembered, never queued,
            # so it is not worth matching (unless a broad source needs the match to keep it).
            quick = baseline and not watcher.broad
            match = self.rules.home(finding) if quick else self.rules.match(finding)
            if watcher.broad and not match.by_pattern:
                continue
            catch_up = baseline and finding.dated and self._newer_than_kb(finding.date)
            if catch_up and quick:
                match = self.rules.match(finding)
            signals.append(
                self.rules.signal(
                    finding,
                    state=SignalState.BASELINE if baseline and not catch_up else SignalState.NEW,
                    found_at=now,
                    match=match,
                )
            )
        added = self.store.record_poll(_succeeded(state, fetched, poll, now), signals)
        caught_up = tuple(s for s in added if s.state is SignalState.NEW)
        if baseline and not caught_up:
            outcome = Outcome.BASELINE
        elif baseline:  # a first poll that found records newer than the knowledge base
            outcome, added = Outcome.NEW, list(caught_up)
        elif added:
            outcome = Outcome.NEW
        else:
            outcome = Outcome.NOT_MODIFIED if fetched.not_modified else Outcome.NOTHING_NEW
        return self._report(watcher, outcome, signals=tuple(added))

    def _report(
        self,
        watcher: Watcher,
        outcome: Outcome,
        message: str | None = None,
        until: dt.datetime | None = None,
        *,
        signals: tuple[Signal, ...] = (),
    ) -> SourceReport:
        return SourceReport(watcher.url, watcher.label, outcome, signals, message, until)


def _parse(watcher: Watcher, fetched: Fetched, state: WatchState, now: dt.datetime) -> Poll:
    """The watcher's parse, with a payload of an unexpected shape translated once, here."""
    try:
        return watcher.parse(fetched, state.cursor, now)
    except WatcherError:
        raise
    except (
        KeyError,
        IndexError,
        TypeError,
        ValueError,
        AttributeError,
        OverflowError,  # "id": 1e999, a date of 0001-01-01T00:00:00+14:00
        RecursionError,  # JSON nested 200,000 deep
    ) as exc:
        what = f"{type(exc).__name__}: {str(exc)[:200]}"
        raise WatcherError(f"{fetched.url}: unexpected payload ({what})") from exc


def _validators(state: WatchState) -> Validators | None:
    if state.cache_url is None:
        return None
    return Validators(state.cache_url, state.etag, state.last_modified)


def _succeeded(state: WatchState, fetched: Fetched, poll: Poll, now: dt.datetime) -> WatchState:
    # A 304 need not repeat the validators: keep the ones it confirmed.
    keep = fetched.not_modified and state.cache_url == fetched.url
    return replace(
        state,
        baseline_at=state.baseline_at or now,
        cursor=poll.cursor,
        cache_url=fetched.url,
        etag=fetched.etag or (state.etag if keep else None),
        last_modified=fetched.last_modified or (state.last_modified if keep else None),
        failures=0,
        next_attempt_at=None,
        last_error=None,
        last_attempt_at=now,
        last_success_at=now,
    )
