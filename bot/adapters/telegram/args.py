"""Pure parsers for the arguments of ``/digest``, ``/subscribe`` and ``/settings``.

Each returns either what was asked for or an ``Invalid`` naming the message to answer with
(a key of ``texts.TEXTS``) and the offending word, so handlers stay a few lines long.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.store.base import Subscription

_TIME = re.compile(r"^([01]?\d|2[0-3])[:.h]([0-5]\d)$")
# What /digest accepts: the last 1..3650 days, or since a date from 2000-01-01 to today.
# (Discord's /digest [days] option has the same bounds: bot.adapters.discord.commands.)
DIGEST_DAYS = range(1, 3650 + 1)
DIGEST_EARLIEST = dt.date(2000, 1, 1)


@dataclass(frozen=True)
class Invalid:
    key: str  # texts key: "bad_time", "bad_timezone", "bad_digest…", "bad_settings"
    value: str = ""


@dataclass(frozen=True)
class DigestArgs:
    days: int | None = None
    since: dt.date | None = None


@dataclass(frozen=True)
class SubscribeArgs:
    time: dt.time | None = None
    timezone: str | None = None


@dataclass(frozen=True)
class SettingChange:
    field: str  # "language" | "time" | "timezone" | "quiet"
    value: str | dt.time | bool


def parse_time(word: str) -> dt.time | None:
    match = _TIME.match(word.strip())
    return dt.time(int(match[1]), int(match[2])) if match else None


def parse_timezone(word: str) -> str | None:
    name = word.strip()
    if name.upper() in {"UTC", "GMT", "Z"}:
        return "UTC"
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+)*", name):
        return None
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return name


def parse_digest(args: Sequence[str], today: dt.date) -> DigestArgs | Invalid:
    """``[]``, ``[N]`` (last N days), ``[since, DATE]`` or ``[DATE]``, within the bounds above.

    Out of bounds is its own message: a day count outside 1..3650 (``bad_digest_days``), a
    date after ``today`` (``bad_digest_future``) or before 2000-01-01 (``bad_digest_early``).
    """
    words = [a.lower() for a in args]
    if not words:
        return DigestArgs()
    if words[0] == "since" and len(words) == 2:
        words = words[1:]
    if len(words) != 1:
        return Invalid("bad_digest")
    word = words[0]
    if word.isascii() and word.isdigit():
        days = int(word)
        return DigestArgs(days=days) if days in DIGEST_DAYS else Invalid("bad_digest_days", word)
    try:
        since = dt.date.fromisoformat(word)
    except ValueError:
        return Invalid("bad_digest", word)
    if since > today:
        return Invalid("bad_digest_future", word)
    if since < DIGEST_EARLIEST:
        return Invalid("bad_digest_early", word)
    return DigestArgs(since=since)


def parse_subscribe(args: Sequence[str]) -> SubscribeArgs | Invalid:
    """``[HH:MM] [time zone]``, in either order; each may be left out."""
    time: dt.time | None = None
    zone: str | None = None
    for word in args:
        if any(c.isdigit() for c in word) and "/" not in word:
            time = parse_time(word)
            if time is None:
                return Invalid("bad_time", word)
        else:
            zone = parse_timezone(word)
            if zone is None:
                return Invalid("bad_timezone", word)
    return SubscribeArgs(time=time, timezone=zone)


_ON = {"on", "yes", "true", "1", "开"}
_OFF = {"off", "no", "false", "0", "关"}


def parse_setting(args: Sequence[str]) -> SettingChange | Invalid | None:
    """``[]`` (show, → ``None``) or ``[field, value]``."""
    if not args:
        return None
    if len(args) != 2:
        return Invalid("bad_settings")
    field, value = args[0].lower(), args[1]
    if field in {"language", "lang"}:
        lang = value.lower()
        return SettingChange("language", lang) if lang in {"en", "zh"} else Invalid("bad_settings")
    if field == "time":
        time = parse_time(value)
        return SettingChange("time", time) if time else Invalid("bad_time", value)
    if field in {"timezone", "tz", "zone"}:
        zone = parse_timezone(value)
        return SettingChange("timezone", zone) if zone else Invalid("bad_timezone", value)
    if field in {"quiet", "quiet-days", "quietdays"}:
        flag = value.lower()
        if flag in _ON | _OFF:
            return SettingChange("quiet", flag in _ON)
    return Invalid("bad_settings")


def apply_setting(sub: Subscription, change: SettingChange) -> Subscription:
    """``sub`` with one setting changed, as ``/settings FIELD VALUE`` asked."""
    value = change.value
    if change.field == "language" and isinstance(value, str):
        return dataclasses.replace(sub, language=value)
    if change.field == "time" and isinstance(value, dt.time):
        return dataclasses.replace(sub, digest_time=value)
    if change.field == "timezone" and isinstance(value, str):
        return dataclasses.replace(sub, timezone=value)
    if change.field == "quiet" and isinstance(value, bool):
        return dataclasses.replace(sub, post_on_quiet_days=value)
    raise ValueError(f"unknown setting {change.field!r}")
