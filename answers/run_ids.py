"""A run named by its id must be a run on record, and a run said to be the live one must be
the newest on record.

Close followers quote run ids ("hero-mfu30-step231k") and get them wrong in two ways: an id no
record names ("hero-mfu30-step213k"), or an old run said to be the current one
("current run is hero-main-step121638"). The ids are read from the knowledge base, and the
newest from the claim that says which run is newest, so a new handoff is a data change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from answers.assertions import Figure, same
from answers.days import MONTH
from answers.text import fold
from answers.time_words import CURRENT, STILL
from answers.verdict_words import RUN_ID
from answers.verdicts import CONTRADICTED, Verdict
from knowledge.knowledge_base import KnowledgeBase

NEWEST_CLAIM = "run-current"  # the claim whose statement names the newest run id first
# "current_run.py has hero-main-step121638" states what the file holds, not the run now
FILE_NAMES = re.compile(
    r"current run\.py(?:\s+(?:still|now))?(?:\s+(?:says|shows|has|lists|reads))?"
    r"|current hero run id(?:\s*=|\s+(?:in|from) current run\.py)"  # the file's variable
)
# "…step121638 | so that's the live run": the id is the clause before's
LIVE_RUN = re.compile(
    r"\b(?:live|current|active) run\b|(?:当前|當前|现在|現在|现役|現役)的? ?run"
    r"|(?:现在|当前|目前)(?:正?在)?(?:跑|训)的(?:就)?是(?:它|这个|那个)"  # "所以现在跑的就是它"
)


class RunIds:
    def __init__(self, kb: KnowledgeBase, index: Iterable[tuple[Figure, str]] = ()) -> None:
        """``index``: every figure a claim states, with the claim (``figure_index``)."""
        named = [c.statement.en for c in kb.claims.values()]
        named += [f"{s.title} {' '.join(s.excerpts)}" for s in kb.sources.values()]
        self.known = {i for text in named for i in RUN_ID.findall(fold(text))}
        # the claims naming each run, and the figures each claim gives
        self.naming: dict[str, set[str]] = {}
        self.figures: dict[str, list[Figure]] = {c: [] for c in kb.claims}
        for claim in kb.claims.values():
            for run in RUN_ID.findall(fold(claim.statement.en)):
                self.naming.setdefault(run, set()).add(claim.id)
        for figure, claim_id in index:
            self.figures[claim_id].append(figure)
        newest = kb.claims.get(NEWEST_CLAIM)
        found = RUN_ID.findall(fold(newest.statement.en)) if newest else []
        self.newest = found[0] if found else None

    def unknown(self, ids: Iterable[str]) -> bool:
        """Whether a run id no record names is given ("hero-mfu30-step213k" for step231k); a
        shortened name of one is known ("hero-mfu30")."""
        return any(
            "step" in i and not any(k.startswith(i) or i.startswith(k) for k in self.known)
            for i in ids
        )

    def misplaced(self, text: str, said: list[Figure], held: list[list[str]]) -> Verdict | None:
        """Contradicted, if ``text`` gives one run a figure that only records not naming it
        hold, where a record of this run gives another figure of the kind ("hero-nopdl-step108k
        的中位 MFU 是 26.75%": that run measured 23.62%; 26.75% was the next run's)."""
        runs = set(RUN_ID.findall(text))
        if len(runs) != 1:
            return None
        own = self.naming.get(runs.pop(), set())
        for figure, holders in zip(said, held, strict=True):
            if figure.noun == "issue" or not holders or own & set(holders):
                continue
            if figure.unit == "exact" and figure.value < 1000:
                continue  # (a count or a time of day, not a step or a measurement)
            kind = [f for c in own for f in self.figures[c] if f.unit == figure.unit]
            if any(not same(f, figure) for f in kind):
                return CONTRADICTED, (sorted(own)[0],)
        return None

    def verdict(self, text: str, before: str) -> Verdict | None:
        """Contradicted, if ``text`` (folded) names a run id no record names, or says an old
        run is the current one; ``before``: the message's earlier clauses, folded."""
        unfiled = FILE_NAMES.sub("", text)
        # (or still the one it was: "run id 还是最开始那个 hero-12d8b6f0-dee637", with no day;
        # not a file that still names it: "current_run.py 里还是 hero-main-step121638" is so)
        still = STILL.search(unfiled) and not MONTH.search(unfiled) and unfiled == text
        current, told = CURRENT.search(unfiled) or still, LIVE_RUN.search(unfiled)
        ids = RUN_ID.findall(text) or (RUN_ID.findall(before) if told else [])
        if not ids:
            return None
        # the newest, or its short name ("hero-mfu30")
        newest = self.newest is not None and any(self.newest.startswith(i) for i in ids)
        if current and not newest or self.unknown(ids):
            return CONTRADICTED, (NEWEST_CLAIM,)
        return None
