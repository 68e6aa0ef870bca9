"""The console commands around the queue: list, show, dismiss, and watch --once."""

from __future__ import annotations

import datetime as dt
import json
import logging
import shutil
from pathlib import Path

import pytest

from bot.config import Settings
from bot.context import AppContext
from bot.store.signals import SQLiteSignalStore, WatchState
from bot.watchers.signal import Signal, SignalState
from knowledge.errors import CuratorError
from knowledge.loader import DEFAULT_DIR
from knowledge.schema import SourceKind
from tests.watchers import payloads as p
from tests.watchers.conftest import Clock
from tests.watchers.console import marin_watch, parser
from tests.watchers.internet import marin_internet
from tests.watchers.web import Web, server_error

NOW = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)


@pytest.fixture
def ctx(tmp_path: Path) -> AppContext:
    return AppContext(Settings(db_path=tmp_path / "marin-watch.sqlite3"), clock=Clock(NOW))


def queue(ctx: AppContext, *ids: str) -> None:
    with SQLiteSignalStore(ctx.settings.db_path) as store:
        store.record_poll(
            WatchState(p.HF_MODELS),
            [
                Signal(
                    id=i,
                    watched=p.HF_MODELS,
                    kind=SourceKind.MODEL_CARD,
                    url=f"https://huggingface.co/marin-community/{i}",
                    date=NOW,
                    title=f"Hugging Face model marin-community/{i}",
                    excerpt=i,
                    publisher="marin-community on Hugging Face",
                    claims=("model-not-released",),
                    found_at=NOW,
                )
                for i in ids
            ],
        )


def test_list_prints_the_queue_and_json_prints_one_object_a_line(
    ctx: AppContext, capsys: pytest.CaptureFixture[str]
) -> None:
    queue(ctx, "hf-a", "hf-b")

    assert marin_watch(ctx, "signals", "list") == 0
    assert capsys.readouterr().out.splitlines() == [
        "hf-a  2026-11-30  new  Hugging Face model marin-community/hf-a",
        "    may bear on: model-not-released",
        "hf-b  2026-11-30  new  Hugging Face model marin-community/hf-b",
        "    may bear on: model-not-released",
    ]
    assert marin_watch(ctx, "signals", "list", "--json") == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["id"], r["state"], r["claims"]) for r in rows] == [
        ("hf-a", "new", ["model-not-released"]),
        ("hf-b", "new", ["model-not-released"]),
    ]


def test_a_dismissed_signal_leaves_the_queue_but_not_the_record(
    ctx: AppContext, capsys: pytest.CaptureFixture[str]
) -> None:
    queue(ctx, "hf-a", "hf-b")

    assert marin_watch(ctx, "signals", "dismiss", "hf-a", "--reason", "test upload") == 0
    assert capsys.readouterr().out == "dismissed hf-a: Hugging Face model marin-community/hf-a\n"
    marin_watch(ctx, "signals", "list")
    assert "hf-a" not in capsys.readouterr().out
    marin_watch(ctx, "signals", "list", "--state", "dismissed")
    assert capsys.readouterr().out.startswith("hf-a  2026-11-30  dismissed")


def test_showing_an_unknown_signal_is_a_one_line_error(ctx: AppContext) -> None:
    with pytest.raises(CuratorError, match="no signal 'nope'"):
        marin_watch(ctx, "signals", "show", "nope")


def test_promote_requires_a_claim_or_a_step_and_a_claim_its_stance_and_strength(
    ctx: AppContext, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["signals", "promote", "hf-a"])
    err = capsys.readouterr().err
    assert "--claim" in err and "--step" in err
    with pytest.raises(CuratorError, match="--claim needs --stance and --strength"):
        marin_watch(ctx, "signals", "promote", "hf-a", "--claim", "model-not-released")
    with pytest.raises(SystemExit):
        parser().parse_args(["signals", "promote", "hf-a", "--step", "²"])


def status_comment(ctx: AppContext, *claims: str) -> str:
    """Queue a new #8506 comment: "step 310,000", seven weeks after run-current's entry."""
    with SQLiteSignalStore(ctx.settings.db_path) as store:
        store.record_poll(
            WatchState(p.COMMENTS_8506),
            [
                Signal(
                    id="gh-8506-c3390000000",
                    watched=p.COMMENTS_8506,
                    kind=SourceKind.STATUS_LOG,
                    url="https://github.com/marin-community/marin/issues/8506#issuecomment-3390000000",
                    date=NOW - dt.timedelta(hours=2),
                    title="GitHub issue #8506 comment by rjpower",
                    excerpt="Now at step 310,000 / 390,251.",
                    publisher="rjpower on GitHub (marin-community/marin#8506)",
                    claims=claims,
                    found_at=NOW,
                )
            ],
        )
    return "gh-8506-c3390000000"


SNAPSHOT_WARNING = (
    "  warning: claim run-current is a status snapshot: its statement describes 2026-10-09, "
    "and this record is from 2026-11-30. Linking it does not change what the answer says; add "
    "a new claim (or update the statement and as_of) in the same pull request"
)


def test_show_never_suggests_linking_a_newer_record_to_a_dated_claim_without_a_warning(
    ctx: AppContext, capsys: pytest.CaptureFixture[str]
) -> None:
    signal = status_comment(ctx, "run-current")

    assert marin_watch(ctx, "signals", "show", signal) == 0
    out = capsys.readouterr().out.splitlines()

    assert (
        "  may bear on: run-current (now confirmed; describes 2026-10-09, before this record)"
    ) in out
    suggestion = out.index("promote with:")
    assert "--claim run-current" in out[suggestion + 1]
    assert out[suggestion + 2] == SNAPSHOT_WARNING


def test_show_suggests_a_claim_the_record_does_not_outdate_first(
    ctx: AppContext, capsys: pytest.CaptureFixture[str]
) -> None:
    signal = status_comment(ctx, "run-current", "pretraining-not-finished")

    assert marin_watch(ctx, "signals", "show", signal) == 0
    out = capsys.readouterr().out

    assert out.endswith(
        f"promote with:\n  marin-watch signals promote {signal} --claim pretraining-not-finished "
        "--stance supports|contradicts --strength direct|indirect|context\n"
    )


def test_promoting_a_newer_record_to_a_dated_claim_works_and_tells_the_curator_what_is_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb_dir = tmp_path / "knowledge"
    shutil.copytree(DEFAULT_DIR, kb_dir)
    settings = Settings(kb_dir=kb_dir, db_path=tmp_path / "marin-watch.sqlite3")
    ctx = AppContext(settings, clock=Clock(NOW))
    signal = status_comment(ctx, "run-current")

    code = marin_watch(
        ctx, "signals", "promote", signal, "--claim", "run-current",
        "--stance", "supports", "--strength", "direct",
    )  # fmt: skip

    assert code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"promoted {signal}: appended source {signal}")
    assert out[-1] == SNAPSHOT_WARNING


def test_listing_signals_before_any_watch_creates_no_store(
    ctx: AppContext, capsys: pytest.CaptureFixture[str]
) -> None:
    assert marin_watch(ctx, "signals", "list") == 0
    assert capsys.readouterr().out == f"no signals yet (no store at {ctx.settings.db_path})\n"
    with pytest.raises(CuratorError, match="no signal 'hf-a': no store at"):
        marin_watch(ctx, "signals", "show", "hf-a")
    assert not ctx.settings.db_path.exists()


def test_watch_once_fails_only_when_every_source_failed(
    ctx: AppContext, capsys: pytest.CaptureFixture[str]
) -> None:
    web = Web()
    for url in marin_internet(web):
        web.on(url, server_error)

    assert marin_watch(ctx, "watch", "--once", client=web.client()) == 1
    assert "0 new signal(s), 13 request(s)" in capsys.readouterr().out

    ctx.clock.advance(minutes=1)  # type: ignore[attr-defined]
    marin_internet(web)
    assert marin_watch(ctx, "watch", "--once", client=web.client()) == 0
    assert "13 sources, 0 new signal(s), 0 request(s)" in capsys.readouterr().out  # backing off
    assert marin_watch(ctx, "watch", "--once", "--force", client=web.client()) == 0
    assert "13 request(s)" in capsys.readouterr().out
    with SQLiteSignalStore(ctx.settings.db_path) as store:
        assert {s.failures for s in store.source_states()} == {0}
        assert store.signals(states=[SignalState.NEW]) == []


def test_watch_once_without_network_names_each_failure_once(
    ctx: AppContext, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)  # what marin-watch logs by default
    web = Web()
    for url in marin_internet(web):
        web.on(url, server_error)

    assert marin_watch(ctx, "watch", "--once", client=web.client()) == 1

    report = [line for line in capsys.readouterr().out.splitlines() if "failed" in line]
    assert len(report) == 13  # one line per source, in the report
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO] == []
