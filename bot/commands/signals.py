"""``marin-watch signals list | show | dismiss | promote``: the curator's review queue."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys

from answers.labels import level as level_label
from bot.commands.arguments import typed_count
from bot.context import AppContext, no_store
from bot.curator import Curator, snapshot_warning
from bot.progress_promotion import promote_step, steps_in
from bot.store.signal_stores import OpenedSignalStore, open_signal_store
from bot.watchers.signal import Signal, SignalState
from knowledge.errors import CuratorError
from knowledge.knowledge_base import KnowledgeBase
from knowledge.progress import TOPIC as PROGRESS_SERIES
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
    ls.add_argument("--limit", type=typed_count, default=50, help="at most N signals (default 50)")
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
        "promote",
        help="append the signal as a source and an evidence link (or, with --step, a progress "
        "observation) to the KB files",
    )
    promote.add_argument("id")
    what = promote.add_mutually_exclusive_group(required=True)
    what.add_argument("--claim", help="the claim id it bears on")
    what.add_argument("--step", type=_step, help="the step it reports: adds a progress observation")
    promote.add_argument("--of", type=_step, help="with --step: a new scheduled total of steps")
    promote.add_argument("--note", help="with --step: what happened at that step, in a few words")
    promote.add_argument("--stance", choices=[str(s) for s in Stance])
    promote.add_argument("--strength", choices=[str(s) for s in Strength])
    promote.add_argument("--quote", help="the words that bear on the claim (default: excerpt)")
    promote.add_argument(
        "--kind", choices=[str(k) for k in SourceKind], help="source kind (default: suggested)"
    )
    promote.set_defaults(handler=run_promote)


def open_signals(ctx: AppContext, wanted: str) -> OpenedSignalStore:
    """The signal store, to review; a SQLite file is refused, and not created, when there is
    none yet (a PostgreSQL database is there already: it is set up as any command opens it)."""
    path = ctx.settings.db_path
    if ctx.settings.database_url is None and not path.exists():
        raise CuratorError(f"no signal {wanted!r}: no store at {path} yet (watch --once makes one)")
    return open_signal_store(ctx.settings)


def open_signals_read_only(ctx: AppContext, wanted: str) -> OpenedSignalStore:
    """The signal store, read-only (``list`` and ``show`` never write); refused when there
    is none yet."""
    store = ctx.reading_signals()
    if store is None:
        raise CuratorError(
            f"no signal {wanted!r}: {nothing_stored(ctx)} yet (watch --once makes one)"
        )
    return store


def nothing_stored(ctx: AppContext) -> str:
    """Where no signal was found: the SQLite file, or the PostgreSQL database (never its
    URL here, which may carry a password)."""
    if ctx.settings.database_url is not None:
        return "nothing stored in the PostgreSQL database (MARIN_WATCH_DATABASE_URL)"
    return no_store(ctx.settings.db_path)


def run_list(args: argparse.Namespace, ctx: AppContext) -> int:
    states = None if args.all else [SignalState(args.state or SignalState.NEW)]
    store = ctx.reading_signals()  # read-only: never created, migrated or written
    if store is None:
        where = sys.stderr if args.json else sys.stdout
        print(f"no signals yet ({nothing_stored(ctx)})", file=where)
        return 0
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
    store = open_signals_read_only(ctx, args.id)
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
        if cid == PROGRESS_SERIES:
            newest = kb.observations[-1] if kb.observations else None
            at = f"; newest step {newest.step:,} on {newest.date}" if newest else ""
            print(f"  may bear on: the progress series{at}")
            continue
        known = kb.claims.get(cid)
        level = "unknown" if known is None else level_label("en", str(kb.assessment(cid).level))
        older = known is not None and snapshot_warning(known, published(s)) is not None
        dated = f"; describes {known.as_of}, before this record" if known and older else ""
        print(f"  may bear on: {cid} (now {level}{dated})")
    if s.review:
        print(f"  review:      {s.review}")
    print(f"\n  {s.excerpt}\n")
    if s.state is not SignalState.DISMISSED:
        steps = steps_in(s.excerpt or s.title) if PROGRESS_SERIES in s.claims else []
        if steps:
            print("promote the step it reports with:")
            print(f"  marin-watch signals promote {s.id} --step {steps[0]}")
        claim, warning = suggested_claim(s, kb)
        print("promote with:")
        print(
            f"  marin-watch signals promote {s.id} --claim {claim} "
            "--stance supports|contradicts --strength direct|indirect|context"
        )
        if warning:
            print(f"  warning: {warning}")
    return 0


def suggested_claim(s: Signal, kb: KnowledgeBase) -> tuple[str, str | None]:
    """The claim to suggest promoting to, with the warning that comes with it: a claim the
    record does not outdate first; a status snapshot older than the record only with the
    snapshot warning."""
    known = [kb.claims[cid] for cid in s.claims if cid in kb.claims]
    warned = [(c.id, snapshot_warning(c, published(s))) for c in known]
    fresh = [cid for cid, warning in warned if warning is None]
    if fresh:
        return fresh[0], None
    return warned[0] if warned else ("CLAIM", None)


def published(s: Signal) -> dt.date:
    """The record's date, as promotion would write it into sources.toml."""
    return s.date.astimezone(dt.UTC).date()


def run_dismiss(args: argparse.Namespace, ctx: AppContext) -> int:
    with open_signals(ctx, args.id) as store:
        curator = Curator(store, ctx.settings.kb_dir, clock=ctx.clock)
        s = curator.dismiss(args.id, reason=args.reason)
    print(f"dismissed {s.id}: {s.title}")
    return 0


def _step(text: str) -> int:
    """A step count as typed ("262,000" too): a bounded integer or a clear refusal."""
    digits = text.replace(",", "").replace("_", "").strip()
    if not digits.isascii() or not digits.isdigit() or len(digits) > 8:
        raise argparse.ArgumentTypeError(f"not a step number: {text[:40]!r}")
    return int(digits)


def run_promote(args: argparse.Namespace, ctx: AppContext) -> int:
    if args.step is not None:
        return run_promote_step(args, ctx)
    if args.stance is None or args.strength is None:
        raise CuratorError("--claim needs --stance and --strength")
    with open_signals(ctx, args.id) as store:
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
    for warning in p.warnings:
        print(f"  warning: {warning}")
    return 0


def run_promote_step(args: argparse.Namespace, ctx: AppContext) -> int:
    with open_signals(ctx, args.id) as store:
        curator = Curator(store, ctx.settings.kb_dir, clock=ctx.clock)
        p = promote_step(
            curator,
            args.id,
            step=args.step,
            of=args.of,
            note=args.note,
            kind=SourceKind(args.kind) if args.kind else None,
        )
    what = f"source {p.source_id} to sources.toml and " if p.new_source else ""
    print(f"promoted {p.signal.id}: appended {what}an observation to progress.toml")
    o, b = p.observation, p.before
    was = f"step {b.step:,} ({b.date}) → " if b is not None else ""
    print(f"  progress: {was}step {o.step:,} ({o.date}) of {o.of:,}")
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
