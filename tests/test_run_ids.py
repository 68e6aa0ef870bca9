"""Run ids: one no record names is contradicted, and "the current run" is the newest on record,
read from the knowledge base (a new handoff is a data change, not a code change)."""

from __future__ import annotations

import dataclasses

from answers.run_ids import NEWEST_CLAIM, RunIds
from answers.verdicts import CONTRADICTED
from knowledge.knowledge_base import KnowledgeBase


def test_the_newest_run_is_the_one_the_knowledge_base_names(kb: KnowledgeBase) -> None:
    runs = RunIds(kb)
    assert runs.newest == "hero-mfu30-step231k"
    assert runs.verdict("current run is hero-mfu30-step231k", "") is None
    assert runs.verdict("the short name hero-mfu30 is the live run", "") is None
    assert runs.verdict("current run is hero-main-step121638", "") == (
        CONTRADICTED,
        (NEWEST_CLAIM,),
    )


def test_an_old_run_told_as_what_a_file_holds_is_not_said_current(kb: KnowledgeBase) -> None:
    runs = RunIds(kb)
    assert runs.verdict("current run.py still says hero-main-step121638", "") is None


def test_a_run_id_no_record_names_is_contradicted(kb: KnowledgeBase) -> None:
    runs = RunIds(kb)
    assert runs.unknown(["hero-mfu30-step213k"])
    assert not runs.unknown(["hero-mfu30", "hero-fa4sm100-nomask-step146k"])


def test_a_later_handoff_in_the_data_moves_the_newest_run(kb: KnowledgeBase) -> None:
    claim = kb.claims[NEWEST_CLAIM]
    statement = claim.statement.model_copy(
        update={"en": "The newest run id on record is hero-next-step300k."}
    )
    claims = {**kb.claims, NEWEST_CLAIM: claim.model_copy(update={"statement": statement})}
    runs = RunIds(dataclasses.replace(kb, claims=claims))
    assert runs.newest == "hero-next-step300k"
    assert runs.verdict("the live run is hero-mfu30-step231k", "") == (
        CONTRADICTED,
        (NEWEST_CLAIM,),
    )
    assert runs.verdict("the live run is hero-next-step300k", "") is None
