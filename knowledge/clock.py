"""The injectable clock: everything that asks "what time is it" takes one of these."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

Clock = Callable[[], dt.datetime]


def system_clock() -> dt.datetime:
    """Now, timezone-aware in UTC."""
    return dt.datetime.now(dt.UTC)


def fixed_clock(moment: dt.datetime) -> Clock:
    """A clock stopped at ``moment`` (naive datetimes are taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return lambda: moment


# IANA names are short ("America/Argentina/Buenos_Aires" is among the longest): anything
# longer, or deeper, is no zone, and must not reach the file system as a path.
_ZONE_CHARS = 64
_ZONE_DEPTH = 3


def zone(name: str) -> ZoneInfo | None:
    """The IANA time zone ``name``, or None. Never raises: a tzdata *folder* ("Asia") is
    a directory, a name of 300 characters a path too long, and neither is a zone."""
    if not name or len(name) > _ZONE_CHARS or name.count("/") > _ZONE_DEPTH:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError, RecursionError):
        return None
