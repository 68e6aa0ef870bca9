"""``marin-watch digest``: what changed in the evidence, printed to the console."""

from __future__ import annotations

import argparse
import datetime as dt
import json

from bot.commands.arguments import parse_date
from bot.context import AppContext
from bot.digest.builder import to_json
from bot.digest.window import EARLIEST, MAX_DAYS, Window
from knowledge.errors import InputRejected


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "digest",
        help="what changed in the evidence (default: the most recent batch of changes)",
        description="Print the evidence digest: new records and links, every confidence "
        "change with its cause, new claims, contradictions. Without --days or --since it "
        "shows the most recent batch of changes, however old.",
    )
    window = p.add_mutually_exclusive_group()
    window.add_argument(
        "--days",
        type=int,
        metavar="N",
        help=f"the last N days, today included (1-{MAX_DAYS})",
    )
    window.add_argument("--since", metavar="DATE", help="since DATE (YYYY-MM-DD), included")
    p.add_argument("--lang", choices=("en", "zh"), help="digest language (default: configured)")
    p.add_argument("--json", action="store_true", help="print a JSON object instead of text")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, ctx: AppContext) -> int:
    lang = args.lang or ctx.settings.default_language
    window = asked_window(args, ctx.today())  # refused before the knowledge base loads
    # The digest only reads the store, read-only (never created, migrated or written); a
    # file that is not ours, or not at our version, is refused here in one line, where a
    # chat would go on without the unreviewed signals.
    ctx.reading_signals()
    # The console is not a subscribed destination and records nothing, so "since the last
    # digest here" has no meaning: no window means the most recent batch.
    if window is None:
        digest = ctx.digests.recent(lang=lang)
    else:
        digest = ctx.digests.build(window, lang=lang)
    if args.json:
        data = {**digest.reply.to_json("digest"), **to_json(digest.changes)}
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(digest.reply.text)
    return 0


def asked_window(args: argparse.Namespace, today: dt.date) -> Window | None:
    """The window ``--days`` or ``--since`` asks for, or None; out-of-range values are refused
    in one line (``InputRejected``)."""
    if args.days is not None:
        if not 1 <= args.days <= MAX_DAYS:
            raise InputRejected(f"--days must be between 1 and {MAX_DAYS}, not {args.days}")
        return Window.last_days(args.days, today)
    if args.since is not None:
        since = parse_date(args.since)
        assert since is not None  # parse_date returns a date for any string it accepts
        if since > today:
            raise InputRejected(f"--since {since} is in the future (today is {today})")
        if since < EARLIEST:
            raise InputRejected(
                f"--since {since} is before {EARLIEST}; the knowledge base holds nothing older"
            )
        return Window.since(since, today)
    return None
