"""The commands that only look at the store never write it: not a byte, not a side file.

``subscriptions list``, ``signals list``, ``signals show`` and ``digest`` open the file
read-only (``bot.store.readonly``): no creation, no migration, no WAL switch, no ``-wal`` or
``-shm`` left beside it. A file that is not ours, or not at our version, is refused in one
line with a non-zero exit code, and stays exactly as it was.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import bot.context
from bot.cli import main
from bot.store.contract import Destination, Subscription
from bot.store.migrations import MIGRATIONS
from bot.store.signals import SQLiteSignalStore, WatchState
from bot.store.sqlite import SQLiteStore
from bot.watchers.signal import Signal
from knowledge.errors import Problem, StoreError
from knowledge.knowledge_base import KnowledgeBase
from knowledge.loader import load_with_problems
from knowledge.schema import SourceKind

NOW = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
CHAT = Destination("telegram", "1001")
SIGNAL = "hf-marin-community-marin-535b-a23b-base"
SIDE_FILES = ("-wal", "-shm", "-journal")

READERS = {
    "subscriptions list": ["subscriptions", "list"],
    "subscriptions list --all --json": ["subscriptions", "list", "--all", "--json"],
    "signals list": ["signals", "list"],
    "signals list --all --json": ["signals", "list", "--all", "--json"],
    "signals show": ["signals", "show", SIGNAL[:8]],
    "digest": ["digest"],
    "digest --days 7 --json": ["digest", "--days", "7", "--json"],
}

# Files that are not ours to read, each made by a few statements, and the refusal's words.
NOT_OURS = {
    "another program's tables": (
        (
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)",
            "INSERT INTO notes (body) VALUES ('keep me')",
        ),
        "another program's tables",
    ),
    "user_version 999": (
        ("CREATE TABLE t (x)", "PRAGMA user_version = 999"),
        "schema version 999, newer than this marin-watch",
    ),
    "another application_id": (
        ("CREATE TABLE t (x)", "PRAGMA application_id = 1234"),
        "belongs to another application (application_id 1234)",
    ),
}


@pytest.fixture(autouse=True)
def quick_kb(monkeypatch: pytest.MonkeyPatch) -> None:
    """Load the knowledge base once, not once per command (each ``main`` builds a context)."""
    loaded: dict[tuple[Path | None, dt.date], tuple[KnowledgeBase, list[Problem]]] = {}

    def once(kb_dir: Path | None, *, today: dt.date) -> tuple[KnowledgeBase, list[Problem]]:
        if (kb_dir, today) not in loaded:
            loaded[kb_dir, today] = load_with_problems(kb_dir, today=today)
        kb, problems = loaded[kb_dir, today]
        return kb, list(problems)

    monkeypatch.setattr(bot.context, "load_with_problems", once)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "marin-watch.sqlite3"
    monkeypatch.setenv("MARIN_WATCH_DB_PATH", str(path))
    return path


def subscription(dest: Destination = CHAT) -> Subscription:
    return Subscription(dest, "en", dt.time(9), "Asia/Shanghai", created_at=NOW)


def signal(signal_id: str = SIGNAL) -> Signal:
    return Signal(
        id=signal_id,
        watched="https://huggingface.co/api/models?author=marin-community",
        kind=SourceKind.MODEL_CARD,
        url=f"https://huggingface.co/marin-community/{signal_id}",
        date=NOW,
        title=f"Hugging Face model {signal_id}",
        excerpt="a new model card",
        publisher="marin-community on Hugging Face",
        claims=("model-not-released",),
        found_at=NOW,
    )


@pytest.fixture
def ours(db: Path) -> Path:
    """Our store, with a subscription and a signal, closed (so no writer's side file)."""
    with SQLiteStore(db) as store:
        store.subscribe(subscription())
    with SQLiteSignalStore(db) as signals:
        signals.record_poll(WatchState(signal().watched), [signal()])
    assert side_files(db) == set()
    return db


def side_files(path: Path) -> set[str]:
    return {side for side in SIDE_FILES if Path(f"{path}{side}").exists()}


def fingerprint(path: Path) -> tuple[str, int, set[str]]:
    """What must not change: the bytes, the modification time, and the side files."""
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns, side_files(path)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# our own file, read


@pytest.mark.parametrize("reader", READERS)
def test_reading_our_store_changes_nothing(
    ours: Path, reader: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = fingerprint(ours)
    code, out, err = run(READERS[reader], capsys)
    assert (code, err) == (0, "")
    assert out.strip()
    assert fingerprint(ours) == before


@pytest.mark.parametrize("reader", READERS)
def test_reading_beside_a_running_writer_changes_nothing_and_sees_its_writes(
    ours: Path, reader: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with SQLiteStore(ours) as writer:  # as `serve` would hold it: -wal and -shm exist
        writer.subscribe(subscription(Destination("discord", "77")))  # in the -wal only
        before = fingerprint(ours)
        assert before[2] == {"-wal", "-shm"}
        code, out, err = run(READERS[reader], capsys)
        assert (code, err) == (0, "")
        assert fingerprint(ours) == before
        if reader.startswith("subscriptions"):
            assert "77" in out  # read through the writer's log, not the stale file


def test_what_the_readers_print(ours: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["subscriptions", "list"], capsys)[1].splitlines()[1].startswith("telegram:1001")
    assert run(["signals", "list"], capsys)[1].startswith(SIGNAL)
    assert run(["signals", "show", SIGNAL[:8]], capsys)[1].startswith(f"signal {SIGNAL} (new)")


# no store, or an empty one


@pytest.mark.parametrize("reader", READERS)
def test_without_a_store_nothing_is_created(
    db: Path, reader: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(READERS[reader], capsys)
    if reader == "signals show":
        assert code == 1
        assert err == f"marin-watch: no signal {SIGNAL[:8]!r}: no store at {db} yet " + (
            "(watch --once makes one)\n"
        )
    else:
        assert code == 0
        assert "no store at" in out + err or reader.startswith("digest")
    assert not db.exists() and side_files(db) == set()


@pytest.mark.parametrize("reader", READERS)
def test_an_empty_file_reads_as_nothing_stored_yet(
    db: Path, reader: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db.touch()
    before = fingerprint(db)
    code, out, err = run(READERS[reader], capsys)
    assert code == (1 if reader == "signals show" else 0)
    assert "Traceback" not in err and len(err.splitlines()) <= 1
    if not reader.startswith("digest"):
        assert f"nothing stored at {db}" in out + err
    assert fingerprint(db) == before


# files that are not ours, or not at our version: refused untouched


def refused(path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line a refusal prints, after checking it exited 1 and left the file as it was."""
    before = fingerprint(path)
    code, out, err = run(argv, capsys)
    assert code == 1, (out, err)
    assert out == "" and err.startswith("marin-watch: ") and err.count("\n") == 1
    assert "Traceback" not in err
    assert fingerprint(path) == before
    return err


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("kind", NOT_OURS)
def test_a_file_that_is_not_ours_is_refused_untouched(
    db: Path, kind: str, reader: str, capsys: pytest.CaptureFixture[str]
) -> None:
    statements, words = NOT_OURS[kind]
    with sqlite3.connect(db) as conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()
    assert words in refused(db, READERS[reader], capsys)


@pytest.mark.parametrize("reader", READERS)
def test_a_file_that_is_not_a_database_is_refused_untouched(
    db: Path, reader: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db.write_text("this is not a database, " * 100)
    assert "file is not a database" in refused(db, READERS[reader], capsys)


@pytest.mark.parametrize("reader", READERS)
def test_an_older_store_is_refused_with_the_command_that_migrates_it(
    db: Path, reader: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with SQLiteStore(db, migrations=MIGRATIONS[:1]) as old:
        old.subscribe(subscription())
    err = refused(db, READERS[reader], capsys)
    assert f"schema version 1, older than this marin-watch's {len(MIGRATIONS)}" in err
    assert "run `marin-watch serve` or `marin-watch watch --once` once to migrate it" in err
    with SQLiteStore(db) as migrated:  # and a writer does migrate it
        assert migrated.version == len(MIGRATIONS)


# the read-only store itself


WRITES: dict[str, Callable[[SQLiteStore], object]] = {
    "subscribe": lambda s: s.subscribe(subscription()),
    "unsubscribe": lambda s: s.unsubscribe(CHAT, "test"),
    "record a delivery": lambda s: s.begin_delivery(CHAT, NOW, NOW, "h", now=NOW),
}


@pytest.mark.parametrize("write", WRITES)
def test_a_read_only_store_refuses_to_write(ours: Path, write: str) -> None:
    before = fingerprint(ours)
    with SQLiteStore(ours, read_only=True) as store, pytest.raises(StoreError, match="read-only"):
        WRITES[write](store)
    with SQLiteSignalStore(ours, read_only=True) as signals, pytest.raises(StoreError):
        signals.record_poll(WatchState("https://example.org"), [signal("other")])
    assert fingerprint(ours) == before


@pytest.fixture
def old_mtime(ours: Path) -> Iterator[Path]:
    """``ours``, last written long ago: a write now changes its mtime on any filesystem."""
    os.utime(ours, ns=(10**18, 10**18))
    yield ours


def test_a_write_during_a_read_of_an_idle_file_is_caught(old_mtime: Path) -> None:
    reader = SQLiteStore(old_mtime, read_only=True)
    with pytest.raises(StoreError, match="written while being read; run the command again"):
        with reader._db.reading("list subscriptions") as conn:
            conn.execute("SELECT * FROM subscriptions").fetchall()
            # A writer comes and goes mid-read: its checkpoint rewrites the file.
            with SQLiteStore(old_mtime) as writer:
                writer.subscribe(subscription(Destination("discord", "77")))
    # the next read opens afresh and sees the write
    assert [s.destination.id for s in reader.subscriptions()] == ["77", "1001"]


def test_reads_see_each_write_made_between_them(ours: Path) -> None:
    reader = SQLiteStore(ours, read_only=True)  # holds no connection between reads
    assert len(reader.subscriptions()) == 1
    with SQLiteStore(ours) as writer:
        writer.subscribe(subscription(Destination("discord", "77")))
        assert len(reader.subscriptions()) == 2  # through the writer's -wal
    writer.close()
    with SQLiteStore(ours) as writer:
        writer.unsubscribe(CHAT, "left")
    assert len(reader.subscriptions()) == 1  # from the checkpointed file
    assert side_files(ours) == set()


def test_reads_racing_a_writer_that_comes_and_goes_fail_cleanly_or_not_at_all(
    ours: Path,
) -> None:
    """A writer opening, writing and closing (each close checkpoints into the file) while a
    reader lists: every read is whole, or refused as written-while-read, in one line."""
    done = threading.Event()
    errors: list[BaseException] = []

    def write() -> None:
        try:
            for i in range(30):
                with SQLiteStore(ours) as writer:
                    writer.subscribe(subscription(Destination("discord", str(i))))
        except BaseException as exc:  # shown by the assertion below
            errors.append(exc)
        finally:
            done.set()

    reader = SQLiteStore(ours, read_only=True)
    seen: list[int] = []
    refusals: list[str] = []
    writer = threading.Thread(target=write)
    writer.start()
    while not done.is_set():
        try:
            seen.append(len(reader.subscriptions(active_only=False)))
        except StoreError as exc:
            refusals.append(str(exc))
    writer.join()
    assert errors == []
    assert seen == sorted(seen) and set(seen) <= set(range(1, 32))  # whole, never going back
    assert all("\n" not in r for r in refusals)
    assert len(reader.subscriptions(active_only=False)) == 31
    # A writer that closed while a reader held the file left its -wal (checkpointed or not,
    # still part of the file) for the next writer to fold in, as SQLite does with readers.
    SQLiteStore(ours).close()
    assert side_files(ours) == set()


@pytest.mark.parametrize(
    "argv",
    [
        ["subscriptions", "list", "--platform", "\udcff"],  # `--platform $'\xff'` in a shell
        ["signals", "show", "hf-\udcfe"],
    ],
)
def test_an_undecodable_argument_is_refused_in_one_line(
    ours: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by tests/test_fuzz_cli.py: exit 70, an internal error, before."""
    assert "is not valid text" in refused(ours, argv, capsys)
