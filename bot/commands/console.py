"""``marin-watch console``: an interactive prompt to talk to the bot, no tokens needed."""

from __future__ import annotations

import argparse
import sys

from bot.adapters.console import run as run_console
from bot.context import AppContext


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("console", help="talk to the bot at a >>> prompt")
    p.add_argument("--lang", choices=("en", "zh"), help="reply language (default: detected)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, ctx: AppContext) -> int:
    return run_console(
        ctx.core,
        sys.stdin,
        sys.stdout,
        lang=args.lang,
        interactive=sys.stdin.isatty(),
        digests=ctx.digests,
    )
