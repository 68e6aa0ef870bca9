"""The one argument grammar of every platform: times, time zones, day counts and dates.

``/digest``, ``/subscribe``, ``/settings`` and Discord's ``/digest-channel set`` read their
words here, so ``UTC+8`` or ``21.30`` mean the same in Telegram, Discord and the console.
Each parser returns what was asked for or an ``Invalid`` naming the message to answer with
(a key of ``bot.chat.texts``) and the offending word.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from zoneinfo import available_timezones

from answers.inputs import count
from bot.digest.window import EARLIEST, MAX_DAYS
from bot.store.contract import Subscription
from knowledge.clock import zone

# 09:00, 9:00, 21.30 or 7h15
_TIME = re.compile(r"^([01]?\d|2[0-3])[:.h]([0-5]\d)$")
# A fixed offset: UTC+8, GMT-5, utc+05:30, or just +8 (full-width and minus signs too).
_OFFSET = re.compile(r"^(?:UTC|GMT)?([+-])(\d{1,2})(?::?([0-5]\d))?$", re.IGNORECASE)
_SIGNS = str.maketrans({"＋": "+", "－": "-", "−": "-"})
# Offsets that are not whole hours have no Etc/ zone: the reply names a city that keeps one.
_CITY_FOR_OFFSET = {
    "+3:30": "Asia/Tehran",
    "+4:30": "Asia/Kabul",
    "+5:30": "Asia/Kolkata",
    "+5:45": "Asia/Kathmandu",
    "+6:30": "Asia/Yangon",
    "+9:30": "Australia/Darwin",
    "-3:30": "America/St_Johns",
}
_ETC = re.compile(r"^Etc/GMT([+-])(\d{1,2})$")
# What /digest accepts: the digest's own bounds (the last 1..MAX_DAYS days, or since a date
# from EARLIEST to today); Discord's /digest [days] option declares the same range.
DIGEST_DAYS = range(1, MAX_DAYS + 1)
DIGEST_EARLIEST = EARLIEST
# Offered by time-zone autocomplete before anything is typed.
COMMON_ZONES = (
    "UTC",
    "Asia/Shanghai",
    "Europe/London",
    "Europe/Berlin",
    "America/New_York",
    "America/Los_Angeles",
)


@dataclass(frozen=True)
class Invalid:
    key: str  # texts key: "bad_time", "bad_timezone", "bad_offset", "bad_digest…", …
    value: str = ""
    example: str = ""  # a value that would work ("bad_offset" suggests a city)


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
    zone = parse_zone(word)
    return zone if isinstance(zone, str) else None


def parse_zone(word: str) -> str | Invalid:
    """An IANA name, ``UTC``, or a whole-hour offset (``UTC+8`` → ``Etc/GMT-8``)."""
    name = word.strip()
    if name.upper() in {"UTC", "GMT", "Z"}:
        return "UTC"
    if _is_offset(name):
        return _offset_zone(name)
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+)*", name):
        return Invalid("bad_timezone", word)
    return name if _known(name) else Invalid("bad_timezone", word)


@cache
def _zones() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


def timezones_like(typed: str, limit: int = 25) -> list[str]:
    """Time zone names containing what was typed (for autocomplete), common ones when empty."""
    needle = typed.strip().casefold()
    if not needle:
        return list(COMMON_ZONES[:limit])
    return [z for z in _zones() if needle in z.casefold()][:limit]


def zone_label(name: str) -> str:
    """How a zone is shown: ``Etc/GMT-8`` (POSIX signs, inverted) as the ``UTC+8`` it means."""
    match = _ETC.match(name)
    if match is None:
        return name
    return f"UTC{'-' if match[1] == '+' else '+'}{int(match[2])}"


def _is_offset(word: str) -> bool:
    return _OFFSET.match(word.strip().translate(_SIGNS)) is not None


def _offset_zone(word: str) -> str | Invalid:
    match = _OFFSET.match(word.strip().translate(_SIGNS))
    assert match is not None  # callers check _is_offset first
    sign, hours, minutes = match[1], int(match[2]), int(match[3] or 0)
    if minutes:
        city = _CITY_FOR_OFFSET.get(f"{sign}{hours}:{minutes:02d}", "Asia/Shanghai")
        return Invalid("bad_offset", word, example=city)
    if hours == 0:
        return "UTC"
    # The Etc/ names follow POSIX: Etc/GMT-8 is eight hours *ahead* of UTC (UTC+8).
    name = f"Etc/GMT{'-' if sign == '+' else '+'}{hours}"
    return name if _known(name) else Invalid("bad_timezone", word)  # beyond -12..+14


def _known(name: str) -> bool:
    return zone(name) is not None


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
    if word.isascii() and word.isdigit():  # a day count: in range, or explained
        days = count(word, max_digits=12)
        if days is None:
            return Invalid("bad_digest_days", word[:24])
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
    """``[HH:MM] [time zone]``, in either order; each may be left out.

    A word with digits is a time unless it names a zone (``Etc/GMT-8``) or an offset
    (``UTC+8``, ``GMT-5``, ``+8``).
    """
    time: dt.time | None = None
    zone: str | None = None
    for word in args:
        if any(c.isdigit() for c in word) and "/" not in word and not _is_offset(word):
            time = parse_time(word)
            if time is None:
                return Invalid("bad_time", word)
        else:
            parsed = parse_zone(word)
            if isinstance(parsed, Invalid):
                return parsed
            zone = parsed
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
        zone = parse_zone(value)
        return zone if isinstance(zone, Invalid) else SettingChange("timezone", zone)
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
