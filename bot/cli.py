"""The ``marin-watch`` entry point: read settings once, build the context, run one command.

Only this module exits the process or prints tracebacks' replacements: every deliberate
error (``knowledge.errors.MarinWatchError``) becomes a one-line message and a non-zero exit code.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import re
import sys
from collections.abc import Sequence

from pydantic import ValidationError
from pydantic_settings import SettingsError

from bot.config import Settings
from bot.context import AppContext
from knowledge.errors import MarinWatchError

# Each module registers its subcommand(s) with add_parser(subparsers).
COMMANDS = (
    "ask",
    "chart",
    "check",
    "console",
    "kb",
    "digest",
    "subscriptions",
    "signals",
    "watch",
    "site",
    "serve",
)
# Subcommands registered by a module of another name.
ALIASES = {"claims": "kb", "sources": "kb", "why": "check"}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; given the command about to run, only its module is imported (a cold
    ``ask`` must not pay for httpx and the watchers)."""
    parser = argparse.ArgumentParser(
        prog="marin-watch",
        description="Answers questions about the Marin 535B-A23B training run, "
        "never saying more than its evidence shows.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    module = ALIASES.get(command or "", command)
    for name in (module,) if module in COMMANDS else COMMANDS:
        importlib.import_module(f"bot.commands.{name}").add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # Console output must survive any terminal encoding (answers contain Chinese).
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    words = list(sys.argv[1:] if argv is None else argv)
    command = next((w for w in words if not w.startswith("-")), None)
    args = build_parser(command).parse_args(words)
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"marin-watch: configuration error: {_first_error(exc)}", file=sys.stderr)
        return 2
    except SettingsError as exc:  # a value that is not even parseable (e.g. '[not json')
        print(f"marin-watch: configuration error: {_settings_error(exc)}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    ctx = AppContext(settings)
    try:
        return int(args.handler(args, ctx))
    except MarinWatchError as exc:
        print(f"marin-watch: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `marin-watch ... | head`: the reader left; not an error worth a traceback.
        sys.stderr.close()
        return 0
    except Exception as exc:  # the last line of defence: a bug must not print a traceback
        logging.getLogger("marin-watch").debug("unexpected error", exc_info=True)
        print(
            f"marin-watch: internal error ({type(exc).__name__}: {exc}); "
            "rerun with MARIN_WATCH_LOG_LEVEL=DEBUG for details, and please report it",
            file=sys.stderr,
        )
        return 70  # EX_SOFTWARE
    finally:
        ctx.close()


def _settings_error(exc: SettingsError) -> str:
    """One line naming the variable: 'error parsing value for field "x" from source …'."""
    found = re.search(r'field "([^"]+)"', str(exc))
    name = f"MARIN_WATCH_{found[1].upper()}" if found else "a MARIN_WATCH_ variable"
    return f"{name}: not a valid value (a list is written as JSON, e.g. '[12345]')"


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"])
    message = str(err["msg"]).removeprefix("Value error, ")
    if not field:  # a rule across settings: its message names the variables
        return message
    return f"MARIN_WATCH_{field.upper()}: {message}"


if __name__ == "__main__":
    sys.exit(main())
