"""One replica runs the watchers at a time; the next takes over when it is gone."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path
from typing import Any

from bot.watchers.loop import run_watchers_forever
from bot.watchers.watch_lease import FileLease


def test_a_file_lease_is_held_by_one_and_passes_when_it_lets_go(tmp_path: Path) -> None:
    path = tmp_path / "marin-watch.sqlite3.watchers.lock"
    first, second = FileLease(path), FileLease(path)
    assert first.hold() and first.hold()  # taken, then still held
    assert not second.hold()
    first.close()  # the process died, or stopped
    assert second.hold()
    second.close()


class CountingRunner:
    def __init__(self) -> None:
        self.cycles = 0

    async def run_once(self) -> Any:
        self.cycles += 1
        raise RuntimeError("a cycle ran")  # logged by the loop, which goes on


async def test_the_loop_runs_cycles_only_while_it_holds_the_lease(tmp_path: Path) -> None:
    path = tmp_path / "lock"
    other = FileLease(path)
    assert other.hold()  # another replica runs the watchers
    runner = CountingRunner()
    stop = asyncio.Event()
    mine = FileLease(path)
    loop = asyncio.create_task(
        run_watchers_forever(
            runner,  # type: ignore[arg-type]
            every=dt.timedelta(seconds=0.02),
            stop=stop,
            lease=mine,
        )
    )
    await asyncio.sleep(0.15)
    assert runner.cycles == 0  # waiting its turn
    other.close()  # the other replica is gone
    for _ in range(100):
        if runner.cycles:
            break
        await asyncio.sleep(0.02)
    stop.set()
    await asyncio.wait_for(loop, 5)
    mine.close()
    assert runner.cycles >= 1


def test_a_killed_holder_leaves_the_lease_to_the_next_replica(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "lock"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; sys.path.insert(0, sys.argv[2])\n"
            "from pathlib import Path\n"
            "from bot.watchers.watch_lease import FileLease\n"
            "assert FileLease(Path(sys.argv[1])).hold()\n"
            "print('held', flush=True)\n"
            "time.sleep(60)",
            str(path),
            str(Path(__file__).resolve().parents[2]),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        mine = FileLease(path)
        assert not mine.hold()
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(10)
        deadline = time.monotonic() + 5
        while not mine.hold() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mine.hold()
        mine.close()
    finally:
        if holder.poll() is None:
            holder.kill()
