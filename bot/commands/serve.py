"""``marin-watch serve``: run the chat bots whose tokens are configured, and their digests."""

from __future__ import annotations

import argparse

from bot.context import AppContext
from bot.serve import serve


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "serve",
        help="run the Telegram and/or Discord bot and the daily digests until stopped",
        description="Run every chat adapter whose token is set (MARIN_WATCH_TELEGRAM_TOKEN or "
        "TELEGRAM_BOT_TOKEN; MARIN_WATCH_DISCORD_TOKEN or DISCORD_BOT_TOKEN) and post the "
        "daily digests, until SIGTERM or SIGINT. Exits 2 when no token is set.",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, ctx: AppContext) -> int:
    return serve(ctx)
