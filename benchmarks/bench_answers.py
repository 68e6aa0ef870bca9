"""Answer speed and memory: warm latency, batch throughput, cold `ask`, peak RSS.

Targets (issue 2, on a 2-core machine): p99 <= 5 ms per warm answer, cold `ask` <= 1.0 s,
peak RSS <= 100 MB. Run: `.venv/bin/python benchmarks/bench_answers.py`.
"""

from __future__ import annotations

import datetime as dt
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core import Core  # noqa: E402
from knowledge.clock import fixed_clock  # noqa: E402
from knowledge.loader import load  # noqa: E402


def questions() -> list[str]:
    rows = []
    for name in (
        "dev_questions.tsv",
        "heldout_questions.tsv",
        "blind_questions.tsv",
        "blind3_questions.tsv",
    ):
        path = ROOT / "tests" / "data" / name
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip() and not line.startswith("#"):
                    rows.append(line.split("\t")[0])
    return rows


def warm_latency(core: Core, qs: list[str], rounds: int = 5) -> list[float]:
    for q in qs:  # warm every template and cache once
        core.ask(q)
    samples = []
    for _ in range(rounds):
        for q in qs:
            start = time.perf_counter()
            core.ask(q)
            samples.append((time.perf_counter() - start) * 1000)
    return samples


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


# Runs the CLI in a child that reports its own peak RSS (VmHWM) on its last stderr line.
# ru_maxrss would not do: Linux keeps it across exec, so a child's figure includes the parent
# pages it was forked with (a benchmark parent holding 100 MB made every CLI look 100 MB).
_MEASURED = (
    "import re, runpy, sys\n"
    "sys.argv = ['marin-watch', *sys.argv[1:]]\n"
    "try:\n"
    "    runpy.run_module('bot.cli', run_name='__main__')\n"
    "finally:\n"
    "    status = open('/proc/self/status').read()\n"
    "    print('peak_kib', re.search(r'VmHWM:\\s+(\\d+)', status).group(1), file=sys.stderr)\n"
)


def cli(args: list[str], payload: str | None = None) -> tuple[str, int]:
    """Run ``marin-watch ARGS``; its stdout and its own peak RSS in KiB."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, *args],
        input=payload,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    peak = int(done.stderr.strip().splitlines()[-1].split()[-1])
    return done.stdout, peak


def batch(qs: list[str], repeat: int = 10) -> tuple[float, int, int]:
    payload = ("\n".join(qs) + "\n") * repeat
    start = time.perf_counter()
    out, peak = cli(["ask", "--json"], payload)
    return time.perf_counter() - start, len(out.splitlines()), peak


def cold_ask(runs: int = 5) -> tuple[list[float], int]:
    times, peak = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        _, used = cli(["ask", "has marin 535b started training?"])
        times.append(time.perf_counter() - start)
        peak = max(peak, used)
    return times, peak


def main() -> None:
    qs = questions()
    elapsed, answered, batch_peak = batch(qs)
    times, ask_peak = cold_ask()
    core = Core(load(), clock=fixed_clock(dt.datetime(2026, 12, 1, 12)))
    samples = warm_latency(core, qs)
    print(f"warm answer latency over {len(samples)} answers ({len(qs)} distinct questions):")
    print(
        f"  p50 {statistics.median(samples):.3f} ms   p99 {percentile(samples, 99):.3f} ms   "
        f"max {max(samples):.3f} ms   (target p99 <= 5 ms)"
    )
    print(
        f"batch mode: {answered} answers in {elapsed:.2f} s (one process, load included) = "
        f"{answered / elapsed:.0f} answers/s"
    )
    print(
        f"cold `ask` wall time over {len(times)} runs: median {statistics.median(times):.3f} s, "
        f"max {max(times):.3f} s   (target <= 1.0 s)"
    )
    print(
        f"peak RSS of a CLI process: ask {ask_peak / 1024:.1f} MB, batch {batch_peak / 1024:.1f} MB"
        "   (target <= 100 MB)"
    )


if __name__ == "__main__":
    main()
