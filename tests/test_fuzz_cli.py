"""Fuzzing the ``marin-watch`` command line, in process: any argv a shell could pass ends in
exit code 0, 1 or 2 with at most a few lines on stderr, never a traceback, and the read-only
commands leave the store exactly as it was. The counts, per subcommand, are printed after the
module (``fuzz_counts``).
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.store.signals import SQLiteSignalStore, WatchState
from bot.store.sqlite import SQLiteStore
from tests.test_fuzz_args import fuzz_counts, word
from tests.test_readonly_store import SIGNAL, fingerprint, quick_kb, signal, subscription

__all__ = ["fuzz_counts", "quick_kb"]  # fixtures: print COUNTS; load the KB once

COUNTS: Counter[str] = Counter()
MAX_STDERR_LINES = 6  # argparse: a usage that may wrap, and its error line

# What a shell can pass: no NUL byte (argv is C strings), but undecodable bytes, which
# Python hands over as lone surrogates (surrogateescape).
shell_word = st.one_of(
    word,
    st.text(alphabet=st.characters(categories=["Cs", "Lu", "Nd"]), min_size=1, max_size=8),
).map(lambda w: w.replace("\x00", ""))
date_word = st.one_of(
    st.dates().map(str), st.sampled_from(["2026-11-30", "2026-08-01", "today"]), shell_word
)
lang_word = st.one_of(st.sampled_from(["en", "zh"]), shell_word)
count_word = st.one_of(st.integers(-10, 4000).map(str), st.integers().map(str), shell_word)


def option(name: str, value: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    """``[]`` or ``[name, value]``."""
    return st.one_of(st.just([]), value.map(lambda v: [name, v]))


def flag(name: str) -> st.SearchStrategy[list[str]]:
    return st.sampled_from([[], [name]])


def command(base: list[str], *parts: st.SearchStrategy[list[str]]) -> st.SearchStrategy[list[str]]:
    """``base`` followed by each part, in a shuffled order."""
    return st.tuples(*parts).flatmap(
        lambda chosen: st.permutations(list(chosen)).map(
            lambda ordered: base + [w for part in ordered for w in part]
        )
    )


words = st.lists(shell_word, min_size=1, max_size=3)
chart_name = st.sampled_from(["chart.png", "missing/chart.png", ".", "x.svg", "c\u4e2d.png"])


def argvs() -> dict[str, st.SearchStrategy[list[str]]]:
    """Each command's argv, with its options in any order and any values (a chart is
    written relative to the test's own directory)."""
    output = st.one_of(chart_name, shell_word.filter(lambda w: "/" not in w and w)).map(
        lambda name: ["--output", name]
    )
    commands = {
        "ask": command(["ask"], st.lists(shell_word, max_size=3), option("--lang", lang_word),
                       flag("--json"), option("--as-of", date_word)),
        "claims": command(["claims"], option("--as-of", date_word)),
        "sources": command(["sources"], option("--as-of", date_word)),
        "kb check": command(["kb", "check"]),
        "digest": command(["digest"], option("--days", count_word), option("--since", date_word),
                          option("--lang", lang_word), flag("--json")),
        "subscriptions list": command(["subscriptions", "list"], flag("--all"),
                                      option("--platform", shell_word), flag("--json")),
        "signals list": command(["signals", "list"], flag("--all"), option("--state", shell_word),
                                option("--limit", count_word), flag("--json")),
        "signals show": command(["signals", "show"], st.one_of(words, st.just([SIGNAL[:6]]))),
        "check": command(["check"], words, option("--lang", lang_word), flag("--json")),
        "why": command(["why"], words, option("--lang", lang_word), flag("--json")),
        "chart": command(["chart"], output, option("--lang", lang_word),
                         option("--as-of", date_word)),
        "random words": st.lists(
            st.one_of(shell_word, st.sampled_from(["-h", "--help", "--json", "list", "ask"])),
            max_size=4,
        ),
    }  # fmt: skip
    return commands


ARGVS = argvs()


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "marin-watch.sqlite3"
    with SQLiteStore(path) as subscriptions:
        subscriptions.subscribe(subscription())
    with SQLiteSignalStore(path) as signals:
        signals.record_poll(WatchState(signal().watched), [signal()])
    monkeypatch.setenv("MARIN_WATCH_DB_PATH", str(path))
    return path


def line_breaks(argv: list[str]) -> int:
    """The line breaks argv carries itself, which argparse echoes as they are."""
    return sum(len(f"<{word}>".splitlines()) - 1 for word in argv)


@pytest.fixture
def cli(
    store: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> Callable[[list[str]], None]:
    """Run ``marin-watch argv`` and check how it ended, and that the store is as it was."""
    before = fingerprint(store)
    monkeypatch.chdir(tmp_path)  # where --output writes its chart, not in the repo

    def run(argv: list[str]) -> None:
        # `ask --json` reads questions from stdin, one a line
        monkeypatch.setattr("sys.stdin", io.StringIO("has it started?\n\x01\x02\n\n"))
        code: object
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
            code = exc.code
        err = capsys.readouterr().err
        assert code in (0, 1, 2), (argv, code, err)
        assert "Traceback" not in err
        assert len(err.splitlines()) <= MAX_STDERR_LINES + line_breaks(argv), (argv, err)
        if code == 1:
            assert err.startswith("marin-watch: ") and err.count("\n") == 1, (argv, err)
        assert fingerprint(store) == before  # every command fuzzed here only reads

    return run


@pytest.mark.parametrize("name", sorted(ARGVS))
@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_argv_exits_cleanly(
    name: str, data: st.DataObject, cli: Callable[[list[str]], None]
) -> None:
    COUNTS[f"cli {name}"] += 1
    cli(data.draw(ARGVS[name], label="argv"))


@pytest.mark.parametrize(
    "argv",
    [
        ["digest", "--days", "99999999999"],
        ["digest", "--since", "0001-01-01"],
        ["chart", "--output", "."],
        ["signals", "list", "--limit", "١٢"],
        ["ask", "\udcff\udcfe"],
        ["subscriptions", "list", "--platform", "\ud800"],  # found by the fuzzing above
        ["signals", "show", "x", "a\nb\nc\nd\ne\nf\ng"],
    ],
)
def test_argv_that_once_went_wrong(argv: list[str], cli: Callable[[list[str]], None]) -> None:
    cli(argv)
