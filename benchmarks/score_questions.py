"""Score a labelled question set: how many questions get the fact that was asked.

A set is a TSV (``question<TAB>expected<TAB>language[<TAB>previous]``) whose ``expected``
column uses the fact keys of ``tests/data/fact_keys.toml``, written by someone who never saw
the vocabulary or the code. ``a+b`` means both facts are asked; ``a|b`` that either is right.

    right    the answer contains a claim of every fact asked (a decline, for questions that
             are not about this run; "I don't know" for questions the records cannot answer)
    safe     choices or "I don't know" instead of the fact: not answered, but nothing wrong said
    wrong    a neighbouring fact, the overview instead of a fact, or a fact where a decline
             was due

Run: ``.venv/bin/python benchmarks/score_questions.py tests/data/blind3_questions.tsv [-v]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from answers.reply import Reply  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.context import AppContext  # noqa: E402
from knowledge.clock import fixed_clock  # noqa: E402

# The day after the knowledge base's newest evidence was recorded, as in the tests.
TODAY = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
DECLINES = {"other-model", "general-ml", "off-topic"}


@dataclass(frozen=True)
class Row:
    question: str
    expected: str
    language: str
    previous: str


def read_set(path: Path) -> list[Row]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith(("#", "question\t")):
            continue
        cells = line.split("\t") + ["", "", ""]
        rows.append(Row(cells[0], cells[1], cells[2], cells[3]))
    return rows


def fact_keys(path: Path) -> dict[str, frozenset[str]]:
    with path.open("rb") as f:
        return {k: frozenset(v) for k, v in tomllib.load(f)["facts"].items()}


def claims_of(reply: Reply) -> set[str]:
    return {c.id for c in reply.claims}


def verdict(reply: Reply, expected: str, keys: dict[str, frozenset[str]]) -> str:
    claims = claims_of(reply)
    kind = reply.kind
    alternatives = expected.split("|")

    def satisfied(alt: str) -> bool:
        parts = alt.split("+")
        if len(parts) == 1 and parts[0] in DECLINES:
            return not claims and reply.outcome != "answer"
        if len(parts) == 1 and parts[0] == "unknown":
            return not claims and reply.outcome in ("unknown", "choices")
        if len(parts) == 1 and parts[0] == "overview":
            # the overall status, or the newest evidence changes ("any news?")
            return kind in ("overview", "digest")
        if kind == "overview":
            return False
        return reply.outcome == "answer" and all(claims & keys.get(p, frozenset()) for p in parts)

    if any(satisfied(alt) for alt in alternatives):
        return "right"
    if reply.outcome in ("choices", "unknown") and not claims:
        return "safe"
    return "wrong"


def score(path: Path, keys_path: Path, verbose: bool = False) -> Counter[str]:
    keys = fact_keys(keys_path)
    # the console's own core (with the "what changed" answer), and no database file
    settings = Settings(db_path=Path("/nonexistent/score.sqlite3"))
    core = AppContext(settings, clock=fixed_clock(TODAY)).core
    counts: Counter[str] = Counter()
    for row in read_set(path):
        reply = core.ask(row.question, previous=row.previous or None)
        v = verdict(reply, row.expected, keys)
        counts[v] += 1
        fact = row.expected not in DECLINES | {"unknown", "overview"}
        counts[f"{v}:{'fact' if fact else 'other'}"] += 1
        if verbose and v != "right":
            got = reply.kind if reply.outcome == "answer" else reply.outcome
            print(f"{v:5} [{row.expected}] {row.question!r} → {got} {sorted(claims_of(reply))}")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path)
    parser.add_argument("--keys", type=Path, default=ROOT / "tests" / "data" / "fact_keys.toml")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    c = score(args.set, args.keys, args.verbose)
    total = c["right"] + c["safe"] + c["wrong"]
    facts = c["right:fact"] + c["safe:fact"] + c["wrong:fact"]
    others = total - facts
    print(
        f"{args.set.name}: {c['right']}/{total} right ({100 * c['right'] / max(total, 1):.1f}%), "
        f"{c['safe']} safe, {c['wrong']} wrong | fact questions {c['right:fact']}/{facts} "
        f"({100 * c['right:fact'] / max(facts, 1):.1f}%) | declines and unknowns "
        f"{c['right:other']}/{others}"
    )


if __name__ == "__main__":
    main()
