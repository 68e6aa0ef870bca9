"""The curator promotes a signal into the knowledge files, or dismisses it; never silently."""

from __future__ import annotations

import datetime as dt
import errno
import shutil
import stat
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

import pytest

from bot.curator import Curator
from bot.knowledge_files import toml_string
from bot.store.signals import SQLiteSignalStore, WatchState
from bot.watchers.signal import Signal, SignalState
from knowledge.errors import CuratorError
from knowledge.loader import DEFAULT_DIR, load
from knowledge.schema import Level, SourceKind, Stance, Strength

NOW = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.UTC)

STILL_4K = Signal(
    id="gh-8506-c3380012345",
    watched="https://api.github.com/repos/marin-community/marin/issues/8506/comments",
    kind=SourceKind.STATUS_LOG,
    url="https://github.com/marin-community/marin/issues/8506#issuecomment-3380012345",
    date=dt.datetime(2026, 11, 28, 18, 22, tzinfo=dt.UTC),
    title="GitHub issue #8506 comment by rjpower",
    excerpt="Now at step 262,000 / 390,251. Still training at 4k context: the 4k→8k extension "
    'has not started yet. Next "permanent" checkpoint at step-264000, one every 6,000 steps.',
    publisher="rjpower on GitHub (marin-community/marin#8506)",
    claims=("run-current", "checkpoint-cadence"),
    watch_points=("curves-and-checkpoints",),
    found_at=NOW - dt.timedelta(hours=1),
)


@pytest.fixture
def kb_dir(tmp_path: Path) -> Path:
    copy = tmp_path / "knowledge"
    shutil.copytree(DEFAULT_DIR, copy)
    return copy


@pytest.fixture
def curator(store: SQLiteSignalStore, kb_dir: Path) -> Curator:
    store.record_poll(WatchState(STILL_4K.watched), [STILL_4K])
    return Curator(store, kb_dir, clock=lambda: NOW)


def snapshot(kb_dir: Path) -> dict[str, bytes]:
    return {f.name: f.read_bytes() for f in sorted(kb_dir.glob("*.toml"))}


def test_promotion_appends_a_source_and_a_link_that_raise_the_claims_confidence(
    curator: Curator, kb_dir: Path
) -> None:
    sources_before = (kb_dir / "sources.toml").read_text()

    done = curator.promote(
        "gh-8506-c3380012345",
        claim="checkpoint-cadence",
        stance=Stance.SUPPORTS,
        strength=Strength.DIRECT,
    )

    assert (done.before, done.after) == (Level.SINGLE_SOURCE, Level.CONFIRMED)
    assert done.new_source and done.source_id == "gh-8506-c3380012345"
    appended = (kb_dir / "sources.toml").read_text()[len(sources_before) :]
    assert appended == (
        "\n# promoted from signal gh-8506-c3380012345 on 2026-11-30 (marin-watch signals promote)\n"
        "[[source]]\n"
        'id = "gh-8506-c3380012345"\n'
        'title = "GitHub issue #8506 comment by rjpower"\n'
        'url = "https://github.com/marin-community/marin/issues/8506#issuecomment-3380012345"\n'
        'kind = "status-log"\n'
        'publisher = "rjpower on GitHub (marin-community/marin#8506)"\n'
        "published = 2026-11-28\n"
        'excerpts = ["Now at step 262,000 / 390,251. Still training at 4k context: the 4k→8k '
        'extension has not started yet. Next \\"permanent\\" checkpoint at step-264000, one every '
        '6,000 steps."]\n'
    )
    kb = load(kb_dir, today=NOW.date())
    [link] = [x for x in kb.links if x.source == "gh-8506-c3380012345"]
    assert (link.claim, link.stance, link.strength, link.recorded) == (
        "checkpoint-cadence",
        Stance.SUPPORTS,
        Strength.DIRECT,
        NOW.date(),
    )
    assert link.quote.startswith("Now at step 262,000")
    assert curator.find("gh-8506-c3380012345").state is SignalState.PROMOTED


def test_a_record_that_contradicts_a_claim_makes_it_disputed(curator: Curator) -> None:
    done = curator.promote(
        "gh-8506",  # an unambiguous prefix is enough
        claim="pretraining-not-finished",
        stance=Stance.CONTRADICTS,
        strength=Strength.DIRECT,
        quote="Now at step 262,000",
    )
    assert done.after is Level.DISPUTED


def test_promoting_one_record_to_a_second_claim_reuses_its_source(
    curator: Curator, kb_dir: Path
) -> None:
    curator.promote(
        STILL_4K.id, claim="checkpoint-cadence", stance=Stance.SUPPORTS, strength=Strength.DIRECT
    )
    second = curator.promote(
        STILL_4K.id, claim="run-current", stance=Stance.SUPPORTS, strength=Strength.INDIRECT
    )

    assert not second.new_source
    assert (kb_dir / "sources.toml").read_text().count('id = "gh-8506-c3380012345"') == 1
    assert second.signal.review == (
        "checkpoint-cadence supports direct via source gh-8506-c3380012345; "
        "run-current supports indirect via source gh-8506-c3380012345"
    )


def test_linking_the_same_record_to_the_same_claim_twice_is_refused(
    curator: Curator, kb_dir: Path
) -> None:
    curator.promote(
        STILL_4K.id, claim="checkpoint-cadence", stance=Stance.SUPPORTS, strength=Strength.DIRECT
    )
    files = snapshot(kb_dir)

    with pytest.raises(CuratorError, match="already linked"):
        curator.promote(
            STILL_4K.id,
            claim="checkpoint-cadence",
            stance=Stance.SUPPORTS,
            strength=Strength.DIRECT,
        )
    assert snapshot(kb_dir) == files


def test_an_unknown_claim_is_refused_with_a_suggestion_and_nothing_is_written(
    curator: Curator, kb_dir: Path
) -> None:
    files = snapshot(kb_dir)

    with pytest.raises(
        CuratorError, match="no claim 'context-not-extnded'.*did you mean context-not-extended"
    ):
        curator.promote(
            STILL_4K.id,
            claim="context-not-extnded",
            stance=Stance.SUPPORTS,
            strength=Strength.DIRECT,
        )

    assert snapshot(kb_dir) == files
    assert curator.find(STILL_4K.id).state is SignalState.NEW


def test_when_kb_check_fails_after_writing_both_files_are_rolled_back(
    store: SQLiteSignalStore, kb_dir: Path
) -> None:
    from_the_future = replace(STILL_4K, id="gh-8506-c9", date=NOW + dt.timedelta(days=3))
    store.record_poll(WatchState(STILL_4K.watched), [from_the_future])
    curator = Curator(store, kb_dir, clock=lambda: NOW)
    files = snapshot(kb_dir)

    with pytest.raises(CuratorError, match="(?s)rolled back; kb check failed:.*is in the future"):
        curator.promote(
            "gh-8506-c9", claim="run-current", stance=Stance.SUPPORTS, strength=Strength.DIRECT
        )

    assert snapshot(kb_dir) == files
    assert curator.find("gh-8506-c9").state is SignalState.NEW


def test_a_knowledge_base_that_is_already_broken_is_not_touched(
    curator: Curator, kb_dir: Path
) -> None:
    (kb_dir / "claims.toml").write_text(
        (kb_dir / "claims.toml").read_text() + "\n[[claim]]\nid = 'x'\n"
    )
    files = snapshot(kb_dir)

    with pytest.raises(CuratorError, match="already has .* problem"):
        curator.promote(
            STILL_4K.id, claim="run-current", stance=Stance.SUPPORTS, strength=Strength.DIRECT
        )
    assert snapshot(kb_dir) == files


@pytest.fixture
def read_only(kb_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The knowledge files as the Docker image's user sees a root-owned site-packages: not
    writable. (Tests may run as root, which ignores file modes, so opening a file without
    write permission for writing is refused here as the kernel would refuse a plain user.)"""
    for f in kb_dir.glob("*.toml"):
        f.chmod(0o444)
    real_open = Path.open

    def open_as_a_user(path: Path, mode: str = "r", *args: Any, **kwargs: Any) -> IO[Any]:
        if set(mode) & set("wax+") and not path.stat().st_mode & stat.S_IWUSR:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_as_a_user)
    return kb_dir


def test_read_only_knowledge_files_are_refused_in_one_line_and_left_unchanged(
    curator: Curator, read_only: Path
) -> None:
    files = snapshot(read_only)

    with pytest.raises(CuratorError) as refused:
        curator.promote(
            STILL_4K.id,
            claim="checkpoint-cadence",
            stance=Stance.SUPPORTS,
            strength=Strength.DIRECT,
        )

    message = str(refused.value)
    assert message.startswith(f"cannot update {read_only / 'evidence.toml'}: Permission denied")
    assert "point MARIN_WATCH_KB_DIR at a writable checkout" in message and "\n" not in message
    assert snapshot(read_only) == files
    assert curator.find(STILL_4K.id).state is SignalState.NEW


def test_when_only_the_second_file_is_read_only_the_first_is_not_touched_either(
    curator: Curator, read_only: Path
) -> None:
    (read_only / "evidence.toml").chmod(0o644)  # sources.toml, opened second, stays read-only
    files = snapshot(read_only)

    with pytest.raises(CuratorError, match=r"cannot update .*sources\.toml: Permission denied"):
        curator.promote(
            STILL_4K.id,
            claim="checkpoint-cadence",
            stance=Stance.SUPPORTS,
            strength=Strength.DIRECT,
        )
    assert snapshot(read_only) == files


def test_a_newer_record_on_a_dated_status_claim_is_promoted_with_a_warning(
    curator: Curator, store: SQLiteSignalStore, kb_dir: Path
) -> None:
    """progress-latest says "the latest entry (2026-10-03) ... step 198,000". A comment from
    November saying "step 310,000" can be linked, but the statement would still say 198,000:
    the curator is told to add a new claim in the same pull request."""
    newer = replace(
        STILL_4K,
        id="gh-8506-c3390000000",
        url="https://github.com/marin-community/marin/issues/8506#issuecomment-3390000000",
        excerpt="Now at step 310,000 / 390,251.",
        claims=("run-current",),
    )
    store.record_poll(WatchState(STILL_4K.watched), [newer])

    done = curator.promote(
        newer.id, claim="run-current", stance=Stance.SUPPORTS, strength=Strength.DIRECT
    )

    assert newer.id in {x.source for x in load(kb_dir, today=NOW.date()).links}  # it worked
    assert done.warnings == (
        "claim run-current is a status snapshot: its statement describes 2026-10-09, and "
        "this record is from 2026-11-28. Linking it does not change what the answer says; add "
        "a new claim (or update the statement and as_of) in the same pull request",
    )


def test_a_claim_without_a_date_takes_a_new_record_without_a_warning(curator: Curator) -> None:
    done = curator.promote(
        STILL_4K.id,
        claim="pretraining-not-finished",
        stance=Stance.SUPPORTS,
        strength=Strength.INDIRECT,
    )
    assert done.warnings == ()


def test_text_from_the_web_is_escaped_into_valid_toml() -> None:
    nasty = 'He said "step 1\\2"\nthen\ttabbed \x07 and \x7f — 中文 ]] [[source]]'
    assert tomllib.loads(f"v = {toml_string(nasty)}")["v"] == nasty


def test_a_signal_can_be_dismissed_once_and_a_promoted_one_not_at_all(curator: Curator) -> None:
    dismissed = curator.dismiss(STILL_4K.id, reason="duplicate of the 11-28 handoff")
    assert (dismissed.state, dismissed.review) == (
        SignalState.DISMISSED,
        "duplicate of the 11-28 handoff",
    )
    with pytest.raises(CuratorError, match="already dismissed"):
        curator.dismiss(STILL_4K.id)

    curator.promote(
        STILL_4K.id, claim="checkpoint-cadence", stance=Stance.SUPPORTS, strength=Strength.DIRECT
    )
    with pytest.raises(CuratorError, match="was promoted .* remove its link from evidence.toml"):
        curator.dismiss(STILL_4K.id)


def test_an_unknown_or_ambiguous_id_is_explained(
    curator: Curator, store: SQLiteSignalStore
) -> None:
    store.record_poll(WatchState(STILL_4K.watched), [replace(STILL_4K, id="gh-8506-c4")])
    with pytest.raises(CuratorError, match="no signal 'nope'"):
        curator.find("nope")
    with pytest.raises(
        CuratorError, match="matches several signals: gh-8506-c3380012345, gh-8506-c4"
    ):
        curator.find("gh-8506-c")
