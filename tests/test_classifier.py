"""The classifier: the matching signal that generalizes past the lexicon's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from answers import training
from answers.classifier import MODEL, WEIGHTS, read_model
from knowledge.errors import KnowledgeInvalid
from tests.conftest import Conversation


def test_the_shipped_classifier_was_trained_on_the_current_examples() -> None:
    """An example added without retraining teaches the bot nothing: say how to retrain."""
    shipped = json.loads(MODEL.read_text(encoding="utf-8"))["trained_on"]
    assert shipped == training.fingerprint(), "retrain: .venv/bin/python -m answers.training"


def test_the_tuned_sets_and_the_examples_all_teach_readings_the_bot_has() -> None:
    rows = training.corpus()
    readings = {label for _, label in training.read_examples()}
    assert len(rows) > 7000
    assert {label for _, label in rows} == readings


@pytest.mark.parametrize(
    ("question", "reading"),
    [
        # words the lexicon does not hold, typed as people type them
        ("who is footing the compute bill", "hardware"),
        ("how many more days until it wraps up", "duration"),
        ("has the thing actually kicked off or is it vaporware", "started"),
        ("そろそろ終わった？ is pretraining over", "finished"),
        ("Marin 535B 的权重放出来了没", "release"),
    ],
)
def test_questions_in_words_nobody_listed_are_read(
    bot: Conversation, question: str, reading: str
) -> None:
    assert bot.core.reader.read(question).match.topics == (reading,)


def test_a_vague_follow_up_is_about_the_last_question_whatever_the_classifier_guesses(
    bot: Conversation,
) -> None:
    alone = bot.core.reader.read("ok when then?")
    assert alone.match.topics == ("duration",)  # "when", read alone
    followed = bot.core.reader.read("ok when then?", previous="那有checkpoint公开吗")
    assert followed.followed and followed.match.topics == ("checkpoints",)


def test_two_named_topics_stay_a_choice_however_sure_the_classifier_is(
    bot: Conversation,
) -> None:
    reading = bot.core.reader.read("loss gpus")
    assert reading.ranking.best[1] > 0.5  # the classifier leans to one
    assert reading.match.outcome == "choices" and set(reading.match.topics) == {"loss", "hardware"}


def test_a_damaged_model_file_is_a_named_problem(tmp_path: Path) -> None:
    model, weights = tmp_path / "classifier.json", tmp_path / "classifier.f32"
    model.write_text(MODEL.read_text(encoding="utf-8"), encoding="utf-8")
    weights.write_bytes(WEIGHTS.read_bytes()[:-8])  # cut short: two weights missing
    with pytest.raises(KnowledgeInvalid) as cut:
        read_model(model, weights)
    assert str(model) in str(cut.value) and "does not fit its weights" in str(cut.value)

    weights.write_bytes(b"\x00" * 7)
    with pytest.raises(KnowledgeInvalid, match="not a whole number of float32"):
        read_model(model, weights)

    model.write_text('{"format": 1, "classes": [', encoding="utf-8")
    with pytest.raises(KnowledgeInvalid, match="cannot read the classifier"):
        read_model(model, weights)

    model.write_text('{"format": 99}', encoding="utf-8")
    with pytest.raises(KnowledgeInvalid, match="retrain"):
        read_model(model, weights)


@pytest.mark.parametrize(
    ("question", "reading"),
    [
        # "finish" is the lexicon's word for "is it done?"; the classifier is sure of the date
        ("when will marin 535b finish training?", "duration"),
        # a model the lexicon has no name for, asked with a run word
        ("what hardware did xAI use for colossus", "other-models"),
        # "resume" is a run word, but this is asked for oneself and is about nothing of ours
        ("can someone look over my resume", "outside"),
    ],
)
def test_the_classifier_overrules_a_weak_or_misled_lexicon(
    bot: Conversation, question: str, reading: str
) -> None:
    assert bot.core.reader.read(question).match.topics == (reading,)


def test_a_follow_up_on_the_budget_asking_so_far_gets_the_tokens_trained(bot: Conversation) -> None:
    followed = bot.core.reader.read(
        "and how many so far?", previous="how many tokens is marin 535b planned for"
    )
    assert followed.match.topics == ("tokens-so-far",)
