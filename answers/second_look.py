"""What the second opinion reads of an assertion, and the assertion it gives back.

The features are the rules' own view (``checking.py``): their verdict, the reading's topic,
the figures and whether claims hold them, the nearest claim statement and its kind, denial,
hedge and done words, whether the clause or its message names the run, and the clause's
n-grams. Training (``opinion_training.py``) reads them through this same function.
"""

from __future__ import annotations

from answers.assertions import figures
from answers.grams import features as grams
from answers.reading import Reader
from answers.records import PROGRESS_READINGS, Records
from answers.second_opinion import Features, Opinion, revise
from answers.spec_words import RUNGS
from answers.statements import Statements
from answers.text import fold, spaced
from answers.verdict_words import AS_DONE, DONE, denial, hedged
from answers.verdicts import NOT_CHECKED, OFF_TOPIC, UNSUPPORTED, Assertion


class SecondLook:
    def __init__(
        self, reader: Reader, records: Records, statements: Statements, opinion: Opinion | None
    ) -> None:
        self.reader = reader
        self.records = records
        self.statements = statements
        self.opinion = opinion

    def features(self, assertion: Assertion, about_run: bool) -> tuple[Features, str | None]:
        """What the model reads of the assertion, and its topic."""
        words, text = assertion.words, spaced(fold(assertion.words))
        found: Features = {f"g:{g}": float(n) for g, n in grams(words).items()}
        found[f"rule:{assertion.verdict}"] = 1.0
        match = self.reader.read(words).match
        topic = match.topics[0] if match.outcome == "answer" and match.topics else None
        found[f"topic:{topic or 'none'}"] = 1.0
        said = figures(text)
        held = [self.records.holders(f, topic, bool(RUNGS.search(text))) for f in said]
        found["figs"] = float(min(len(said), 3))
        found["held_all"] = float(bool(said) and all(held))
        found["held_any"] = float(any(held))
        claim_id, near = self.statements.nearest(words)
        found["sim"] = near
        if claim_id:
            found[f"simkind:{self.records.kb.claims[claim_id].kind.value}"] = near
        found["neg"] = float(denial(text))
        found["hedged"] = float(hedged(text))
        found["asdone"] = float(bool(AS_DONE.search(text) or DONE.search(text)))
        found["names_run"] = float(self.reader.matcher.names_run(words))
        found["about_run"] = float(about_run)
        return found, topic

    def revised(self, assertion: Assertion, about_run: bool) -> Assertion:
        """The assertion as the second opinion leaves it (unchanged without a model)."""
        if self.opinion is None:
            return assertion
        features, topic = self.features(assertion, about_run)
        opinion = self.opinion
        verdict = revise(assertion.verdict, opinion.verdict(features), opinion.flagging(features))
        if verdict == assertion.verdict:
            return assertion
        if verdict != UNSUPPORTED:  # in doubt: no claim to name
            doubted = verdict == NOT_CHECKED and assertion.verdict not in (NOT_CHECKED, OFF_TOPIC)
            return Assertion(assertion.words, verdict, doubted=doubted)
        claims = assertion.claims or self._newest(topic)
        return Assertion(assertion.words, verdict, claims)

    def _newest(self, topic: str | None) -> tuple[str, ...]:
        """The records an unsupported assertion is measured against: the newest of its topic
        for the run's progress, else the topic's first."""
        if topic is None:
            return ()
        if topic in PROGRESS_READINGS:
            return self.records.claims("progress")[-1:]
        return self.records.claims(topic)[:1]
