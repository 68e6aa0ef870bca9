"""Score the message checker on a labelled set of rumour messages, per assertion.

A set is a TSV (``message<TAB>language<TAB>assertions``) whose assertions are a JSON list of
``{"text", "fact", "verdict"}``, written from the research notes by someone who never saw the
checker. Each labelled assertion is matched to the checked assertion holding most of its
words, or, if a flagged clause lies within the label, to that one: a reader sees those words
flagged (counted so since set 11; the first-sight figures of sets 1-10 matched the largest
only, which flatters "true ones flagged" where a label spans two clauses). Then:

    flagged        an overstated, false or plan-as-fact assertion got a verdict that flags it
                   (contradicted, unsupported or plan-as-fact): the target is all of them
    true flagged   a supported assertion was flagged anyway: the target is none
    too strong     an assertion no record supports was called "supported": the target is none
    exact          the verdict is the labelled one

Run: ``.venv/bin/python benchmarks/score_checks.py tests/data/rumours.tsv [-v]``; after a
change, ``… tests/data/rumours*.tsv --opinion held-out --rows`` prints every set's row as
``tests/test_second_opinion.py`` holds it (shipped: as ``tests/test_checking.py`` does).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections import Counter
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from answers.checking import Checker  # noqa: E402
from answers.opinion_training import (  # noqa: E402
    TUNED_SETS,
    examples,
    fit,
    matched,
    rules_checker,
    written,
)
from answers.second_opinion import Features, Opinion, load_opinion, opinion_of  # noqa: E402
from answers.verdicts import FLAGS  # noqa: E402
from knowledge.loader import load  # noqa: E402

TODAY = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


@cache
def _rules() -> Checker:
    """The rules alone, on the knowledge base as of TODAY: loaded once per process, however
    many sets are scored or models fitted."""
    return rules_checker(load(today=TODAY.date()))


@cache
def _rules_rows(name: str) -> tuple[tuple[Features, str], ...]:
    """A tuned set's training rows: the rules' reading does not depend on which set is held
    out, so each set is checked once however many models are fitted."""
    return tuple(examples(_rules(), [name]))


FOLDS = 9  # the tuned sets, dealt round like cards: the ninth set after each is in its fold


def fold_of(name: str) -> int | None:
    """The fold a tuned set is held out with; None for a set no opinion was trained on."""
    return TUNED_SETS.index(name) % FOLDS if name in TUNED_SETS else None


@cache
def _held_out(fold: int | None) -> Opinion:
    """An opinion trained now on every tuned set but those of ``fold`` (all, for None): one
    fit per fold, not per set, keeps the suite's nine fits to seconds each."""
    kept = [name for name in TUNED_SETS if fold is None or fold_of(name) != fold]
    return opinion_of(fit([row for name in kept for row in _rules_rows(name)]))


@cache
def _checker(opinion: str, fold: int | None) -> Checker:
    """The rules with the second opinion named (``score``'s), built once per opinion."""
    rules = _rules()
    if opinion not in ("shipped", "held-out"):
        return rules
    second = load_opinion() if opinion == "shipped" else _held_out(fold)
    return Checker(rules.kb, rules.reader, second)


def score(path: Path, verbose: bool = False, opinion: str = "shipped") -> Counter[str]:
    """``opinion``: "shipped" (the model in answers/data), "rules" (none), or "held-out" (a
    model trained now on every tuned rumour set but this one and the others of its fold:
    needs scikit-learn)."""
    checker = _checker(opinion, fold_of(path.stem) if opinion == "held-out" else None)
    counts: Counter[str] = Counter()
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        message, _, labelled = line.split("\t")
        found = checker.check(message, written(path.stem))
        for item in json.loads(labelled):
            want = item["verdict"]
            got_assertion = matched(item["text"], found)
            got = got_assertion.verdict if got_assertion else "not-checked"
            counts["assertions"] += 1
            counts[f"want:{want}"] += 1
            counts["exact"] += got == want or (want == "off-topic" and got == "not-checked")
            if want in FLAGS:
                counts["should flag"] += 1
                counts["flagged"] += got in FLAGS
                counts["too strong"] += got == "supported"
            if want == "supported":
                counts["true flagged"] += got in FLAGS
            if verbose and got != want:
                print(f"{want:>12} → {got:<12} {item['text']!r}")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path, nargs="+", help="rumour sets (TSV)")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument(
        "--rows",
        action="store_true",
        help="print each set's row as the tests hold it (tests/test_checking.py for shipped,"
        " tests/test_second_opinion.py for held-out): after a change, the thresholds to set",
    )
    parser.add_argument(
        "--opinion",
        choices=("shipped", "rules", "held-out"),
        default="shipped",
        help="the second opinion: the shipped model, none, or one trained without this set's fold",
    )
    args = parser.parse_args()
    for path in args.set:
        c = score(path, args.verbose, args.opinion)
        if args.rows:
            counted = "" if args.opinion == "held-out" else f"{c['assertions']}, "
            print(
                f'("{path.stem}", {counted}{c["flagged"]}, {c["true flagged"]}, {c["too strong"]}),'
            )
            continue
        print(
            f"{path.name}: {c['assertions']} assertions; flagged {c['flagged']}/{c['should flag']}"
            f" overstated/false/plan-as-fact; true ones flagged {c['true flagged']}/"
            f"{c['want:supported']}; too strong {c['too strong']}; exact {c['exact']}/"
            f"{c['assertions']}"
        )


if __name__ == "__main__":
    main()
