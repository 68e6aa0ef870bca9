"""The README tells the truth: its "How it works" tree names files that exist, and the
commands it shows run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def how_it_works_tree() -> str:
    section = README[README.index("## How it works") :]
    return section[section.index("```") + 3 : section.index("```", section.index("```") + 3)]


def test_every_path_in_the_how_it_works_tree_exists() -> None:
    tree = how_it_works_tree()
    heads = re.findall(r"^((?:knowledge|answers|bot)/[\w/.]*)", tree, flags=re.M)
    assert len(heads) >= 8
    for head in heads:
        assert (ROOT / head.rstrip("/")).exists(), head
    current = ""
    for line in tree.splitlines():  # a file is named under the last folder at the left
        head = re.match(r"^((?:knowledge|answers|bot)/[\w/.]*)", line)
        if head:
            current = head[1] if head[1].endswith("/") else str(Path(head[1]).parent) + "/"
        for name in re.findall(r"\b([\w]+\.py)\b", line):
            candidates = [ROOT / current / name, *ROOT.glob(f"*/**/{name}")]
            assert any(p.exists() for p in candidates), f"{name} (under {current})"


# The console table's commands, with what they need to run here (no tokens, a temp database).
RUNNABLE = [
    ["ask", "has marin 535b started training?"],
    ["ask", "--json", "how far along is it?"],
    ["claims"],
    ["sources"],
    ["kb", "check"],
    ["digest", "--days", "7"],
    ["subscriptions", "list"],
    ["signals", "list"],
]


def test_the_readme_shows_each_command_it_runs_here() -> None:
    shown = set(re.findall(r"`marin-watch ([a-z]+(?: [a-z]+)?)", README))
    for argv in RUNNABLE:
        words = " ".join(a for a in argv[:2] if not a.startswith("-") and " " not in a)
        assert any(words.startswith(s) or s.startswith(argv[0]) for s in shown), argv


@pytest.mark.parametrize("argv", RUNNABLE, ids=[" ".join(a[:2]) for a in RUNNABLE])
def test_a_readme_command_runs(argv: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "MARIN_WATCH_DB_PATH": str(tmp_path / "marin-watch.sqlite3")}
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert "Traceback" not in done.stderr


def test_the_console_runs_a_conversation_from_the_readme() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "console"],
        input="has it started?\n/status\n/quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "Has training started?" in done.stdout and "where the evidence stands" in done.stdout
