"""The due decision and the claim, read from a real store: PostgreSQL and SQLite, at scale.

    .venv/bin/python benchmarks/bench_store.py [--subscriptions N] [--days D] [--runs R]
        [--backend postgres|sqlite|both] [--url postgresql://…  (an empty database)]

Target (issue 14): one scheduler check over 100,000 subscriptions on PostgreSQL in <= 2 s,
wall time: ``store.subscriptions()`` + ``store.latest_deliveries()`` +
``schedule.due_digests(…)``, as ``run_due`` does it (here for every platform at once, and
for one platform as each adapter's scheduler asks). The store holds ``--days`` of daily
history per subscription (sent; a few failed or in flight since), loaded in bulk before
timing (not timed: it is set-up, not the check). Then the claim: ``begin_delivery`` for
1,000 of the due digests, and a second store claiming the same 1,000 (``DeliveryClaimed``).

PostgreSQL is, without ``--url``, a throwaway server from the machine's binaries
(``tests/pg_server.py``; unix socket, fsync off), analysed after loading as autovacuum would.
Rows loaded behind the store's back get its ``superseded`` flags computed (``pg_latest``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import random
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg  # noqa: E402

from bot.digest import delivery  # noqa: E402
from bot.digest.schedule import DueDigest, due_digests  # noqa: E402
from bot.store import pg_latest  # noqa: E402
from bot.store.connection import timestamp  # noqa: E402
from bot.store.contract import Store  # noqa: E402
from bot.store.postgres import PostgresStore  # noqa: E402
from bot.store.sqlite import SQLiteStore  # noqa: E402
from knowledge.errors import DeliveryClaimed  # noqa: E402

NOW = dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)
ZONES = ("UTC", "Asia/Shanghai", "Asia/Tokyo", "Asia/Kolkata", "Europe/Berlin",
         "Europe/London", "America/New_York", "America/Los_Angeles", "America/Sao_Paulo",
         "Australia/Sydney", "Pacific/Auckland", "Africa/Cairo")  # fmt: skip
CLAIMS = 1_000
TARGET_MS = 2_000.0  # PostgreSQL, one check over 100,000 subscriptions

SUBSCRIPTION_COLUMNS = (
    "platform, destination_id, language, digest_time, timezone, post_on_quiet_days, "
    "active, scope, created_at, updated_at"
)
DELIVERY_COLUMNS = (
    "platform, destination_id, kind, window_start, window_end, content_hash, state, "
    "created_at, claimed_at, sent_at, owner"
)


def generated(
    count: int, days: int, seed: int = 14
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Subscription rows and delivery rows, as a store's tables hold them (native types)."""
    rng = random.Random(seed)
    subs: list[tuple[Any, ...]] = []
    deliveries: list[tuple[Any, ...]] = []
    created = NOW - dt.timedelta(days=days + 30)
    for i in range(count):
        platform, dest = rng.choice(("telegram", "discord")), str(-1_000_000_000 - i)
        at = dt.time(rng.randrange(24), rng.choice((0, 15, 30, 45)))
        subs.append((platform, dest, rng.choice(("en", "zh")), at, rng.choice(ZONES),
                     rng.random() < 0.3, True, None, created, created))  # fmt: skip
        # Served daily until a day or so ago; some a week behind (downtime, a blocked chat).
        behind = rng.choice((0, 0, 0, 0, 1, 7))
        last = NOW - dt.timedelta(days=behind, hours=rng.randrange(24))
        for k in range(days):
            end = last - dt.timedelta(days=k)
            sent = end + dt.timedelta(seconds=3)
            deliveries.append((platform, dest, "daily", end - dt.timedelta(days=1), end, "h",
                               "sent", end, end, sent, "run"))  # fmt: skip
        after = rng.random()
        if after < 0.02:  # failed since (backing off), or in flight right now
            state = "failed" if after < 0.015 else "pending"
            end = last + dt.timedelta(days=1)
            deliveries.append((platform, dest, "daily", last, end, "h", state, end, end, None,
                               "run"))  # fmt: skip
    return subs, deliveries


def load_postgres(url: str, subs: list[tuple[Any, ...]], deliveries: list[tuple[Any, ...]]) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        cur = conn.cursor()
        with cur.copy(f"COPY subscriptions ({SUBSCRIPTION_COLUMNS}) FROM STDIN") as copy:
            for row in subs:
                copy.write_row(row)
        with cur.copy(f"COPY deliveries ({DELIVERY_COLUMNS}) FROM STDIN") as copy:
            for row in deliveries:
                copy.write_row(row)
        pg_latest.recompute_all(conn)  # the flags the store keeps on write (bot/store/pg_latest.py)
        conn.execute("VACUUM ANALYZE")


def load_sqlite(path: Path, subs: list[tuple[Any, ...]], deliveries: list[tuple[Any, ...]]) -> None:
    def text(value: Any) -> Any:
        if isinstance(value, dt.datetime):
            return timestamp(value)
        if isinstance(value, dt.time):
            return value.isoformat()
        return int(value) if isinstance(value, bool) else value

    with closing(sqlite3.connect(path)) as conn, conn:
        marks = ", ".join("?" * len(subs[0]))
        conn.executemany(
            f"INSERT INTO subscriptions ({SUBSCRIPTION_COLUMNS}) VALUES ({marks})",
            ([text(v) for v in row] for row in subs),
        )
        marks = ", ".join("?" * len(deliveries[0]))
        conn.executemany(
            f"INSERT INTO deliveries ({DELIVERY_COLUMNS}) VALUES ({marks})",
            ([text(v) for v in row] for row in deliveries),
        )


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float, float]:
    """p50 and max wall time of ``fn``, and p50 CPU time of this process, in milliseconds
    (the database server's own work shows in wall time only)."""
    walls, cpus = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        cpus.append((time.process_time() - c0) * 1000)
        walls.append((time.perf_counter() - t0) * 1000)
    return statistics.median(walls), max(walls), statistics.median(cpus)


def check(store: Store, platform: str | None = None) -> list[DueDigest]:
    """One scheduler check, the one ``bot.digest.delivery.run_due`` makes."""
    return delivery.check(store, NOW, platform)[1]


def bench(
    name: str, open_store: Callable[[], Store], runs: int
) -> list[tuple[str, float, float, float]]:
    rows = []
    with closing(open_store()) as store, closing(open_store()) as rival:
        parts = {
            "subscriptions()": lambda: store.subscriptions(),
            "latest_deliveries()": lambda: store.latest_deliveries(),
        }
        for label, fn in parts.items():
            rows.append((f"{name}: {label}", *timed(fn, runs)))
        subs, latest = store.subscriptions(), store.latest_deliveries()
        due = due_digests(NOW, subs, latest)
        rows.append((f"{name}: due_digests() [{len(latest):,} latest records]",
                     *timed(lambda: due_digests(NOW, subs, latest), runs)))  # fmt: skip
        rows.append((f"{name}: ONE CHECK, all platforms [{len(due):,} due]",
                     *timed(lambda: check(store), runs)))  # fmt: skip
        rows.append(
            (f"{name}: one check, telegram only", *timed(lambda: check(store, "telegram"), runs))
        )

        claimed = due[:CLAIMS]

        def claim(by: Store) -> int:
            lost = 0
            for item in claimed:
                try:
                    by.begin_delivery(item.destination, item.window_start, item.window_end, "h",
                                      now=NOW, owner="bench")  # fmt: skip
                except DeliveryClaimed:
                    lost += 1
            return lost

        t0 = time.perf_counter()
        assert claim(store) == 0
        first = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        assert claim(rival) == len(claimed)
        second = (time.perf_counter() - t0) * 1000
        rows.append(
            (
                f"{name}: claim {len(claimed):,} due digests (per claim)",
                first / len(claimed),
                0.0,
                0.0,
            )
        )
        rows.append(
            (
                f"{name}: same, by a 2nd store: DeliveryClaimed (per claim)",
                second / len(claimed),
                0.0,
                0.0,
            )
        )
    return rows


def release(*generated_rows: list[tuple[Any, ...]]) -> None:
    """Drop the set-up rows before timing: a serving process never holds 800,000 row tuples,
    and while they live every full garbage collection walks them (a third of the check)."""
    for rows in generated_rows:
        rows.clear()
    gc.collect()


@contextmanager
def postgres_url(url: str | None) -> Iterator[str]:
    if url is not None:
        yield url
        return
    from tests.pg_server import PgServer

    with PgServer.start() as server:
        yield server.create_database()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--subscriptions", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=7, help="daily history per subscription")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument("--backend", choices=("postgres", "sqlite", "both"), default="both")
    parser.add_argument("--url", help="an empty PostgreSQL database (default: a throwaway server)")
    args = parser.parse_args()

    t0 = time.perf_counter()
    subs, deliveries = generated(args.subscriptions, args.days)
    print(f"generated {len(subs):,} subscriptions, {len(deliveries):,} deliveries "
          f"in {time.perf_counter() - t0:.1f} s")  # fmt: skip
    rows = []
    if args.backend in ("postgres", "both"):
        with postgres_url(args.url) as url:
            PostgresStore(url).close()  # the schema
            t0 = time.perf_counter()
            load_postgres(url, subs, deliveries)
            print(f"postgres: loaded (COPY + VACUUM ANALYZE) in {time.perf_counter() - t0:.1f} s")
            if args.backend == "postgres":
                release(subs, deliveries)
            rows += bench("postgres", lambda: PostgresStore(url), args.runs)  # noqa: B023
    if args.backend in ("sqlite", "both"):
        with TemporaryDirectory() as scratch:
            path = Path(scratch) / "bench.sqlite3"
            SQLiteStore(path).close()
            t0 = time.perf_counter()
            load_sqlite(path, subs, deliveries)
            release(subs, deliveries)
            print(f"sqlite: loaded in {time.perf_counter() - t0:.1f} s")
            rows += bench("sqlite", lambda: SQLiteStore(path), args.runs)  # noqa: B023

    width = max(len(r[0]) for r in rows)
    print(f"\n{'':{width}}  {'wall p50':>9}  {'wall max':>9}  {'CPU p50':>9}   (ms)")
    failed = False
    for label, p50, worst, cpu in rows:
        verdict = ""
        if label.startswith("postgres: ONE CHECK") and args.subscriptions >= 100_000:
            ok = worst <= TARGET_MS
            failed |= not ok
            verdict = f"  target <= {TARGET_MS:.0f} (max): {'ok' if ok else 'MISSED'}"
        extra = f"{worst:9.2f}  {cpu:9.2f}" if worst else f"{'':9}  {'':9}"
        print(f"{label:{width}}  {p50:9.2f}  {extra}{verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
