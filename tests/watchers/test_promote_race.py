"""Curators promoting at the same time: the knowledge files stay whole, and every link lands.

Six processes run `marin-watch signals promote` at once on one knowledge directory. Before the
lock and the atomic replace, this left sources.toml with NUL bytes and a syntax error in half
the rounds, and signals marked promoted with no link written.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

from bot.store.signals import SQLiteSignalStore, WatchState
from bot.watchers.signal import Signal, SignalState
from knowledge.clock import system_clock
from knowledge.loader import load_with_problems
from knowledge.schema import SourceKind
from tests.watchers import payloads as p

PROCESSES = 6
NOW = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.UTC)


def _signal(n: int) -> Signal:
    return Signal(
        id=f"gh-8506-c33800000{n:02d}",
        watched=p.COMMENTS_8506,
        kind=SourceKind.STATUS_LOG,
        url=f"https://github.com/marin-community/marin/issues/8506#issuecomment-33800000{n:02d}",
        date=NOW - dt.timedelta(hours=n + 1),
        title=f"GitHub issue #8506 comment {n}",
        excerpt=f"Permanent checkpoint {n} saved; one every 6,000 steps.",
        publisher="rjpower on GitHub (marin-community/marin#8506)",
        claims=("checkpoint-cadence",),
        found_at=NOW,
    )


def test_six_curators_promoting_at_once_leave_whole_files_and_every_link(
    settings: object, tmp_path: Path
) -> None:
    kb_dir = Path(str(settings.kb_dir))  # type: ignore[attr-defined]
    db = Path(str(settings.db_path))  # type: ignore[attr-defined]
    signals = [_signal(n) for n in range(PROCESSES)]
    with SQLiteSignalStore(db) as store:
        store.record_poll(WatchState(p.COMMENTS_8506), signals)

    env = {**os.environ, "MARIN_WATCH_KB_DIR": str(kb_dir), "MARIN_WATCH_DB_PATH": str(db)}
    runs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bot.cli",
                "signals",
                "promote",
                s.id,
                "--claim",
                "checkpoint-cadence",
                "--stance",
                "supports",
                "--strength",
                "indirect",
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for s in signals
    ]
    results = [(r.wait(timeout=120), r.stderr.read() if r.stderr else "") for r in runs]

    assert all(code == 0 for code, _ in results), results
    # (the processes record their links on the machine's own day, which is NOW's or later)
    kb, problems = load_with_problems(kb_dir, today=max(NOW.date(), system_clock().date()))
    assert problems == []
    assert b"\0" not in (kb_dir / "sources.toml").read_bytes()
    linked = {link.source for link in kb.links if link.claim == "checkpoint-cadence"}
    assert {s.id for s in signals} <= linked
    with SQLiteSignalStore(db) as store:
        assert all(store.signal(s.id).state is SignalState.PROMOTED for s in signals)  # type: ignore[union-attr]
