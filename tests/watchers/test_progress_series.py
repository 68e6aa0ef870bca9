"""Progress from the watchers: a status-log comment with a step becomes a point of the series.

The story: the team posts "now at step 262,000" on #8506. The watcher queues it as a signal
bearing on the progress series; `signals show` offers `--step 262000`; the curator promotes it;
the progress answer and the digest move from the 2026-10-09 handoff to the new step. And a
fresh install does not bury in its baseline what is newer than the knowledge base.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from bot.context import AppContext
from tests.watchers import payloads as p
from tests.watchers.conftest import Clock
from tests.watchers.console import marin_watch
from tests.watchers.internet import marin_internet, status_log_history
from tests.watchers.web import Web

NEW_STEP = "Handoff done: hero-mfu30-step231k is healthy, now at step 262,000 / 390,251."


def installed_then_posted(settings: Settings, web: Web, clock: Clock, comment: int) -> AppContext:
    """Watch once (the baseline), then the team posts NEW_STEP and the next cycle finds it."""
    marin = marin_internet(web)
    ctx = AppContext(settings, clock=clock)
    assert marin_watch(ctx, "watch", "--once", client=web.client()) == 0
    clock.advance(minutes=15)
    marin[p.COMMENTS_8506].set([p.comment(comment, NEW_STEP, "2026-11-30T09:07:41Z")])
    assert marin_watch(ctx, "watch", "--once", client=web.client()) == 0
    return ctx


def test_a_new_step_on_the_status_log_moves_the_progress_answer_once_promoted(
    settings: Settings, web: Web, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = Clock()
    ctx = installed_then_posted(settings, web, clock, 3390000001)
    assert "1 new signal(s)" in capsys.readouterr().out

    # Still a signal: the answer has not moved.
    assert "step 231,464" in ctx.core.ask("how far along is it?").body

    assert marin_watch(ctx, "signals", "show", "gh-8506-c3390000001") == 0
    out = capsys.readouterr().out
    assert "may bear on: the progress series; newest step 231,464 on 2026-10-09" in out
    assert "marin-watch signals promote gh-8506-c3390000001 --step 262000" in out

    code = marin_watch(ctx, "signals", "promote", "gh-8506-c3390000001", "--step", "262000")
    assert code == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        "promoted gh-8506-c3390000001: appended source gh-8506-c3390000001 to sources.toml and "
        "an observation to progress.toml",
        "  progress: step 231,464 (2026-10-09) → step 262,000 (2026-11-30) of 390,251",
    ]

    later = AppContext(settings, clock=clock)
    answer = later.core.ask("how far along is it?")
    assert "Newest record: 2026-11-30: step 262,000 of the 390,251 scheduled steps" in answer.body
    assert "67.1%" in answer.body  # 262,000 / 390,251, labelled as arithmetic
    assert marin_watch(later, "digest") == 0
    # (the knowledge files learned 2026-10-09's handoff the same day, so the day's digest
    # moves from the step it knew the day before)
    assert (
        "Progress: step 197,637 (2026-10-03) → step 262,000 (2026-11-30) of 390,251, from "
        "GitHub issue #8506 comment by rjpower." in capsys.readouterr().out
    )


def test_a_step_the_record_does_not_give_is_refused_and_nothing_changes(
    settings: Settings, web: Web, capsys: pytest.CaptureFixture[str]
) -> None:
    ctx = installed_then_posted(settings, web, Clock(), 3390000002)
    files = {f.name: f.read_bytes() for f in sorted(Path(str(settings.kb_dir)).glob("*.toml"))}

    from knowledge.errors import CuratorError

    with pytest.raises(CuratorError, match="does not give step 263,000 in its words"):
        marin_watch(ctx, "signals", "promote", "gh-8506-c3390000002", "--step", "263000")
    after = {f.name: f.read_bytes() for f in sorted(Path(str(settings.kb_dir)).glob("*.toml"))}
    assert after == files


def test_a_fresh_install_queues_what_is_newer_than_the_knowledge_base(
    settings: Settings, web: Web, capsys: pytest.CaptureFixture[str]
) -> None:
    marin = marin_internet(web)
    history = status_log_history(3)  # comments of early October: the KB holds that period
    newer = p.comment(3390000003, NEW_STEP, "2026-11-20T12:00:00Z")
    marin[p.COMMENTS_8506].set([*history, newer])
    ctx = AppContext(settings, clock=Clock())

    assert marin_watch(ctx, "watch", "--once", client=web.client()) == 0
    capsys.readouterr()
    assert marin_watch(ctx, "signals", "list") == 0
    queued = capsys.readouterr().out.splitlines()
    assert queued[0].startswith("gh-8506-c3390000003  2026-11-20  new")
    assert not any("c33000000" in line for line in queued)  # the older ones: baseline
