"""The digest: what changed in the evidence, derived from the knowledge base, in zh and en."""

from __future__ import annotations

import argparse
import datetime as dt
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from answers.render import Renderer
from bot.commands import digest as digest_command
from bot.commands import subscriptions as subscriptions_command
from bot.config import Settings
from bot.context import AppContext
from bot.digest.builder import DigestService
from bot.digest.changes import ChangeKind, UnreviewedSignal, changes
from bot.digest.window import Window
from bot.store.contract import DeliveryState, Destination, Subscription
from bot.store.sqlite import SQLiteStore
from knowledge.clock import fixed_clock
from knowledge.errors import InputRejected
from knowledge.knowledge_base import KnowledgeBase
from knowledge.loader import load
from knowledge.schema import Claim, EvidenceLink, Level, Source, Text

TODAY = dt.datetime(2026, 9, 20, 12, tzinfo=dt.UTC)
D = dt.date


def source(id: str, kind: str, published: dt.date, relays: str | None = None) -> Source:
    return Source(
        id=id,
        title=f"the {id}",
        kind=kind,
        publisher=f"{id} publisher",
        published=published,
        relays=relays,
    )


def claim(id: str, added: dt.date, en: str, zh: str, kind: str = "status") -> Claim:
    return Claim(id=id, topic=id, kind=kind, statement=Text(en=en, zh=zh), added=added)


def link(
    claim: str, source: str, recorded: dt.date, stance: str = "supports", strength: str = "direct"
) -> EvidenceLink:
    return EvidenceLink(
        claim=claim, source=source, stance=stance, strength=strength, quote="…", recorded=recorded
    )


def story_kb() -> KnowledgeBase:
    """A run announced on X on Aug 21, relayed by the news, confirmed by the status log,
    its token count later contradicted by a blog, and an eval reported in September."""
    sources = [
        source("x-post", "social-post", D(2026, 8, 21)),
        source("news", "news-relay", D(2026, 8, 22), relays="x-post"),
        source("status-log", "status-log", D(2026, 8, 20)),
        source("blog", "blog", D(2026, 9, 5)),
        source("eval-entry", "status-log", D(2026, 9, 9)),
    ]
    claims = [
        claim("started", D(2026, 8, 22), "Training has started.", "训练已经开始。"),
        claim(
            "tokens",
            D(2026, 8, 22),
            "It trains on 18.75T tokens.",
            "训练 18.75T tokens。",
            kind="plan",
        ),
        claim(
            "released",
            D(2026, 8, 22),
            "No record shows the model released.",
            "没有记录显示模型已发布。",
            kind="absence",
        ),
        claim(
            "eval", D(2026, 9, 10), "An eval reports loss 1.9.", "评估损失为 1.9。", kind="result"
        ),
    ]
    links = [
        link("started", "x-post", D(2026, 8, 22)),
        link("tokens", "x-post", D(2026, 8, 22)),
        link("started", "news", D(2026, 8, 23)),  # a relay of the same post: no new record
        link("started", "status-log", D(2026, 8, 25)),  # official: confirmed
        link("released", "status-log", D(2026, 8, 25), strength="context"),
        link("tokens", "blog", D(2026, 9, 6), stance="contradicts"),
        link("eval", "eval-entry", D(2026, 9, 10)),
    ]
    return KnowledgeBase(
        sources={s.id: s for s in sources},
        claims={c.id: c for c in claims},
        links=links,
        watch_points=[],
    )


@pytest.fixture
def kb() -> KnowledgeBase:
    return story_kb()


@pytest.fixture
def digests(kb: KnowledgeBase) -> DigestService:
    return DigestService(kb, Renderer(kb, fixed_clock(TODAY)))


def window(after: dt.date, through: dt.date) -> Window:
    return Window(after=after, through=through)


def test_a_confidence_change_comes_with_its_cause(kb: KnowledgeBase) -> None:
    found = changes(kb, window(D(2026, 8, 22), D(2026, 8, 25)))

    started = found.claims[0]
    assert started.claim == "started" and started.level is Level.CONFIRMED
    move, relay = started.changes  # newest first
    assert (move.kind, move.date, move.before, move.after) == (
        ChangeKind.LEVEL,
        D(2026, 8, 25),
        Level.SINGLE_SOURCE,
        Level.CONFIRMED,
    )
    assert [link.source for link in move.links] == ["status-log"]
    # The relay of the X post adds no record, so it moved nothing: plain evidence.
    assert (relay.kind, relay.date, relay.links[0].source) == (
        ChangeKind.EVIDENCE,
        D(2026, 8, 23),
        "news",
    )
    assert found.new_sources == ("news", "status-log")


def test_a_claims_first_links_are_evidence_not_a_move_from_nothing(kb: KnowledgeBase) -> None:
    found = changes(kb, window(D(2026, 8, 22), D(2026, 8, 25)))
    released = next(g for g in found.claims if g.claim == "released")
    assert [c.kind for c in released.changes] == [ChangeKind.EVIDENCE]
    # an absence's level is "no record found" from the start: its links are what it was
    # checked against, never a record stating it
    assert released.level is Level.NO_RECORD


def test_contradictions_and_new_claims_are_reported(kb: KnowledgeBase) -> None:
    found = changes(kb, window(D(2026, 9, 1), D(2026, 9, 15)))

    assert found.claim_ids == ["eval", "tokens"]  # newest change first
    assert found.contradicted == ["tokens"]
    (disputed,) = found.claims[1].changes
    assert (disputed.before, disputed.after) == (Level.SINGLE_SOURCE, Level.DISPUTED)
    assert [c.kind for c in found.claims[0].changes] == [ChangeKind.NEW_CLAIM, ChangeKind.EVIDENCE]


def test_the_english_digest_reads_newest_first_with_dates_and_sources(
    digests: DigestService,
) -> None:
    reply = digests.build(window(D(2026, 8, 21), D(2026, 9, 15)), lang="en").reply

    assert reply.kind == "digest"
    assert reply.title == "Evidence digest, 2026-08-22 – 2026-09-15"
    text = reply.text
    assert "single source → confirmed, because of the status-log (status log" in text
    assert (
        "single source → disputed, because of the blog (blog post, blog publisher; contradicts)"
    ) in text
    assert (
        "2026-08-23: new direct evidence: the news (a relay of the x-post, not a separate" in text
    )
    assert text.index("An eval reports") < text.index("18.75T") < text.index("Training has")
    assert text.endswith(reply.caveat)


def test_the_chinese_digest_uses_the_fixed_level_words(digests: DigestService) -> None:
    reply = digests.build(window(D(2026, 8, 21), D(2026, 9, 15)), lang="zh").reply

    assert reply.title == "证据变化摘要：2026年8月22日至2026年9月15日"
    assert "2026年8月25日：单一信源 → 已确认，依据：the status-log（状态日志" in reply.text
    assert "单一信源 → 存在矛盾" in reply.text
    assert "知识库新增此论断" in reply.text


def test_each_claim_is_its_own_section_so_adapters_split_between_claims(
    digests: DigestService,
) -> None:
    reply = digests.build(window(D(2026, 8, 21), D(2026, 9, 15)), lang="en").reply

    summary, *entries = reply.sections
    assert summary.startswith("4 claims changed: 2 confidence changes")
    assert len(entries) == 4
    assert all(entry.startswith("■ ") for entry in entries)
    assert "\n\n" not in "".join(entries)


def test_the_claims_used_carry_the_caveat(digests: DigestService) -> None:
    reply = digests.build(window(D(2026, 9, 9), D(2026, 9, 15)), lang="en").reply
    assert [c.id for c in reply.claims] == ["eval"]
    assert "Single source" in reply.caveat and "the eval-entry" in reply.caveat


def test_a_quiet_window_says_so_with_the_newest_evidence_and_its_age(
    digests: DigestService,
) -> None:
    quiet = digests.build(window(D(2026, 9, 10), D(2026, 9, 20)), lang="en")
    assert quiet.quiet
    assert (
        "No change to the evidence 2026-09-11 – 2026-09-20. The newest evidence was recorded on "
        "2026-09-10, 10 days ago." in quiet.reply.text
    )
    zh = digests.build(window(D(2026, 9, 10), D(2026, 9, 20)), lang="zh").reply
    assert "证据没有变化。最新证据记录于2026年9月10日，距今 10 天。" in zh.text


def test_with_no_digest_ever_sent_the_latest_batch_is_shown_however_old(
    digests: DigestService, tmp_path: Path
) -> None:
    with SQLiteStore(tmp_path / "s.sqlite3") as store:
        d = digests.since_last(store, Destination("telegram", "1"), lang="en")

    assert not d.quiet
    assert d.reply.title == "Latest evidence changes, on 2026-09-10"
    assert d.changes.claim_ids == ["eval"]


def test_the_default_window_starts_where_the_last_digest_here_ended(
    digests: DigestService, tmp_path: Path
) -> None:
    here = Destination("discord", "7")
    with SQLiteStore(tmp_path / "s.sqlite3") as store:
        # The daily digest of Aug 26, 09:00 Shanghai, covered the days through Aug 25.
        start, end = (dt.datetime(2026, 8, day, 1, tzinfo=dt.UTC) for day in (25, 26))
        sent = store.begin_delivery(here, start, end, "h", now=TODAY)
        store.finish_delivery(sent.id, DeliveryState.SENT, now=TODAY)

        d = digests.since_last(store, here, lang="en")

    assert d.changes.window == Window(after=D(2026, 8, 25), through=TODAY.date())
    assert d.changes.claim_ids == ["eval", "tokens"]


def test_windows_of_days_and_since_a_date() -> None:
    today = D(2026, 9, 20)
    assert Window.last_days(7, today) == Window(after=D(2026, 9, 13), through=today)
    assert Window.since(D(2026, 9, 1), today) == Window(after=D(2026, 8, 31), through=today)
    assert D(2026, 9, 1) in Window.since(D(2026, 9, 1), today)


def test_a_window_reaching_back_past_the_calendar_starts_at_the_beginning() -> None:
    today = D(2026, 9, 20)
    # Far more days than datetime.date can count back: since the beginning, not a crash.
    assert Window.last_days(99_999_999_999, today) == Window(after=None, through=today)
    assert Window.last_days(800_000, today) == Window(after=None, through=today)
    assert Window.since(dt.date.min, today) == Window(after=None, through=today)
    assert Window.last_days(today.toordinal() - 1, today).after == dt.date.min
    with pytest.raises(InputRejected, match="at least 1 day, not 0"):
        Window.last_days(0, today)


def test_scheduled_windows_report_each_finished_day_exactly_once() -> None:
    # 09:00 Shanghai every day: consecutive windows share no date and leave none out.
    slots = [dt.datetime(2026, 9, day, 1, tzinfo=dt.UTC) for day in range(1, 6)]
    covered = [Window.between(a, b) for a, b in zip(slots, slots[1:], strict=False)]
    days = [D(2026, 8, 31) + dt.timedelta(days=i) for i in range(8)]
    reported = [day for w in covered for day in days if day in w]
    assert reported == [D(2026, 9, 1), D(2026, 9, 2), D(2026, 9, 3), D(2026, 9, 4)]


class Feed:
    def __init__(self, signals: Sequence[UnreviewedSignal]) -> None:
        self.signals = signals

    def unreviewed(self, window: Window) -> Sequence[UnreviewedSignal]:
        return [s for s in self.signals if s.seen in window]


def test_unreviewed_signals_get_their_own_marked_section(kb: KnowledgeBase) -> None:
    signal = UnreviewedSignal(
        id="gh-8506-c1",
        seen=D(2026, 9, 18),
        title="New #8506 comment: step 240,000",
        source="marin-community/marin#8506",
        url="https://github.com/marin-community/marin/issues/8506",
    )
    digests = DigestService(kb, Renderer(kb, fixed_clock(TODAY)), signals=Feed([signal]))

    d = digests.build(window(D(2026, 9, 15), D(2026, 9, 20)), lang="en")

    assert not d.quiet  # something to tell, though no evidence changed
    assert d.changes.claims == ()
    assert "No change to the evidence" in d.reply.text
    assert "Unreviewed signals" in d.reply.text
    assert d.reply.sections[-1].startswith("[unreviewed] 2026-09-18: New #8506 comment")
    assert "[未审核]" in digests.build(window(D(2026, 9, 15), D(2026, 9, 20)), lang="zh").reply.text


def test_the_latest_batch_also_shows_the_signals_seen_since_it_up_to_today(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    # The newest evidence was recorded on Sep 10; the watchers found something on Sep 18.
    newer = UnreviewedSignal(
        id="gh-8506-c2", seen=D(2026, 9, 18), title="New #8506 comment", source="#8506"
    )
    older = UnreviewedSignal(id="old", seen=D(2026, 9, 1), title="old news", source="x")
    digests = DigestService(kb, Renderer(kb, fixed_clock(TODAY)), signals=Feed([newer, older]))

    # "What's new?" in a chat, and `marin-watch digest` with no window:
    latest = digests.recent(lang="en")
    assert latest.changes.window == window(D(2026, 9, 9), D(2026, 9, 10))
    assert [s.id for s in latest.changes.signals] == ["gh-8506-c2"]
    assert latest.reply.sections[-1].startswith("[unreviewed] 2026-09-18: New #8506 comment")

    # A new subscriber's first digest is the same latest batch, with the same signals.
    with SQLiteStore(tmp_path / "s.sqlite3") as store:
        first = digests.since_last(store, Destination("telegram", "9"), lang="zh")
    assert [s.id for s in first.changes.signals] == ["gh-8506-c2"]
    assert "[未审核] 2026年9月18日：New #8506 comment" in first.reply.text

    # As the KB stood on Sep 15, the Sep 18 signal had not been seen yet.
    assert digests.recent(lang="en", as_of=D(2026, 9, 15)).changes.signals == ()


def test_a_chat_sized_digest_shows_the_first_claims_and_says_how_many_more(
    digests: DigestService,
) -> None:
    everything = window(D(2026, 8, 21), D(2026, 9, 15))

    short = digests.build(everything, lang="en", limit=2).reply
    summary, first, second, more = short.sections
    assert summary.startswith("4 claims changed:")  # the count is of every claim
    assert first.startswith("■ An eval reports") and second.startswith(
        "■ Plan: It trains on 18.75T"
    )
    assert more == '…and 2 more claims changed; "/digest since 2026-08-22" shows them all.'
    assert [c.id for c in short.claims] == ["eval", "tokens"]  # the caveat covers what is shown

    zh = digests.build(everything, lang="zh", limit=3).reply
    assert zh.sections[-1] == "……另有 1 条论断有变化；发送“/digest since 2026-08-22”查看全部。"

    # Without a limit (scheduled and /digest digests) nothing is left out.
    whole = digests.build(everything, lang="en").reply
    assert len(whole.sections) == 5 and "more claims changed" not in whole.text
    assert digests.build(everything, lang="en", limit=4).reply.text == whole.text


def test_a_chat_sized_digest_caps_the_unreviewed_signals_too(kb: KnowledgeBase) -> None:
    queue = [
        UnreviewedSignal(id=f"s{i}", seen=D(2026, 9, 18), title=f"signal {i}", source="x")
        for i in range(4)
    ]
    digests = DigestService(kb, Renderer(kb, fixed_clock(TODAY)), signals=Feed(queue))

    reply = digests.recent(lang="en", limit=1).reply

    assert reply.sections[-1].splitlines() == [
        "[unreviewed] 2026-09-18: signal 0 (x)",
        '…and 3 more unreviewed signals; "/digest since 2026-09-10" shows them all.',
    ]
    assert "另有 3 条未审核信号" in digests.recent(lang="zh", limit=1).reply.text


def test_an_empty_knowledge_base_says_it_has_no_evidence() -> None:
    empty = KnowledgeBase(sources={}, claims={}, links=[], watch_points=[])
    d = DigestService(empty, Renderer(empty, fixed_clock(TODAY))).recent(lang="en")
    assert d.quiet and "holds no evidence yet" in d.reply.text


def test_a_past_window_is_rendered_as_the_kb_stood_then(digests: DigestService) -> None:
    reply = digests.build(window(D(2026, 8, 21), D(2026, 8, 25)), lang="en").reply
    assert "as the knowledge base stood on 2026-08-25" in reply.caveat
    assert {c.id: c.level for c in reply.claims}["started"] == "confirmed"


# the real, bundled knowledge base


@pytest.fixture(scope="module")
def bundled() -> DigestService:
    kb = load(today=dt.date(2026, 11, 30))
    return DigestService(kb, Renderer(kb, fixed_clock(dt.datetime(2026, 11, 30, tzinfo=dt.UTC))))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_bundled_kb_always_has_a_latest_batch_to_show(
    bundled: DigestService, lang: str
) -> None:
    d = bundled.recent(lang=lang)
    newest = bundled.kb.newest_recorded()
    assert newest is not None and d.changes.window.through == newest
    assert not d.quiet and d.reply.caveat and d.reply.sections
    for group in d.changes.claims:
        for change in group.changes:
            assert change.date in d.changes.window
            assert all(link.recorded == change.date for link in change.links)


def test_whats_new_in_a_chat_fits_a_few_messages_not_the_whole_batch(
    bundled: DigestService,
) -> None:
    """The bundled KB's newest batch (2026-10-08) changed ~30 claims: about 19,000
    characters, five Telegram messages. The chat answer shows five of them."""
    whole = bundled.recent(lang="en")
    assert len(whole.reply.text) > 15_000
    for lang in ("en", "zh"):
        short = bundled.recent(lang=lang, limit=5).reply
        assert len(short.text) < 5_000  # one or two Telegram messages
        assert sum(section.startswith("■ ") for section in short.sections) == 5
        assert "/digest" in short.sections[-1]


def test_the_bundled_kb_history_replays_level_by_level(bundled: DigestService) -> None:
    """Chaining every confidence move since the start ends at each claim's level today."""
    kb = bundled.kb
    found = changes(kb, Window(after=None, through=dt.date(2026, 11, 30)))
    for group in found.claims:
        moves = [c for c in group.changes if c.kind is ChangeKind.LEVEL]
        if moves:
            assert moves[0].after is kb.assessment(group.claim).level
        for newer, older in zip(moves, moves[1:], strict=False):
            assert newer.before is older.after


# the command line


def run_cli(module: object, argv: list[str], tmp_path: Path) -> int:
    parser = argparse.ArgumentParser()
    module.add_parser(parser.add_subparsers())  # type: ignore[attr-defined]
    args = parser.parse_args(argv)
    ctx = AppContext(
        Settings(db_path=tmp_path / "cli.sqlite3"),
        clock=fixed_clock(dt.datetime(2026, 11, 30, tzinfo=dt.UTC)),
    )
    try:
        return int(args.handler(args, ctx))
    finally:
        ctx.close()


def test_digest_command_prints_the_latest_batch(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run_cli(digest_command, ["digest"], tmp_path) == 0
    out = capsys.readouterr().out
    assert out.startswith("Latest evidence changes, on ")
    assert not (tmp_path / "cli.sqlite3").exists()  # printing a digest records nothing


def test_digest_command_json_has_the_changes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert (
        run_cli(
            digest_command, ["digest", "--since", "2026-08-01", "--lang", "zh", "--json"], tmp_path
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["language"] == "zh" and data["kind"] == "digest"
    assert data["window"] == {"after": "2026-07-31", "through": "2026-11-30"}
    assert {c["kind"] for c in data["changes"]} >= {"level", "evidence", "new-claim"}
    assert data["caveat"] in data["text"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--days", "0"], "--days must be between 1 and 3650, not 0"),
        (["--days", "3651"], "--days must be between 1 and 3650, not 3651"),
        (["--days", "800000"], "--days must be between 1 and 3650, not 800000"),
        (["--days", "99999999999"], "--days must be between 1 and 3650, not 99999999999"),
        (["--since", "2027-01-01"], "--since 2027-01-01 is in the future (today is 2026-11-30)"),
        (["--since", "1999-12-31"], "--since 1999-12-31 is before 2000-01-01"),
        (["--since", "0001-01-01"], "--since 0001-01-01 is before 2000-01-01"),
    ],
)
def test_digest_command_refuses_a_bad_window_in_one_line(
    argv: list[str], message: str, tmp_path: Path
) -> None:
    with pytest.raises(InputRejected) as refused:
        run_cli(digest_command, ["digest", *argv], tmp_path)
    assert str(refused.value).startswith(message) and "\n" not in str(refused.value)


def test_digest_command_accepts_the_edges_of_the_range(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run_cli(digest_command, ["digest", "--days", "3650"], tmp_path) == 0
    assert capsys.readouterr().out.startswith("Evidence digest, 2016-12-03 – 2026-11-30")
    assert run_cli(digest_command, ["digest", "--since", "2000-01-01"], tmp_path) == 0
    assert capsys.readouterr().out.startswith("Evidence digest, 2000-01-01 – 2026-11-30")


def test_a_huge_window_from_the_shell_is_a_one_line_error_not_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.cli import main

    monkeypatch.setenv("MARIN_WATCH_DB_PATH", str(tmp_path / "cli.sqlite3"))
    assert main(["digest", "--days", "99999999999"]) == 1
    assert capsys.readouterr().err == (
        "marin-watch: --days must be between 1 and 3650, not 99999999999\n"
    )
    assert main(["digest", "--since", "0001-01-01"]) == 1
    assert capsys.readouterr().err.startswith("marin-watch: --since 0001-01-01 is before")


def test_subscriptions_list_without_a_store_says_so_and_creates_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run_cli(subscriptions_command, ["subscriptions", "list"], tmp_path) == 0
    assert capsys.readouterr().out == (
        f"no subscriptions yet (no store at {tmp_path / 'cli.sqlite3'})\n"
    )
    assert run_cli(subscriptions_command, ["subscriptions", "list", "--json"], tmp_path) == 0
    assert capsys.readouterr().out == ""  # no rows; the note goes to stderr
    assert not (tmp_path / "cli.sqlite3").exists()


def test_subscriptions_list_shows_who_gets_what(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with SQLiteStore(tmp_path / "cli.sqlite3") as store:
        store.subscribe(
            Subscription(Destination("telegram", "1001"), "zh", dt.time(9), "Asia/Shanghai")
        )
        store.subscribe(
            Subscription(Destination("discord", "77"), "en", dt.time(8), "Europe/Berlin")
        )
        store.unsubscribe(Destination("discord", "77"), "channel deleted")

    assert run_cli(subscriptions_command, ["subscriptions", "list"], tmp_path) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == [
        "destination",
        "lang",
        "time",
        "time",
        "zone",
        "quiet",
        "days",
        "status",
        "last",
        "sent",
    ]
    assert out[1].split() == [
        "telegram:1001",
        "zh",
        "09:00",
        "Asia/Shanghai",
        "skip",
        "active",
        "-",
    ]

    listed = run_cli(subscriptions_command, ["subscriptions", "list", "--all", "--json"], tmp_path)
    assert listed == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["id"], r["active"], r["inactive_reason"]) for r in rows] == [
        ("77", False, "channel deleted"),
        ("1001", True, None),
    ]


def test_a_claim_added_in_the_window_arrives_at_its_level_without_a_fake_transition() -> None:
    kb = load(today=dt.date(2026, 11, 30))
    found = changes(kb, Window.since(dt.date(2026, 8, 1), dt.date(2026, 11, 30)))
    architecture = next(g for g in found.claims if g.claim == "architecture")
    kinds = [c.kind for c in architecture.changes]
    assert ChangeKind.LEVEL not in kinds and ChangeKind.NEW_CLAIM in kinds
    assert all(c.date >= kb.claims["architecture"].added for c in architecture.changes)
