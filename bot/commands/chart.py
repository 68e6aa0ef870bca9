"""``marin-watch chart --output FILE``: the progress timeline as a PNG."""

from __future__ import annotations

import argparse

from answers.chart import chart
from bot.commands.arguments import add_as_of, file_path, parse_date
from bot.context import AppContext
from knowledge.errors import InputRejected


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "chart",
        help="draw the recorded progress against the plan as a PNG",
        description="The progress timeline: recorded steps against the planned schedule, "
        "the run's handoffs and incidents, and the span since the newest record.",
    )
    p.add_argument("--output", "-o", required=True, type=file_path, help="the PNG file to write")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the text")
    add_as_of(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, ctx: AppContext) -> int:
    as_of = parse_date(args.as_of)
    today = as_of or ctx.today()
    drawn = chart(ctx.kb, lang=args.lang, today=today, as_of=as_of)
    try:
        args.output.write_bytes(drawn.png)
    except OSError as exc:
        raise InputRejected(f"cannot write {args.output}: {exc.strerror}") from exc
    newest = drawn.newest.isoformat() if drawn.newest else "none"
    print(
        f"wrote {args.output} ({drawn.width}×{drawn.height}, {len(drawn.points)} recorded "
        f"steps, newest {newest})"
    )
    return 0
