"""Integrity rules that span files: ids, references, dates and relay chains."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Sequence

from knowledge.audit import (
    figures_differ,
    mentioned_dates,
    quote_found,
    strip_arithmetic,
    unsupported,
)
from knowledge.errors import Problem
from knowledge.progress import TOPIC as PROGRESS_SERIES
from knowledge.relays import relay_cycles
from knowledge.schema import (
    Claim,
    ClaimKind,
    Correction,
    EvidenceLink,
    Source,
    Stance,
    Strength,
    WatchPoint,
)

# An absence is worded as what the record does not show; templates insert the as-of date.
ABSENCE_PREFIX = {"en": "No record in the knowledge base", "zh": "知识库中没有任何记录"}


def integrity_problems(
    sources: Sequence[Source],
    claims: Sequence[Claim],
    links: Sequence[EvidenceLink],
    watch: Sequence[WatchPoint],
    *,
    today: dt.date,
    broken: set[str] | frozenset[str] = frozenset(),
    corrections: Sequence[Correction] = (),
) -> list[Problem]:
    """Problems across files. ``broken``: ids of entries that failed validation and were
    already reported; references to them are not reported again."""
    problems: list[Problem] = []
    problems += _duplicates("sources.toml", "source", [s.id for s in sources])
    problems += _duplicates("claims.toml", "claim", [c.id for c in claims])
    problems += _duplicates("watch.toml", "watch", [w.id for w in watch])

    source_ids = {s.id for s in sources}
    by_id = {s.id: s for s in sources}
    claim_ids = {c.id for c in claims}
    by_claim = {c.id: c for c in claims}

    for s in sources:
        where = f"source '{s.id}'"
        if s.published > today:
            problems.append(Problem("sources.toml", f"{where} → published", _future(s.published)))
        if s.relays is not None and s.relays not in source_ids:
            problems.append(
                Problem("sources.toml", f"{where} → relays", f"unknown source id '{s.relays}'")
            )
        if s.seen_via_relay and not s.seen_via:
            problems.append(
                Problem(
                    "sources.toml", f"{where} → seen_via", "say whom we saw this record through"
                )
            )
    problems += relay_cycles(by_id)

    linked_claims: set[str] = set()
    pairs: Counter[tuple[str, str]] = Counter()
    for index, link in enumerate(links):
        where = f"link[{index}] (claim '{link.claim}', source '{link.source}')"
        pairs[(link.claim, link.source)] += 1
        if link.claim in broken:
            continue
        if link.claim not in claim_ids:
            problems.append(
                Problem("evidence.toml", f"{where} → claim", f"unknown claim id '{link.claim}'")
            )
        else:
            linked_claims.add(link.claim)
        if link.source in broken:
            continue
        if link.source not in source_ids:
            problems.append(
                Problem("evidence.toml", f"{where} → source", f"unknown source id '{link.source}'")
            )
        elif link.recorded < by_id[link.source].published:
            problems.append(
                Problem(
                    "evidence.toml",
                    f"{where} → recorded",
                    f"{link.recorded} is before the record was published "
                    f"({by_id[link.source].published})",
                )
            )
        else:
            problems += _link_words(where, link, by_id[link.source], by_id)
        linked = by_claim.get(link.claim)
        if (
            linked is not None
            and linked.kind is ClaimKind.ABSENCE
            and link.strength is Strength.DIRECT
            and link.stance is Stance.SUPPORTS
        ):
            problems.append(
                Problem(
                    "evidence.toml",
                    f"{where} → strength",
                    "no record states an absence: link the records it was checked against "
                    "as indirect or context",
                )
            )
        if linked is not None and link.recorded < linked.added:
            problems.append(
                Problem(
                    "evidence.toml",
                    f"{where} → recorded",
                    f"{link.recorded} is before the claim was added ({linked.added})",
                )
            )
        if link.recorded > today:
            problems.append(Problem("evidence.toml", f"{where} → recorded", _future(link.recorded)))
    for (claim, source), count in pairs.items():
        if count > 1:
            problems.append(
                Problem(
                    "evidence.toml",
                    f"claim '{claim}', source '{source}'",
                    f"linked {count} times; one link per claim and record",
                )
            )

    linked_ids: dict[str, list[EvidenceLink]] = {}
    for link in links:
        if link.source in by_id:
            linked_ids.setdefault(link.claim, []).append(link)
    for c in claims:
        where = f"claim '{c.id}'"
        if c.kind is not ClaimKind.PLAN:
            # A statement must be true on every date it is shown: nothing it mentions may
            # postdate the day the claim entered the KB (`--as-of` would leak the future).
            late = [d for d in mentioned_dates(strip_arithmetic(c.statement.en)) if d > c.added]
            if late:
                problems.append(
                    Problem(
                        "claims.toml",
                        f"{where} → statement.en",
                        f"mentions {late[0]}, after the claim was added ({c.added}); "
                        "put later facts in a new claim",
                    )
                )
        if c.kind in (ClaimKind.STATUS, ClaimKind.RESULT) and c.as_of is None:
            problems.append(
                Problem(
                    "claims.toml",
                    f"{where} → as_of",
                    f"a {c.kind} claim says when it was true: add the date its newest record "
                    "describes",
                )
            )
        if c.id in linked_ids:
            missing = unsupported(c, linked_ids[c.id], by_id)
            if missing:
                problems.append(
                    Problem(
                        "claims.toml",
                        f"{where} → statement.en",
                        f"states {', '.join(missing)}, which no linked record holds "
                        '(write computed figures as "(our arithmetic: …)")',
                    )
                )
        differ = figures_differ(c)
        if differ:
            problems.append(
                Problem(
                    "claims.toml",
                    f"{where} → statement.zh",
                    f"en and zh state different figures: {', '.join(differ)}",
                )
            )
        if c.kind is ClaimKind.ABSENCE:
            for lang, prefix in ABSENCE_PREFIX.items():
                if not c.statement.get(lang).startswith(prefix):
                    problems.append(
                        Problem(
                            "claims.toml",
                            f"{where} → statement.{lang}",
                            f'an absence must start with "{prefix}" (the answer adds its date)',
                        )
                    )
        if c.id not in linked_claims:
            problems.append(Problem("claims.toml", where, "has no evidence link in evidence.toml"))
        for name, value in (("added", c.added), ("as_of", c.as_of)):
            if value is not None and value > today:
                problems.append(Problem("claims.toml", f"{where} → {name}", _future(value)))

    for index, fix in enumerate(corrections):
        where = f"correction[{index}] (claim '{fix.claim}')"
        if fix.claim not in claim_ids:
            problems.append(
                Problem("corrections.toml", f"{where} → claim", f"unknown claim id '{fix.claim}'")
            )
        if fix.date > today:
            problems.append(Problem("corrections.toml", f"{where} → date", _future(fix.date)))

    for w in watch:
        for target in w.bears_on:
            if target not in claim_ids and target not in broken and target != PROGRESS_SERIES:
                problems.append(
                    Problem(
                        "watch.toml", f"watch '{w.id}' → bears_on", f"unknown claim id '{target}'"
                    )
                )
        for i, pattern in enumerate(w.patterns):
            where = f"watch '{w.id}' → patterns[{i}]"
            try:
                re.compile(pattern)
            except re.error as exc:
                problems.append(Problem("watch.toml", where, f"bad regex: {exc}"))
                continue
            if _NESTED_QUANTIFIER.search(pattern):
                problems.append(
                    Problem(
                        "watch.toml",
                        where,
                        "a quantified group that repeats inside (like (a+)+) can backtrack for "
                        "hours on one page; write it without the nesting",
                    )
                )
    return problems


# "(a+)+", "(\\w*)*", "(x|xy)+{2,}": a repeated group that itself repeats, the classic shape
# of catastrophic backtracking in a regex run over text from the internet.
_NESTED_QUANTIFIER = re.compile(r"\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)[+*{]")


def _link_words(
    where: str, link: EvidenceLink, source: Source, by_id: dict[str, Source]
) -> list[Problem]:
    """A link quotes its record's words, or says it paraphrases (and then proves nothing)."""
    problems: list[Problem] = []
    if link.repeats is not None and link.repeats not in by_id:
        problems.append(
            Problem("evidence.toml", f"{where} → repeats", f"unknown source id '{link.repeats}'")
        )
    if link.paraphrase:
        if link.strength is Strength.DIRECT:
            problems.append(
                Problem(
                    "evidence.toml",
                    f"{where} → paraphrase",
                    "a direct link quotes the record's words; a paraphrase can only be "
                    "indirect or context",
                )
            )
    elif not quote_found(link.quote, source):
        problems.append(
            Problem(
                "evidence.toml",
                f"{where} → quote",
                f"not in the excerpts of source '{source.id}': copy the record's words there, "
                "or mark the link paraphrase = true",
            )
        )
    return problems


def _duplicates(file: str, table: str, ids: list[str]) -> list[Problem]:
    return [
        Problem(file, f"{table} '{i}' → id", f"duplicate id (appears {n} times)")
        for i, n in Counter(ids).items()
        if n > 1
    ]


def _future(value: dt.date) -> str:
    return f"{value} is in the future"
