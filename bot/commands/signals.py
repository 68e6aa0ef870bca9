"""``marin-watch signals list | show | dismiss | promote``: the curator's review queue."""

from __future__ import annotations

import argparse
import json

from answers.labels import level as level_label
from bot.context import AppContext
from bot.curator import Curator
from bot.store.signals import SQLiteSignalStore
from bot.watchers.signal import Signal, SignalState
from knowledge.schema import SourceKind, Stance, Strength


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "signals",
        help="review what the watchers found: list, show, dismiss, promote",
        description="Signals are public records the watchers noticed. None is evidence until "
        "a curator promotes it, which appends a source and an evidence link to the knowledge "
        "files (review them in a pull request).",
    )
    sub = p.add_subparsers(dest="signals_command", required=True, metavar="ACTION")

    ls = sub.add_parser("list", help="the unreviewed queue, newest first")
    ls.add_argument("--all", action="store_true", help="every signal, reviewed and baseline too")
    ls.add_argument("--state", choices=[str(s) for s in SignalState], help="only this state")
    ls.add_argument("--limit", type=int, default=50, help="at most N signals (default 50)")
    ls.add_argument("--json", action="store_true", help="one JSON object per line")
    ls.set_defaults(handler=run_list)

    show = sub.add_parser("show", help="one signal in full, with a ready promote command")
    show.add_argument("id", help="signal id (an unambiguous prefix is enough)")
    show.set_defaults(handler=run_show)

    dismiss = sub.add_parser("dismiss", help="take a signal off the queue")
    dismiss.add_argument("id")
    dismiss.add_argument("--reason", help="why (kept with the signal)")
    dismiss.set_defaults(handler=run_dismiss)

    promote = sub.add_parser(
        "promote", help="append the signal as a source and an evidence link to the KB files"
    )
    promote.add_argument("id")
    promote.add_argument("--claim", required=True, help="the claim id it bears on")
    promote.add_argument("--stance", required=True, choices=[str(s) for s in Stance])
    promote.add_argument("--strength", required=True, choices=[str(s) for s in Strength])
    promote.add_argument("--quote", help="the words that bear on the claim (default: excerpt)")
    promote.add_argument(
        "--kind", choices=[str(k) for k in SourceKind], help="source kind (default: suggested)"
    )
    promote.set_defaults(handler=run_promote)


def open_signals(ctx: AppContext) -> SQLiteSignalStore:
    return SQLiteSignalStore(ctx.settings.db_path)


def run_list(args: argparse.Namespace, ctx: AppContext) -> int:
    states = None if args.all else [SignalState(args.state or SignalState.NEW)]
    with open_signals(ctx) as store:
        found = store.signals(states=states, limit=args.limit)
    if args.json:
        for s in found:
            print(json.dumps(to_json(s), ensure_ascii=False))
        return 0
    if not found:
        print("no signals" if states is None else f"no {states[0]} signals")
        return 0
    for s in found:
        print(f"{s.id}  {s.date:%Y-%m-%d}  {s.state}  {s.title}")
        if s.claims:
            print(f"    may bear on: {', '.join(s.claims)}")
    return 0


def run_show(args: argparse.Namespace, ctx: AppContext) -> int:
    with open_signals(ctx) as store:
        s = Curator(store, ctx.settings.kb_dir, clock=ctx.clock).find(args.id)
    kb = ctx.kb
    print(f"signal {s.id} ({s.state})")
    print(f"  title:       {s.title}")
    print(f"  url:         {s.url}")
    print(f"  date:        {s.date:%Y-%m-%d %H:%M} UTC")
    if s.found_at:
        print(f"  found:       {s.found_at:%Y-%m-%d %H:%M} UTC via {s.watched}")
    print(f"  publisher:   {s.publisher}")
    print(f"  as a source: kind {s.kind}")
    if s.watch_points:
        print(f"  watch:       {', '.join(s.watch_points)}")
    for cid in s.claims:
        level = level_label("en", str(kb.assessment(cid).level)) if cid in kb.claims else "unknown"
        print(f"  may bear on: {cid} (now {level})")
    if s.review:
        print(f"  review:      {s.review}")
    print(f"\n  {s.excerpt}\n")
    if s.state is not SignalState.DISMISSED:
        claim = s.claims[0] if s.claims else "CLAIM"
        print("promote with:")
        print(
            f"  marin-watch signals promote {s.id} --claim {claim} "
            "--stance supports|contradicts --strength direct|indirect|context"
        )
    return 0


def run_dismiss(args: argparse.Namespace, ctx: AppContext) -> int:
    with open_signals(ctx) as store:
        curator = Curator(store, ctx.settings.kb_dir, clock=ctx.clock)
        s = curator.dismiss(args.id, reason=args.reason)
    print(f"dismissed {s.id}: {s.title}")
    return 0


def run_promote(args: argparse.Namespace, ctx: AppContext) -> int:
    with open_signals(ctx) as store:
        p = Curator(store, ctx.settings.kb_dir, clock=ctx.clock).promote(
            args.id,
            claim=args.claim,
            stance=Stance(args.stance),
            strength=Strength(args.strength),
            quote=args.quote,
            kind=SourceKind(args.kind) if args.kind else None,
        )
    what = f"source {p.source_id} to sources.toml and " if p.new_source else ""
    print(f"promoted {p.signal.id}: appended {what}a link to evidence.toml")
    before, after = (level_label("en", str(v)) for v in (p.before, p.after))
    change = f"{before} → {after}" if p.before is not p.after else f"still {after}"
    print(f"  {p.link.claim}: {change}")
    print("  kb check passed; review the change in a pull request")
    return 0


def to_json(s: Signal) -> dict[str, object]:
    return {
        "id": s.id,
        "state": str(s.state),
        "date": s.date.isoformat(),
        "title": s.title,
        "url": s.url,
        "publisher": s.publisher,
        "kind": str(s.kind),
        "claims": list(s.claims),
        "watch_points": list(s.watch_points),
        "excerpt": s.excerpt,
        "found_at": s.found_at.isoformat() if s.found_at else None,
        "review": s.review,
    }
