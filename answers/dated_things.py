"""A thing put on a day its records do not give: "PR #8588，9 月 22 号合的" (the records date it
August 22), "storage quota 那次事故是 9 月 30 号" (the quota incident was September 23-24).

A thing is a pull request or issue named by its number, or an incident named by its kind (a
hang, the quota, the NVLink error). Its days are the days its records name and the days their
sources went out, a day either side (a comment at 23:20 UTC is the next day somewhere). A log
that records name on many days (the status log #8506) is dated by every entry, so it is left
out: only things their records put on a few days are checked.
"""

from __future__ import annotations

import re

from answers.assertions import ISSUE
from answers.days import days_apart, months
from answers.incidents import INCIDENT_KINDS
from answers.records import Records
from answers.verdicts import CONTRADICTED, Verdict

_PAGE = re.compile(r"/(?:issues|pull)/(\d+)/?$")  # an issue's or pull request's own page
_FEW = 6  # a thing its records put on more days than this is a log, dated by every entry


class DatedThings:
    def __init__(self, records: Records) -> None:
        self.records = records
        kb = records.kb
        # each claim's days, with its sources' own
        self.days = {
            c: records.days[c]
            | {(s.published.month, s.published.day) for s in kb.said_by.get(c, ())}
            for c in kb.claims
        }
        # the days the records taken from each issue's or pull request's own page went out
        self.entries: dict[str, set[tuple[int, int]]] = {}
        for source in kb.sources.values():
            page = _PAGE.search(str(source.url))
            if page:
                day = (source.published.month, source.published.day)
                self.entries.setdefault(page[1], set()).add(day)

    def misdated(self, text: str) -> Verdict | None:
        """Contradicted, naming a record of the thing, if ``text`` (folded) puts a numbered
        pull request or issue, or an incident of a kind, on one day none of its records
        names; None otherwise."""
        named = [(m, d) for m, d in months(text) if d is not None]
        if len(named) != 1:
            return None
        for claims in self._things(text):
            days = {day for c in claims for day in self.days[c]}
            if not claims or len(days) > _FEW:
                continue
            if not any(_near(named[0], day) for day in days):
                return CONTRADICTED, (claims[0],)
        return None

    def _things(self, text: str) -> list[list[str]]:
        """The claims of each thing the text names: those saying its number, or its kind."""
        kb = self.records.kb
        found = []
        for a, b in ISSUE.findall(text):
            if len(self.entries.get(a or b, ())) > _FEW:
                continue  # a log: its entries' days are any of these (the status log #8506)
            number = re.compile(rf"#{a or b}\b")
            found.append([c.id for c in kb.claims.values() if number.search(c.statement.en)])
        for kind in INCIDENT_KINDS:  # (of any topic: a stall is a status record's too)
            if kind.search(text):
                found.append([c for c in kb.claims if kind.search(self.records.said(c))])
        return found


def _near(a: tuple[int, int], b: tuple[int, int | None]) -> bool:
    """The same day, or a day either side (a record's days always have one)."""
    return b[1] is not None and days_apart(a, (b[0], b[1])) <= 1
