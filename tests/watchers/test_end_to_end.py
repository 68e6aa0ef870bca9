"""A new entry in the run's status log, from the watcher to the digest, through the console.

The story: marin-watch is installed and watches its sources (a baseline: nothing queued).
The team posts a new comment on #8506. The next watch cycle finds it and queues a signal that
may bear on the context-length claim. A curator reads it, promotes it with the CLI, and the
knowledge files in a copy of the knowledge directory gain a source and a link; the claim goes
from single source to confirmed, kb check passes, and the next digest says so and why.
"""

from __future__ import annotations

import datetime as dt

import pytest

from bot.config import Settings
from bot.context import AppContext
from tests.watchers import payloads as p
from tests.watchers.conftest import Clock
from tests.watchers.console import marin_watch
from tests.watchers.internet import marin_internet
from tests.watchers.web import Web

NEW_ENTRY = (
    "Handoff: `hero-main-step262k` is up on 11 racks, now at step 262,000 / 390,251. "
    "Still on 4k context: the 4k→8k extension has not started yet (see #9615)."
)


def test_a_new_status_log_entry_becomes_evidence_only_when_a_curator_promotes_it(
    settings: Settings, web: Web, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = Clock()
    marin = marin_internet(web)
    ctx = AppContext(settings, clock=clock)

    # Installed: the first cycle records what exists and queues nothing.
    assert marin_watch(ctx, "watch", "--once", client=web.client()) == 0
    out = capsys.readouterr().out
    assert "13 sources, 0 new signal(s), 13 request(s)" in out
    assert "baseline      comments on marin-community/marin#8506" in out
    assert marin_watch(ctx, "signals", "list") == 0
    assert capsys.readouterr().out == "no new signals\n"

    # The team posts on the status log; the next cycle finds it.
    clock.advance(minutes=15)
    marin[p.COMMENTS_8506].set([p.comment(3380012345, NEW_ENTRY, "2026-11-30T09:07:41Z")])
    assert marin_watch(ctx, "watch", "--once", client=web.client()) == 0
    out = capsys.readouterr().out
    assert "1 new signal(s)" in out
    assert "gh-8506-c3380012345  2026-11-30  GitHub issue #8506 comment by rjpower" in out
    assert "context-not-extended" in out

    # Still only a signal: the claim has not moved.
    assert ctx.kb.assessment("context-not-extended").level == "no-record"

    # The curator reads it ...
    assert marin_watch(ctx, "signals", "show", "gh-8506-c3380012345") == 0
    out = capsys.readouterr().out
    assert "may bear on: context-not-extended (now no record found)" in out
    assert "Still on 4k context" in out

    # ... and promotes it.
    code = marin_watch(
        ctx,
        "signals",
        "promote",
        "gh-8506-c3380012345",
        "--claim",
        "context-not-extended",
        "--stance",
        "supports",
        "--strength",
        "indirect",
        "--quote",
        "Still on 4k context: the 4k→8k extension has not started yet",
    )
    assert code == 0
    assert capsys.readouterr().out.splitlines() == [
        "promoted gh-8506-c3380012345: appended source gh-8506-c3380012345 to sources.toml "
        "and a link to evidence.toml",
        "  context-not-extended: still no record found",
        "  kb check passed; review the change in a pull request",
    ]

    # A fresh process reads the files: the evidence, kb check and the next digest show it.
    later = AppContext(settings, clock=clock)
    a = later.kb.assessment("context-not-extended")
    # An absence is checked against records, never stated by one: the new record is what it
    # was checked up to, and the answer's date moves with it.
    assert a.level == "no-record"
    assert "gh-8506-c3380012345" in a.weaker
    assert later.kb.newest_published() == dt.date(2026, 11, 30)
    assert marin_watch(later, "kb", "check") == 0
    assert capsys.readouterr().out.startswith("knowledge base OK")
    assert marin_watch(later, "digest") == 0
    out = capsys.readouterr().out
    assert "Latest evidence changes, on 2026-11-30" in out
    assert "GitHub issue #8506 comment by rjpower" in out

    # And the queue is empty again.
    assert marin_watch(later, "signals", "list") == 0
    assert capsys.readouterr().out == "no new signals\n"
