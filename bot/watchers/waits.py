"""When a source says to come back: ``Retry-After``, rate-limit resets, HTTP dates, bounded."""

from __future__ import annotations

import datetime as dt
import email.utils

# A server's "wait this long" is believed up to a day: a 30-digit Retry-After or a reset in
# the year 3 million is a broken server, and must not overflow a date nor stop a watcher.
MAX_WAIT = dt.timedelta(days=1)


def retry_after(value: str | None, now: dt.datetime) -> dt.datetime | None:
    """When a ``Retry-After`` (seconds, or an HTTP date) says to come back."""
    if not value:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        if len(value) > 6:
            return now + MAX_WAIT
        return now + min(dt.timedelta(seconds=int(value)), MAX_WAIT)
    found = http_date(value)
    return None if found is None else min(found, now + MAX_WAIT)


def epoch_time(value: str | None) -> dt.datetime | None:
    """An ``x-ratelimit-reset`` (Unix seconds) as a time, or None when it is not one."""
    if value is None or not (value.strip().isascii() and value.strip().isdigit()):
        return None
    if len(value.strip()) > 11:  # later than the year 5000: not a real reset time
        return None
    try:
        return dt.datetime.fromtimestamp(int(value), dt.UTC)
    except (OverflowError, OSError, ValueError):
        return None


def http_date(value: str | None) -> dt.datetime | None:
    if not value:
        return None
    try:
        parsed = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)
