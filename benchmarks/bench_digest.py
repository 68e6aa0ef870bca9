"""How fast the digest is built and the daily schedule decided, at scale.

    .venv/bin/python benchmarks/bench_digest.py [--runs N]

Targets (issue 3): a digest over a generated KB of 10,000 evidence links and 1,000 claims in
<= 50 ms; the due-digest decision for 100,000 subscriptions in <= 1 s. Each figure is p50 and
max over several runs. "cold" builds on a fresh KnowledgeBase (no cached assessments), as the
first digest after a start does; "warm" reuses it, as every later one does.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from answers.render import Renderer  # noqa: E402
from bot.digest.builder import DigestService  # noqa: E402
from bot.digest.schedule import due_digests  # noqa: E402
from bot.digest.window import Window  # noqa: E402
from bot.store.contract import Delivery, DeliveryState, Destination, Subscription  # noqa: E402
from knowledge.clock import fixed_clock  # noqa: E402
from knowledge.knowledge_base import KnowledgeBase  # noqa: E402
from knowledge.schema import (  # noqa: E402
    Claim,
    ClaimKind,
    EvidenceLink,
    Source,
    SourceKind,
    Stance,
    Strength,
    Text,
)

TODAY = dt.date(2026, 11, 30)
NOW = dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)
DAYS = 200  # the generated history spans this many days before TODAY
ZONES = (
    "UTC",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Asia/Kolkata",
    "Europe/Berlin",
    "Europe/London",
    "America/New_York",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Australia/Sydney",
    "Pacific/Auckland",
    "Africa/Cairo",
)


def generated_kb(claims: int = 1_000, links: int = 10_000, seed: int = 7) -> KnowledgeBase:
    rng = random.Random(seed)
    start = TODAY - dt.timedelta(days=DAYS)
    sources: dict[str, Source] = {}
    for i in range(links // 5):
        published = start + dt.timedelta(days=rng.randrange(DAYS))
        relays = f"s{rng.randrange(i)}" if i and rng.random() < 0.1 else None
        sources[f"s{i}"] = Source(
            id=f"s{i}",
            title=f"Record {i}",
            kind=rng.choice(list(SourceKind)),
            publisher=f"publisher {i % 37}",
            published=published,
            relays=relays,
        )
    source_ids = list(sources)
    claim_map = {
        f"c{i}": Claim(
            id=f"c{i}",
            topic=f"t{i % 50}",
            kind=rng.choice(list(ClaimKind)),
            statement=Text(en=f"Claim number {i} holds.", zh=f"第 {i} 条论断成立。"),
            added=start + dt.timedelta(days=rng.randrange(DAYS // 2)),
        )
        for i in range(claims)
    }
    claim_ids = list(claim_map)
    pairs: set[tuple[str, str]] = set()
    link_list: list[EvidenceLink] = []
    while len(link_list) < links:
        pair = (rng.choice(claim_ids), rng.choice(source_ids))
        if pair in pairs:
            continue
        pairs.add(pair)
        # Recorded within a few days of publication: about 50 new links a day, as a busy
        # curator would add them.
        published = sources[pair[1]].published
        recorded = min(TODAY, published + dt.timedelta(days=rng.randrange(4)))
        link_list.append(
            EvidenceLink(
                claim=pair[0],
                source=pair[1],
                stance=Stance.CONTRADICTS if rng.random() < 0.05 else Stance.SUPPORTS,
                strength=rng.choices(list(Strength), weights=(6, 3, 1))[0],
                quote="…",
                recorded=recorded,
            )
        )
    return KnowledgeBase(sources=sources, claims=claim_map, links=link_list, watch_points=[])


Row = tuple[str, float, float, float, float]  # label, wall p50, wall max, CPU p50, target


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float, float]:
    """p50 and max wall time of ``fn``, and p50 CPU time, in milliseconds.

    CPU time is quoted beside wall time because the machine is shared: other processes
    stretch wall time, not the work this process does.
    """
    walls, cpus = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        cpus.append((time.process_time() - c0) * 1000)
        walls.append((time.perf_counter() - t0) * 1000)
    return statistics.median(walls), max(walls), statistics.median(cpus)


def timed_after(
    setup: Callable[[], DigestService], fn: Callable[[DigestService], object], runs: int
) -> tuple[float, float, float]:
    """Like ``timed``, with an untimed ``setup`` before each run."""
    walls, cpus = [], []
    for _ in range(runs):
        service = setup()
        t0, c0 = time.perf_counter(), time.process_time()
        fn(service)
        cpus.append((time.process_time() - c0) * 1000)
        walls.append((time.perf_counter() - t0) * 1000)
    return statistics.median(walls), max(walls), statistics.median(cpus)


def bench_digest(runs: int) -> list[Row]:
    base = generated_kb()
    rows = []
    for label, window in (
        ("daily digest (1 day)", Window.last_days(1, TODAY)),
        ("weekly catch-up (7 days)", Window.last_days(7, TODAY)),
    ):
        for lang in ("en", "zh"):
            renderer = Renderer(base, fixed_clock(NOW))  # templates compiled once per process

            def fresh() -> DigestService:
                kb = KnowledgeBase(base.sources, base.claims, base.links, base.watch_points)
                renderer.kb = kb  # noqa: B023  (a fresh KB: no cached assessments)
                return DigestService(kb, renderer)  # noqa: B023

            def cold() -> object:
                return fresh().build(window, lang=lang)  # noqa: B023

            warm_service = DigestService(base, Renderer(base, fixed_clock(NOW)))
            digest = warm_service.build(window, lang=lang)
            size = f"{len(digest.changes.claims)} claims, {len(digest.reply.text):,} chars"
            rows.append((f"{label}, {lang}, cold [{size}]", *timed(cold, runs), 50.0))
            # What `serve` sees: indexes are built once at start-up, then a digest has
            # nothing cached yet (every assessment computed afresh).
            first = timed_after(fresh, lambda s: s.build(window, lang=lang), runs)  # noqa: B023
            rows.append((f"{label}, {lang}, first after start-up", *first, 50.0))
            warm = timed(lambda: warm_service.build(window, lang=lang), runs)  # noqa: B023
            rows.append((f"{label}, {lang}, warm", *warm, 50.0))
    return rows


def bench_schedule(runs: int, count: int = 100_000) -> list[Row]:
    rng = random.Random(11)
    subs: list[Subscription] = []
    deliveries: list[Delivery] = []
    for i in range(count):
        dest = Destination(rng.choice(("telegram", "discord")), str(i))
        zone = rng.choice(ZONES)
        subs.append(
            Subscription(
                dest,
                rng.choice(("en", "zh")),
                dt.time(rng.randrange(24), rng.choice((0, 30))),
                zone,
                post_on_quiet_days=rng.random() < 0.3,
                created_at=NOW - dt.timedelta(days=30),
            )
        )
        # Most were served at their last slot; some are a day or a week behind.
        behind = rng.choice((0, 0, 0, 0, 1, 7))
        end = NOW - dt.timedelta(days=behind, hours=rng.randrange(24))
        deliveries.append(
            Delivery(
                i,
                dest,
                end - dt.timedelta(days=1),
                end,
                "h",
                DeliveryState.SENT,
                created_at=end,
            )
        )
    due = due_digests(NOW, subs, deliveries)
    label = f"due decision, {count:,} subscriptions [{len(due):,} due]"
    return [(label, *timed(lambda: due_digests(NOW, subs, deliveries), runs), 1000.0)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=15, help="runs per figure (default 15)")
    args = parser.parse_args()
    rows = bench_digest(args.runs) + bench_schedule(max(3, args.runs // 3))
    width = max(len(r[0]) for r in rows)
    print(f"{'':{width}}  {'wall p50':>9}  {'wall max':>9}  {'CPU p50':>9}  target (ms)")
    failed = False
    for label, p50, worst, cpu, target in rows:
        ok = cpu <= target
        failed |= not ok
        verdict = "ok" if ok else "MISSED"
        print(f"{label:{width}}  {p50:9.2f}  {worst:9.2f}  {cpu:9.2f}  <= {target:.0f} {verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
