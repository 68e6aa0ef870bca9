"""``marin-watch subscriptions list``: who gets the daily digest, and what was last sent."""

from __future__ import annotations

import argparse
import json
import sys

from bot.context import AppContext, no_store
from bot.store.contract import Subscription


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("subscriptions", help="digest subscriptions in the store")
    sub = p.add_subparsers(dest="subscriptions_command", required=True, metavar="ACTION")
    ls = sub.add_parser("list", help="list subscriptions (active ones unless --all)")
    ls.add_argument("--all", action="store_true", help="include inactive ones, with the reason")
    ls.add_argument("--platform", help="only this platform (telegram, discord, ...)")
    ls.add_argument("--json", action="store_true", help="print one JSON object per line")
    ls.set_defaults(handler=run_list)


def run_list(args: argparse.Namespace, ctx: AppContext) -> int:
    # Listing only reads: the store is opened read-only, never created, migrated or written.
    store = ctx.reading_store()
    if store is None:
        where = sys.stderr if args.json else sys.stdout
        print(f"no subscriptions yet ({no_store(ctx.settings.db_path)})", file=where)
        return 0
    subs = store.subscriptions(platform=args.platform, active_only=not args.all)
    rows: list[tuple[Subscription, str | None]] = []
    for s in subs:
        last = store.last_sent(s.destination)
        sent_at = last.sent_at if last is not None else None
        rows.append((s, sent_at.isoformat(timespec="minutes") if sent_at else None))
    if args.json:
        for s, last_sent in rows:
            print(json.dumps({**_as_json(s), "last_sent": last_sent}, ensure_ascii=False))
        return 0
    if not rows:
        print("no subscriptions" if args.all else "no active subscriptions (--all shows every one)")
        return 0
    table = [
        ("destination", "lang", "time", "time zone", "quiet days", "status", "last sent"),
        *(
            (
                f"{s.destination.platform}:{s.destination.id}",
                s.language,
                s.digest_time.strftime("%H:%M"),
                s.timezone,
                "post" if s.post_on_quiet_days else "skip",
                _status(s),
                last_sent or "-",
            )
            for s, last_sent in rows
        ),
    ]
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return 0


def _status(s: Subscription) -> str:
    if not s.active:
        return f"inactive: {s.inactive_reason or 'no reason recorded'}"
    return f"broken: {s.broken_reason}" if s.broken_reason else "active"


def _as_json(s: Subscription) -> dict[str, object]:
    return {
        "platform": s.destination.platform,
        "id": s.destination.id,
        "language": s.language,
        "digest_time": s.digest_time.strftime("%H:%M"),
        "timezone": s.timezone,
        "post_on_quiet_days": s.post_on_quiet_days,
        "active": s.active,
        "inactive_reason": s.inactive_reason,
        "broken_reason": s.broken_reason,
        "scope": s.scope,
        "created_at": s.created_at.isoformat() if s.created_at else None,
    }
