"""``marin-watch kb check``, ``marin-watch claims`` and ``marin-watch sources``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from answers.labels import level as level_label
from answers.lexicon import load_lexicon, uncovered_topics
from bot.commands.arguments import add_as_of, parse_date
from bot.context import AppContext
from knowledge.loader import load_with_problems


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    kb = subparsers.add_parser("kb", help="knowledge base maintenance")
    kb_sub = kb.add_subparsers(dest="kb_command", required=True)
    check = kb_sub.add_parser("check", help="validate the knowledge files; list every problem")
    check.set_defaults(handler=run_check)

    claims = subparsers.add_parser("claims", help="table of claims: id, kind, level, sources")
    add_as_of(claims)
    claims.set_defaults(handler=run_claims)

    sources = subparsers.add_parser("sources", help="table of source records")
    add_as_of(sources)
    sources.set_defaults(handler=run_sources)


def run_check(args: argparse.Namespace, ctx: AppContext) -> int:
    kb, problems = load_with_problems(ctx.settings.kb_dir, today=ctx.today())
    problems += uncovered_topics(kb, load_lexicon())
    if problems:
        print(f"knowledge base is invalid ({len(problems)} problem(s)):")
        for p in problems:
            print(f"  - {p}")
        return 1
    print(
        f"knowledge base OK: {len(kb.sources)} sources, {len(kb.claims)} claims, "
        f"{len(kb.links)} evidence links, {len(kb.watch_points)} watch points"
    )
    return 0


def run_claims(args: argparse.Namespace, ctx: AppContext) -> int:
    as_of = parse_date(args.as_of)
    kb = ctx.kb
    rows = []
    for claim in kb.claims_as_of(as_of):
        a = kb.assessment(claim.id, as_of)
        rows.append(
            (
                claim.id,
                str(claim.kind),
                level_label("en", str(a.level)),
                ", ".join(a.supporting) or "-",
            )
        )
    _table(("id", "kind", "level", "sources (direct, relays collapsed)"), rows)
    return 0


def run_sources(args: argparse.Namespace, ctx: AppContext) -> int:
    as_of = parse_date(args.as_of)
    rows = [
        (
            s.id,
            str(s.kind),
            s.published.isoformat(),
            ("relay of " + s.relays)
            if s.relays
            else ("seen via relay" if s.seen_via_relay else "read"),
            s.title,
        )
        for s in ctx.kb.sources_as_of(as_of)
    ]
    _table(("id", "kind", "published", "how seen", "title"), rows)
    return 0


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> None:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [c.ljust(w) for c, w in zip(row, widths, strict=False)]
        print("  ".join([*cells, row[-1]]))
