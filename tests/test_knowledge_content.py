"""The knowledge base holds what the research found, with every fact keeping its source."""

from __future__ import annotations

import datetime as dt

import pytest

from knowledge.knowledge_base import KnowledgeBase
from knowledge.schema import ClaimKind, Level

# Each row of the seed brief's two tables → the claims that carry it.
SEED_ROWS = {
    "训练状态 started training this week": ["training-started"],
    "目标模型 535B-A23B": ["architecture"],
    "数据规模 18.75T tokens": ["tokens-plan-18-75t"],
    "训练阶段 80% pretraining + 20% midtraining": ["phases-plan"],
    "算力与周期 11 x GB200 NVL72, ~3 months": ["hardware-gb200", "duration-plan"],
    "计算量 2.7e24 FLOPs vs README 5e24": [
        "flops-2-7e24",
        "flops-readme-5e24",
        "flops-gap-unexplained",
    ],
    "起点 1.6B-A61M 48B tokens / 终点前阶梯 27.7B-A1.2B 926B": ["scaling-ladder"],
    "过程理念 README 与 Open Athena": ["marin-project", "open-development"],
}


@pytest.mark.parametrize(("row", "claims"), SEED_ROWS.items())
def test_every_seed_table_row_is_a_claim(kb: KnowledgeBase, row: str, claims: list[str]) -> None:
    for cid in claims:
        assert cid in kb.claims, row


def test_two_figures_for_one_quantity_are_kept_apart(kb: KnowledgeBase) -> None:
    tokens = {c.id for c in kb.topics["tokens"]}
    assert {"tokens-plan-18-75t", "tokens-config-18-0t", "tokens-gap-unexplained"} <= tokens
    flops = {c.id for c in kb.topics["flops"]}
    assert {"flops-2-7e24", "flops-readme-5e24", "flops-gap-unexplained"} <= flops


def test_records_seen_only_through_a_relay_are_marked(kb: KnowledgeBase) -> None:
    relayed = {s.id for s in kb.sources.values() if s.seen_via_relay}
    assert {
        "x-percy-launch",
        "x-percy-halfway",
        "athena-huang-foundation",
        "athena-launch-note",
    } <= relayed
    assert kb.sources["cn-community-relays"].relays == "x-percy-launch"
    # The seed brief repeats the X post for the launch facts only; its judgments are its own.
    seed_links = [x for x in kb.links if x.source == "seed-brief-0822"]
    launch = next(x for x in seed_links if x.claim == "training-started")
    judgment = next(x for x in seed_links if x.claim == "seed-judgment")
    assert launch.repeats == "x-percy-launch" and judgment.repeats is None
    assert kb.assessment("seed-judgment").supporting == ("seed-brief-0822",)


def test_launch_went_from_single_source_to_confirmed_by_the_status_log(kb: KnowledgeBase) -> None:
    assert kb.assessment("training-started", dt.date(2026, 8, 22)).level is Level.SINGLE_SOURCE
    # the seed brief and community relays collapse into the X post: still one record
    assert kb.assessment("training-started", dt.date(2026, 8, 22)).supporting == ("x-percy-launch",)
    now = kb.assessment("training-started")
    assert now.level is Level.CONFIRMED and "gh-8506-start" in now.supporting


def test_nothing_claims_the_model_released_or_evaluated(kb: KnowledgeBase) -> None:
    assert kb.claims["model-not-released"].kind is ClaimKind.ABSENCE
    assert kb.claims["no-evaluations"].kind is ClaimKind.ABSENCE
    for claim in kb.claims.values():
        text = claim.statement.en.lower()
        if claim.kind is not ClaimKind.ABSENCE:
            assert "released" not in text and "finished" not in text, claim.id


def test_there_are_five_watch_points(kb: KnowledgeBase) -> None:
    assert [w.order for w in kb.watch_points] == [1, 2, 3, 4, 5]
