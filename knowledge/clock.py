"""The injectable clock: everything that asks "what time is it" takes one of these."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

Clock = Callable[[], dt.datetime]


def system_clock() -> dt.datetime:
    """Now, timezone-aware in UTC."""
    return dt.datetime.now(dt.UTC)


def fixed_clock(moment: dt.datetime) -> Clock:
    """A clock stopped at ``moment`` (naive datetimes are taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return lambda: moment
