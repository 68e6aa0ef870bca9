"""A person put in a role the records give to someone else: "W&B 报告作者是 Percy Liang" (the
report's author is Larry Dial), "#8506 was opened by Larry Dial" (rjpower opened it), "rjpower
posted the Oct 9 handoff" (the team's agents post them). The records' own sentences pair a role
("opened by", "author", "favoured", "post") with a person and the things of that clause (an
issue, the report, a handoff); each record posted is its publisher's, about the things of its
title and its day. A message pairing the role with another person, about the same thing, is
contradicted by that record. A role no record gives to anyone, or gives to someone unnamed
("Marin team"), is not read here.
"""

from __future__ import annotations

import re

from answers.days import months
from answers.text import fold
from answers.verdicts import CONTRADICTED, Verdict
from knowledge.knowledge_base import KnowledgeBase

# Who the records name, by every name a message uses for them
_PEOPLE = {
    "percy": r"percy(?: liang)?",
    "larry": r"larry(?: dial)?|classiclarry",
    "david hall": r"david hall|dlwh",
    "will held": r"will held|helw150",
    "mcwitt": r"mcwitt",
    "rjpower": r"rjpower",
    "loom": r"loom-oa-dev",
    "yonromai": r"yonromai",
}
_ROLES = {
    # ("a launch note by David Hall", not "opened by", "listed by")
    "author": r"\bauthor(?:ed|s)?\b|\bwr(?:ote|itten by)\b|作者|撰写|写的"
    r"|(?<!opened )(?<!created )(?<!filed )(?<!posted )(?<!listed )\bby\b"
    # whose it is: "Will Held's launch note", "Larry 的 W&B 报告"
    r"|(?:'s|的)\s*(?=(?:w&b |wandb )?(?:launch note|report\b|报告))",
    "opened": r"\bopen(?:ed|s)\b|\bcreated\b|\bfiled\b|(?<!公)开的|(?<!公)开了|创建|建立|发起",
    "favoured": r"\bprefer\w*|\bfavou?r(?:ed|s)\b|\bleaning\b|倾向|主张|偏好",
    "posted": r"\bpost(?:s|ed)?\b(?! (?:on x|a tweet))|发的|发了|贴了",
}
_ROLE = {role: re.compile(words) for role, words in _ROLES.items()}
_PERSON = {name: re.compile(rf"\b(?:{words})\b") for name, words in _PEOPLE.items()}
# The things a role is about: an issue or PR by its number, the W&B report, the launch note, a
# handoff (and a record's day, "10-09")
_THING = re.compile(
    r"#\d{3,5}|\breport\b|报告|launch note|\bhand-?offs?\b|交接|status (?:log|thread|issue)"
    r"|状态日志"
)
_DAY = re.compile(r"\b\d\d-\d\d\b")
_SAME = {"报告": "report", "交接": "handoff", "handoffs": "handoff", "hand-off": "handoff"}
_SAME |= {
    "status log": "#8506",
    "status thread": "#8506",
    "status issue": "#8506",
    "状态日志": "#8506",
}
_CLAUSE = re.compile(r"[;；。]|, and ")
_NEAR = 40  # characters between a role's word and its person, in one clause
_WROTE = re.compile(r"\bauthor|\bwr(?:ote|itten)\b|作者|撰写")  # authorship itself, not "by"
_HE = re.compile(r"\b(?:he|she|him)\b|他|她")  # a person named before

Fact = tuple[str, str, frozenset[str], str]  # role, person, things, the claim saying it


class Roles:
    def __init__(self, kb: KnowledgeBase) -> None:
        self.facts: list[Fact] = []
        for claim in kb.claims.values():
            for clause in _CLAUSE.split(fold(claim.statement.en)):
                things = frozenset(_things(clause))
                for role, person in _paired(clause):
                    self.facts.append((role, person, things, claim.id))
        for claim_id, sources in kb.said_by.items():
            for source in sources:  # who posted it ("" if unnamed), about its title, its day
                publisher = fold(source.publisher)
                person = next((p for p, name in _PERSON.items() if name.search(publisher)), "")
                day = source.published.strftime("%m-%d")
                things = frozenset({*_things(fold(source.title)), day})
                self.facts.append(("posted", person, things, claim_id))

    def misnamed(self, text: str, before: str) -> Verdict | None:
        """Contradicted, naming the record, if ``text`` (folded) gives a role to a person the
        records do not give it to, about the thing it names (or the message named before)."""
        said = _paired(text)
        if not said and _HE.search(text):  # "#8435 也是他开的": the one named before
            roles = [role for role, words in _ROLE.items() if words.search(text)]
            people = [p for p, name in _PERSON.items() if name.search(before)]
            said = [(role, person) for role in roles for person in people]
        if len(said) != 1:
            return None  # two roles, or two people: which goes with which is not read
        role, person = said[0]
        things = set(_things(text)) or set(_things(before)[-1:])
        if role == "author" and not things and not _WROTE.search(text):
            return None  # written what? ("Percy 推文里写的 18.75T" is what his post says)
        days = {f"{m:02d}-{d:02d}" for m, d in months(text) if d is not None}
        known = [
            f
            for f in self.facts
            if f[0] == role
            and (not things or things & f[2])
            and (not days or days & f[2] or not _DAY.search(" ".join(f[2])))  # (of that day)
        ]
        if not known or any(f[1] in (person, "") for f in known):
            return None  # (an unnamed poster may be the one)
        return CONTRADICTED, (known[0][3],)


def _paired(clause: str) -> list[tuple[str, str]]:
    """Each (role, person) of the clause whose words stand within ``_NEAR`` of each other."""
    found = []
    for role, words in _ROLE.items():
        for r in words.finditer(clause):
            for person, name in _PERSON.items():
                if any(
                    abs(p.start() - r.start()) <= _NEAR or abs(p.end() - r.end()) <= _NEAR
                    for p in name.finditer(clause)
                ):
                    found.append((role, person))
    return list(dict.fromkeys(found))


def _things(text: str) -> list[str]:
    return [_SAME.get(t, t) for t in _THING.findall(text)]
