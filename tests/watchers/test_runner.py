"""A watch cycle over every configured source: baseline, isolation, backoff, politeness."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import pytest

from bot.store.signals import SQLiteSignalStore
from bot.watchers.cycle import Backoff, WatchRunner
from bot.watchers.loop import build_runner
from knowledge.knowledge_base import KnowledgeBase
from tests.watchers import payloads as p
from tests.watchers.conftest import Clock
from tests.watchers.internet import marin_internet, status_log_history
from tests.watchers.web import Web, rate_limited_github, server_error


@pytest.fixture
async def runner(
    web: Web, store: SQLiteSignalStore, clock: Clock, kb: KnowledgeBase
) -> AsyncIterator[WatchRunner]:
    async with web.client() as client:
        yield build_runner(kb, store, client, clock=clock)


async def test_a_fresh_install_records_a_baseline_and_queues_nothing(
    runner: WatchRunner, web: Web, store: SQLiteSignalStore
) -> None:
    marin = marin_internet(web)
    marin[p.COMMENTS_8506].set(status_log_history(40))  # comments since "now": clock skew, edits

    report = await runner.run_once()

    assert len(report.sources) == 13
    assert {r.outcome.value for r in report.sources} == {"baseline"}
    assert report.new_signals == []
    assert store.signals() == []  # the queue is empty ...
    assert len(store.signals(states=None)) > 40  # ... but what exists is remembered
    assert report.requests == 13


async def test_each_url_is_fetched_once_a_cycle_and_unchanged_sources_answer_304(
    runner: WatchRunner, web: Web, clock: Clock
) -> None:
    marin_internet(web)
    await runner.run_once()
    clock.advance(minutes=15)

    report = await runner.run_once()

    assert report.requests == 13
    not_modified = [r.label for r in report.sources if r.outcome.value == "not modified"]
    assert len(not_modified) == 13


async def test_one_source_failing_does_not_stop_the_others(
    runner: WatchRunner, web: Web, clock: Clock
) -> None:
    marin = marin_internet(web)
    await runner.run_once()
    clock.advance(minutes=15)
    web.on(p.HF_MODELS, server_error)
    marin[p.COMMENTS_8506].set(
        [p.comment(42, "Now at step 301,000; cooldown begins.", "2026-11-30T09:10:00Z")]
    )

    report = await runner.run_once()

    by_url = {r.url: r for r in report.sources}
    assert by_url[p.HF_MODELS].outcome.value == "failed"
    assert [s.id for s in report.new_signals] == ["gh-8506-c42"]


async def test_errors_back_a_source_off_exponentially_and_a_success_resets_it(
    web: Web, store: SQLiteSignalStore, clock: Clock, kb: KnowledgeBase
) -> None:
    marin_internet(web)
    web.on(p.HF_MODELS, server_error)
    async with web.client() as client:
        runner = build_runner(kb, store, client, clock=clock, backoff=Backoff())
        waits = []
        for _ in range(5):
            report = await runner.run_once(force=True)
            [hf] = [r for r in report.sources if r.url == p.HF_MODELS]
            assert hf.until is not None
            waits.append(hf.until - clock.now)
            clock.advance(minutes=1)
        assert waits == [dt.timedelta(minutes=m) for m in (5, 10, 20, 40, 80)]

        web.serve(p.HF_MODELS, [])
        await runner.run_once(force=True)
        state = store.source_state(p.HF_MODELS)
        assert (state.failures, state.next_attempt_at, state.last_error) == (0, None, None)


async def test_backoff_never_exceeds_six_hours() -> None:
    assert Backoff().after(30) == dt.timedelta(hours=6)


async def test_force_polls_a_source_that_is_backing_off(
    runner: WatchRunner, web: Web, clock: Clock
) -> None:
    marin_internet(web)
    await runner.run_once()
    web.on(p.HF_MODELS, server_error)
    await runner.run_once()
    web.serve(p.HF_MODELS, [])

    skipped = await runner.run_once()
    forced = await runner.run_once(force=True)

    assert {r.url: r.outcome.value for r in skipped.sources}[p.HF_MODELS] == "backing off"
    assert {r.url: r.outcome.value for r in forced.sources}[p.HF_MODELS] != "backing off"


async def test_a_github_rate_limit_spares_the_other_hosts(
    runner: WatchRunner, web: Web, clock: Clock
) -> None:
    marin_internet(web)
    await runner.run_once()
    clock.advance(minutes=15)
    reset = clock.now.replace(microsecond=0) + dt.timedelta(minutes=20)
    for url in (
        p.COMMENTS_8506,
        p.COMMITS_CURRENT_RUN,
        p.COMMITS_LADDER,
        p.COMMITS_ALL,
        p.SEARCH,
        p.COMMITS_REPORTS,
    ):
        web.on(url, rate_limited_github(reset))

    before = len(web.requests)
    report = await runner.run_once()

    outcomes = {r.url: r.outcome.value for r in report.sources}
    assert {outcomes[u] for u in outcomes if "api.github.com" in u} == {"rate limited"}
    assert {outcomes[u] for u in outcomes if "api.github.com" not in u} == {"not modified"}
    github_requests = [r for r in web.requests[before:] if r.url.host == "api.github.com"]
    assert len(github_requests) == 1  # the first 403 holds the host for the rest of the cycle


async def test_the_same_record_found_twice_is_one_signal(
    runner: WatchRunner, web: Web, clock: Clock, store: SQLiteSignalStore
) -> None:
    marin = marin_internet(web)
    await runner.run_once()
    clock.advance(minutes=15)
    new = p.hf_model("marin-community/marin-535b-a23b-base", "2026-11-30T09:05:00.000Z")
    marin[p.HF_MODELS].set([new])
    first = await runner.run_once()
    clock.advance(minutes=15)
    marin[p.HF_MODELS].set(
        [new, p.hf_model("marin-community/marin-8b-base", "2025-05-19T18:00:00.000Z")]
    )
    second = await runner.run_once()

    assert [s.id for s in first.new_signals] == ["hf-marin-community-marin-535b-a23b-base"]
    assert second.new_signals == []
    assert [s.id for s in store.signals()] == ["hf-marin-community-marin-535b-a23b-base"]
