"""Argument helpers shared by several commands."""

from __future__ import annotations

import argparse
import datetime as dt
import os
from pathlib import Path

from answers.inputs import count
from knowledge.errors import InputRejected


def add_as_of(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--as-of",
        metavar="DATE",
        help="answer as the knowledge base stood on DATE (YYYY-MM-DD)",
    )


def parse_date(value: str | None) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise InputRejected(f"not a date: {value!r} (expected YYYY-MM-DD)") from None


def typed_count(text: str) -> int:
    """An argparse type for counts: ASCII digits, at most eight, or a one-line refusal."""
    found = count(text)
    if found is None:
        raise argparse.ArgumentTypeError(f"not a count: {text[:40]!r} (at most 8 digits)")
    return found


def file_path(text: str) -> Path:
    """A path argument the file system can take: a name with a lone surrogate (not bytes
    argv could have carried) is refused here, not by a traceback at write time."""
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        shown = text.encode("utf-8", "replace")
        raise argparse.ArgumentTypeError(f"not a file name: {shown!r}") from None
    return Path(text)
