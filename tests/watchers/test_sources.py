"""Each source, told as a story: a baseline, then something new appears, then nothing changes."""

from __future__ import annotations

import datetime as dt
import json

from bot.watchers.fetch import Fetched
from bot.watchers.github_comments import IssueCommentsWatcher
from tests.watchers import payloads as p
from tests.watchers.conftest import Clock, Watch
from tests.watchers.web import Web


async def test_a_new_status_log_comment_with_a_step_number_bears_on_progress(
    watch: Watch, web: Web, clock: Clock
) -> None:
    thread = web.serve(p.COMMENTS_8506, [])
    w = watch(p.COMMENTS_8506)
    await w.baseline()
    assert web.requests[-1].url.params["since"] == "2026-11-30T09:00:00Z"  # history is baseline

    clock.advance(minutes=15)
    thread.set(
        [
            p.comment(
                3380012345,
                "Update: now at step 230,112 / 390,251. MFU steady at 26.4%. "
                "Next permanent checkpoint at step-234000.",
                "2026-11-30T09:07:41Z",
            )
        ]
    )
    report = await w.cycle()

    [signal] = report.new_signals
    assert signal.id == "gh-8506-c3380012345"
    assert signal.url.endswith("/issues/8506#issuecomment-3380012345")
    assert signal.title == "GitHub issue #8506 comment by rjpower"
    assert "step 230,112" in signal.excerpt
    assert "progress" in signal.claims
    assert "curves-and-checkpoints" in signal.watch_points
    assert str(signal.kind) == "status-log"
    assert w.store.signal(signal.id) == signal


async def test_the_cursor_advances_and_an_unchanged_thread_costs_a_free_304(
    watch: Watch, web: Web, clock: Clock
) -> None:
    thread = web.serve(p.COMMENTS_8506, [])
    w = watch(p.COMMENTS_8506)
    await w.baseline()
    clock.advance(minutes=15)
    thread.set([p.comment(1, "Restarted from step 240,000.", "2026-11-30T09:10:00Z")])
    await w.cycle()

    clock.advance(minutes=15)
    moved = await w.cycle()  # the first poll from the new cursor is a new URL: a full answer
    clock.advance(minutes=15)
    report = await w.cycle()

    assert moved.sources[0].outcome.value == "nothing new"
    assert report.sources[0].outcome.value == "not modified"
    assert web.requests[-1].url.params["since"] == "2026-11-30T09:10:00Z"
    assert web.requests[-1].headers["if-none-match"] == thread.etag
    assert report.new_signals == []


async def test_an_edited_comment_is_not_a_second_signal(
    watch: Watch, web: Web, clock: Clock
) -> None:
    thread = web.serve(p.COMMENTS_8506, [])
    w = watch(p.COMMENTS_8506)
    await w.baseline()
    clock.advance(minutes=15)
    thread.set([p.comment(7, "Stall at step 250,100.", "2026-11-30T09:05:00Z")])
    assert len((await w.cycle()).new_signals) == 1

    clock.advance(minutes=15)
    thread.set(
        [
            p.comment(
                7,
                "Stall at step 250,100 (resolved).",
                "2026-11-30T09:05:00Z",
                updated="2026-11-30T09:20:00Z",
            )
        ]
    )
    report = await w.cycle()

    assert report.sources[0].outcome.value == "nothing new"
    assert report.new_signals == []


async def test_the_plan_issue_8435_is_watched_the_same_way(
    watch: Watch, web: Web, clock: Clock
) -> None:
    thread = web.serve(p.COMMENTS_8435, [])
    w = watch(p.COMMENTS_8435)
    await w.baseline()
    clock.advance(minutes=15)
    thread.set(
        [
            p.comment(
                3400000001,
                "Context extension 4k→8k will start at ~50% as planned.",
                "2026-11-30T09:12:00Z",
                issue=8435,
                login="ClassicLarry",
            )
        ]
    )

    [signal] = (await w.cycle()).new_signals

    assert signal.id == "gh-8435-c3400000001"
    assert signal.publisher == "ClassicLarry on GitHub (marin-community/marin#8435)"


async def test_a_commit_touching_the_current_run_file_is_found(
    watch: Watch, web: Web, clock: Clock
) -> None:
    history = [
        p.commit("Point CURRENT_HERO_RUN_ID at hero-main-step121638", "2026-09-18T20:00:00Z"),
        p.commit("Add hero run config", "2026-08-19T12:00:00Z"),
    ]
    commits = web.serve(p.COMMITS_CURRENT_RUN, history)
    w = watch(p.COMMITS_CURRENT_RUN)
    baseline = await w.baseline()
    assert len(baseline.sources[0].signals) == 2  # recorded, not queued
    assert w.store.signals() == []

    clock.advance(minutes=15)
    new = p.commit(
        "Resume hero run from step 262000 after checkpoint restore", "2026-11-30T09:03:00Z"
    )
    commits.set([new, *history])
    [signal] = (await w.cycle()).new_signals

    assert signal.id == f"gh-commit-{new['sha'][:12]}"
    assert signal.title.startswith(
        f"Commit {new['sha'][:7]} (experiments/grug/moe_hero_ep/current_run.py): Resume"
    )
    assert "progress" in signal.claims
    assert web.requests[-1].url.params["path"] == "experiments/grug/moe_hero_ep/current_run.py"

    clock.advance(minutes=15)
    assert (await w.cycle()).sources[0].outcome.value == "not modified"


async def test_every_commit_is_a_firehose_so_only_those_naming_the_run_are_kept(
    watch: Watch, web: Web, clock: Clock
) -> None:
    commits = web.serve(p.COMMITS_ALL, [p.commit("Bump ruff", "2026-11-28T10:00:00Z")])
    w = watch(p.COMMITS_ALL)
    await w.baseline()

    clock.advance(minutes=15)
    commits.set(
        [
            p.commit("Fix docs typo", "2026-11-30T09:01:00Z"),
            p.commit("[infra] Pin NCCL for the GB200 hero racks", "2026-11-30T09:02:00Z"),
            p.commit("Speed up tokenizer tests", "2026-11-30T09:03:00Z"),
        ]
    )
    [signal] = (await w.cycle()).new_signals

    assert "GB200" in signal.title
    assert "infra-for-hero" in signal.watch_points
    assert "infra-moe-stack" in signal.claims


async def test_a_new_issue_naming_the_run_is_found_through_search(
    watch: Watch, web: Web, clock: Clock
) -> None:
    results = web.serve(
        p.SEARCH, p.search(p.issue(8506, "Hero Run / Ongoing Status", "2026-08-20T01:00:00Z"))
    )
    w = watch(p.SEARCH)
    await w.baseline()

    clock.advance(minutes=15)
    results.set(
        p.search(
            p.issue(
                10422,
                "[Hero Run] Midtraining data mixture for 535B-A23B",
                "2026-11-30T09:04:00Z",
                body="Plan for the pretraining → midtraining boundary at step 312,192.",
            ),
            p.issue(10419, "Hero: checkpoint converter", "2026-11-30T08:58:00Z", pr=True),
            p.issue(8506, "Hero Run / Ongoing Status", "2026-08-20T01:00:00Z"),
        )
    )
    found = (await w.cycle()).new_signals

    assert [s.id for s in found] == ["gh-issue-10422", "gh-pr-10419"]
    assert (
        found[0].title == "GitHub issue #10422: [Hero Run] Midtraining data mixture for 535B-A23B"
    )
    assert found[1].url == "https://github.com/marin-community/marin/pull/10419"
    assert (
        web.requests[-1].url.params["q"]
        == "repo:marin-community/marin 535B OR A23B OR hero OR GB200"
    )
    assert web.requests[-1].url.params["sort"] == "created"


async def test_a_new_model_from_marin_community_bears_on_the_release_claim(
    watch: Watch, web: Web, clock: Clock
) -> None:
    models = web.serve(
        p.HF_MODELS, [p.hf_model("marin-community/marin-8b-base", "2025-05-19T18:00:00.000Z")]
    )
    w = watch(p.HF_MODELS)
    await w.baseline()

    clock.advance(minutes=15)
    models.set(
        [
            p.hf_model("marin-community/marin-535b-a23b-base", "2026-11-30T09:05:12.000Z"),
            p.hf_model("marin-community/marin-8b-base", "2025-05-19T18:00:00.000Z"),
        ]
    )
    [signal] = (await w.cycle()).new_signals

    assert signal.id == "hf-marin-community-marin-535b-a23b-base"
    assert signal.url == "https://huggingface.co/marin-community/marin-535b-a23b-base"
    assert str(signal.kind) == "model-card"
    assert "model-not-released" in signal.claims
    assert web.requests[-1].url.params["author"] == "marin-community"

    clock.advance(minutes=15)
    assert (await w.cycle()).sources[0].outcome.value == "not modified"


async def test_the_wandb_report_changes_only_when_its_words_change(
    watch: Watch, web: Web, clock: Clock
) -> None:
    page = web.serve(
        p.WANDB_REPORT, p.wandb_page("Last updated: October 3, 2026", "Loss 1.91 at step 147,000")
    )
    w = watch(p.WANDB_REPORT)
    await w.baseline()

    clock.advance(minutes=15)  # a redeploy: new build hashes in scripts and styles, same words
    page.set(
        p.wandb_page("Last updated: October 3, 2026", "Loss 1.91 at step 147,000", build="d4e5f6")
    )
    assert (await w.cycle()).sources[0].outcome.value == "nothing new"

    clock.advance(minutes=15)
    page.set(
        p.wandb_page(
            "Last updated: November 28, 2026",
            "Loss 1.91 at step 147,000",
            "Loss 1.83 at step 300,000",
            build="d4e5f6",
        )
    )
    [signal] = (await w.cycle()).new_signals

    assert (
        signal.excerpt == "Last updated: November 28, 2026 Loss 1.83 at step 300,000"
    )  # only what was added
    assert signal.title.endswith("(page changed)")
    assert str(signal.kind) == "tracking-report"
    assert "eval-loss-147k" in signal.claims or "progress" in signal.claims


async def test_a_new_post_in_the_atom_feed_is_found(watch: Watch, web: Web, clock: Clock) -> None:
    feed_url = "https://openathena.ai/blog/feed.xml"
    feed = web.serve(
        feed_url,
        p.atom_feed(("delphi", "Delphi", "2026-06-01T00:00:00Z", "<p>Scaling suite.</p>")),
        content_type="application/atom+xml",
    )
    w = watch(feed_url)
    await w.baseline()

    clock.advance(minutes=15)
    feed.set(
        p.atom_feed(
            (
                "marin-535b-pretraining-done",
                "Marin 535B finishes pretraining",
                "2026-11-30T08:00:00Z",
                "<p>The <b>535B-A23B</b> hero run reached step 390,251.</p>",
            ),
            ("delphi", "Delphi", "2026-06-01T00:00:00Z", "<p>Scaling suite.</p>"),
        )
    )
    [signal] = (await w.cycle()).new_signals

    assert signal.id == "openathena.ai-marin-535b-pretraining-done"
    assert signal.url == "https://openathena.ai/blog/marin-535b-pretraining-done/"
    assert (
        signal.excerpt
        == "Marin 535B finishes pretraining The 535B-A23B hero run reached step 390,251."
    )
    assert str(signal.kind) == "blog"
    assert "non-x-announcement" in signal.watch_points
    assert "pretraining-not-finished" in signal.claims


async def test_an_rss_feed_reads_the_same(watch: Watch, web: Web, clock: Clock) -> None:
    feed_url = "https://openathena.ai/blog/rss.xml"
    feed = web.serve(feed_url, p.rss_feed(), content_type="application/rss+xml")
    w = watch(feed_url)
    await w.baseline()

    clock.advance(minutes=15)
    feed.set(
        p.rss_feed(
            (
                "marin-535b-launch-note",
                "Marin 535B launch note",
                "Thu, 03 Sep 2026 16:00:00 GMT",
                "<p>We launched the hero run on 11 GB200 NVL72 racks.</p>",
            )
        )
    )
    [signal] = (await w.cycle()).new_signals

    assert signal.publisher == "David Hall"
    assert signal.date.isoformat() == "2026-09-03T16:00:00+00:00"


async def test_the_blog_index_page_yields_its_posts_not_its_navigation(
    watch: Watch, web: Web, clock: Clock
) -> None:
    index = web.serve(p.BLOG, p.blog_index(("delphi", "Delphi: an open scaling suite")))
    w = watch(p.BLOG)
    baseline = await w.baseline()
    assert [s.id for s in baseline.sources[0].signals] == ["openathena.ai-delphi"]

    clock.advance(minutes=15)
    index.set(
        p.blog_index(
            ("marin-535b-midtraining", "Marin 535B-A23B enters midtraining"),
            ("delphi", "Delphi: an open scaling suite"),
        )
    )
    [signal] = (await w.cycle()).new_signals

    assert signal.title == "Marin 535B-A23B enters midtraining"
    assert signal.url == "https://openathena.ai/blog/marin-535b-midtraining/"


def test_a_comment_dated_in_the_far_future_cannot_poison_the_cursor() -> None:
    now = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
    watcher = IssueCommentsWatcher.from_url(p.COMMENTS_8506)
    assert watcher is not None
    body = [p.comment(3399999999, "hello from the future", "9999-12-31T23:59:59Z")]
    fetched = Fetched(
        url=p.COMMENTS_8506,
        status=200,
        body=json.dumps(body).encode(),
        etag=None,
        last_modified=None,
        server_date=None,
        content_type="application/json",
    )
    poll = watcher.parse(fetched, None, now)
    # the next poll still asks for what is new since about now, not since the year 9999
    assert poll.cursor == "2026-11-30T09:05:00Z"
