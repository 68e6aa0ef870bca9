"""The truth audit, as far as a machine can make it (issue 15).

An independent audit (2026-11) found three wrong facts where people ask most. Each was a fact
credited to the wrong record or date, or a status with no date shown as current. These tests
hold the bundled knowledge base to the checks that would have caught them, and show that the
checks do catch each wrong fact exactly as it stood in the knowledge base before the audit.
"""

from __future__ import annotations

import datetime as dt

import pytest

from knowledge.audit import quote_found, unsupported
from knowledge.check import integrity_problems
from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import Claim, ClaimKind, EvidenceLink, Level, Text

TODAY = dt.date(2026, 12, 1)


def test_every_status_claim_says_when_it_was_true(kb: KnowledgeBase) -> None:
    undated = [
        c.id
        for c in kb.claims.values()
        if c.kind in (ClaimKind.STATUS, ClaimKind.RESULT) and c.as_of is None
    ]
    assert undated == []


def test_nothing_is_confirmed_without_an_official_record_we_read_ourselves(
    kb: KnowledgeBase,
) -> None:
    for cid in kb.claims:
        a = kb.assessment(cid)
        if a.level is Level.CONFIRMED:
            read = [r for r in a.supporting if kb.sources[r].read_directly]
            assert read, f"{cid} is confirmed only through relays"


def test_absences_are_never_confirmed(kb: KnowledgeBase) -> None:
    for claim in kb.claims.values():
        if claim.kind is ClaimKind.ABSENCE:
            assert kb.assessment(claim.id).level in (Level.NO_RECORD, Level.DISPUTED), claim.id


def test_no_claim_states_a_step_date_or_id_its_records_do_not_hold(kb: KnowledgeBase) -> None:
    found = {
        cid: missing
        for cid, claim in kb.claims.items()
        if (missing := unsupported(claim, kb.links_by_claim[cid], kb.sources))
    }
    assert found == {}


def test_every_quote_is_the_records_own_words_or_says_it_paraphrases(kb: KnowledgeBase) -> None:
    for link in kb.links:
        if link.paraphrase:
            assert link.strength != "direct", (link.claim, link.source)
        else:
            assert quote_found(link.quote, kb.sources[link.source]), (link.claim, link.source)


# --- The three wrong facts, as they stood before the audit (commit b42bd75) --------------------


def _check_old_claim(kb: KnowledgeBase, claim: Claim, links: list[EvidenceLink]) -> list[str]:
    """Put an old claim and its old links back into today's records and run kb check."""
    others = [c for c in kb.claims.values() if c.id != claim.id]
    kept = [link for link in kb.links if link.claim != claim.id]
    problems = integrity_problems(
        list(kb.sources.values()),
        [*others, claim],
        [*kept, *links],
        list(kb.watch_points),
        today=TODAY,
    )
    return [str(p) for p in problems]


def _old(cid: str, topic: str, kind: str, en: str, as_of: str | None, added: str) -> Claim:
    return Claim(
        id=cid,
        topic=topic,
        kind=ClaimKind(kind),
        statement=Text(en=en, zh=en),
        as_of=dt.date.fromisoformat(as_of) if as_of else None,
        added=dt.date.fromisoformat(added),
    )


def _link(claim: str, source: str, quote: str) -> EvidenceLink:
    return EvidenceLink.model_validate(
        {
            "claim": claim,
            "source": source,
            "stance": "supports",
            "strength": "direct",
            "quote": quote,
            "recorded": dt.date(2026, 10, 8),
        }
    )


WRONG_FACTS = {
    "the current run id was a run that ended on 09-23": (
        _old(
            "status-log-public",
            "tracking",
            "status",
            "The team keeps a running public status log in GitHub issue #8506 and the plan in "
            "issue #8435; the current run id (hero-main-step121638, 2026-09-18) is in "
            "experiments/grug/moe_hero_ep/current_run.py.",
            None,
            "2026-10-08",
        ),
        [
            _link("status-log-public", "gh-8506-start", "Hero Run / Ongoing Status"),
            _link("status-log-public", "gh-8435", "[Hero Run] 535B-A23B on 18T tokens"),
            _link(
                "status-log-public",
                "current-run-py",
                "CURRENT_HERO_RUN_ID = hero-main-step121638",
            ),
        ],
        ["'status-log-public' → as_of"],
    ),
    "the new mixture was dated to step 108,778 on 09-16": (
        _old(
            "mixture-switch-108k",
            "phases",
            "status",
            'The mixture log records phase 1 ("Harrier") from step 0 and phase 2 from step '
            "108,000 (~27.7%), with a phase-3 cooldown planned at step 312,192 (~80%); the "
            "status log shows the new mixture running from step 108,778 on 2026-09-16.",
            "2026-09-16",
            "2026-10-08",
        ),
        [
            _link(
                "mixture-switch-108k",
                "mixture-log",
                'phase 1 "Harrier" from step 0; phase 2 from step 108,000; phase 3 cooldown '
                "planned at step 312,192",
            ),
            _link(
                "mixture-switch-108k",
                "gh-8506-0915-mixture",
                "hero-nopdl-step108k from step 108,778",
            ),
        ],
        ["states 108,778, 2026-09-16"],
    ),
    "MFU 26.47% was credited to the status log of 10-01": (
        _old(
            "mfu-0930",
            "throughput",
            "status",
            "Throughput in the status log: median MFU 26.75% and about 3.14M tokens/s after a "
            "flash-attention change (2026-09-23), up from about 23–24%; live MFU 26.47% on "
            "2026-10-01.",
            "2026-10-01",
            "2026-10-08",
        ),
        [
            _link("mfu-0930", "gh-8506-0915-nopdl", "MFU 23.62% vs 23.03%"),
            _link("mfu-0930", "gh-8506-0923", "median MFU 26.75% vs 24.10%, ~3.14M tokens/s"),
            _link("mfu-0930", "gh-8506-1001", "live MFU 26.47%"),
        ],
        ["states 24%, 26.47%", "source 'gh-8506-1001') → quote"],
    ),
}


@pytest.mark.parametrize("fact", WRONG_FACTS, ids=list(WRONG_FACTS))
def test_each_wrong_fact_of_the_audit_fails_the_checks(kb: KnowledgeBase, fact: str) -> None:
    claim, links, expected = WRONG_FACTS[fact]
    problems = _check_old_claim(kb, claim, links)
    text = "\n".join(problems)
    assert problems, fact
    for words in expected:
        assert words in text, (fact, words, text)


def test_the_digest_of_the_audit_day_tells_readers_what_was_corrected(kb: KnowledgeBase) -> None:
    from bot.digest.changes import ChangeKind, changes
    from bot.digest.window import Window

    found = changes(kb, Window(after=dt.date(2026, 11, 29), through=dt.date(2026, 11, 30)))
    fixes = {c.claim: c for g in found.claims for c in g.changes if c.kind is ChangeKind.CORRECTION}
    # every correction of the audit is reported, with the level it had and the level it has
    assert {"run-current", "mixture-switch-108k", "mfu-0930", "incident-1003-save"} <= set(fixes)
    announcement = fixes["official-announcement"]
    assert (announcement.before, announcement.after) == (Level.CONFIRMED, Level.SINGLE_SOURCE)
    assert announcement.note is not None and "relay" in announcement.note.en
    released = fixes["model-not-released"]
    assert (released.before, released.after) == (Level.CONFIRMED, Level.NO_RECORD)
