"""Fuzzing the argument grammar (``bot.chat.args``): whatever a person types after /digest,
/subscribe or /settings, each parser returns a value or an ``Invalid`` whose message renders,
and never raises.

Every property counts the examples it ran; the counts are printed after the module
("fuzz examples (tests.test_fuzz_args): parse_digest 200, …").

The fuzzing found that a zone word naming a tzdata *directory* ("Asia", "US"), one of more than
255 characters, or one of some 300 path components raised (IsADirectoryError, ENAMETOOLONG,
RecursionError) instead of giving ``Invalid("bad_timezone")``; ``knowledge.clock.zone`` fixed
it, and the last test keeps it fixed.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterator
from zoneinfo import ZoneInfo, available_timezones

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.chat import args as parse
from bot.chat.subscriptions import invalid
from bot.chat.text_table import TEXTS
from bot.chat.where import Chat
from bot.digest.window import EARLIEST, MAX_DAYS
from tests.conftest import TODAY

COUNTS: Counter[str] = Counter()
FUZZ = settings(max_examples=200, deadline=None)


@pytest.fixture(scope="module", autouse=True)
def fuzz_counts(request: pytest.FixtureRequest) -> Iterator[None]:
    """Print, after the module, how many examples each property ran (even under -q)."""
    yield
    counts: Counter[str] = request.module.COUNTS
    if not counts:
        return
    shown = ", ".join(f"{name} {n}" for name, n in sorted(counts.items()))
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print(f"\nfuzz examples ({request.module.__name__}): {shown}")


def counted(name: str) -> None:
    COUNTS[name] += 1


# What people type: any text, and the near misses a grammar meets most.

ZONES = sorted(available_timezones())
CONTROL = st.characters(categories=["Cc"])
UNICODE_DIGITS = st.characters(categories=["Nd"])
huge = st.builds(
    lambda unit, times: unit * times, st.text(min_size=1, max_size=3), st.integers(500, 50_000)
)
word = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=UNICODE_DIGITS | st.sampled_from(":.h+-/＋－− "), max_size=12),
    st.text(alphabet=CONTROL | st.sampled_from("09:"), max_size=10),
    st.from_regex(r"\A[0-9]{1,3}[:.h][0-9]{1,3}\Z"),
    st.from_regex(r"\A(UTC|GMT|utc|gmt)?[+\-＋－−][0-9]{1,3}(:?[0-9]{1,2})?\Z"),
    st.sampled_from(ZONES),
    st.builds(lambda z, s: z + s, st.sampled_from(ZONES), st.text(max_size=4)),
    st.sampled_from(ZONES).map(str.swapcase),
    st.dates().map(dt.date.isoformat),
    st.from_regex(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\Z"),
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(["since", "time", "tz", "zone", "lang", "quiet", "on", "off", "开", "关"]),
    huge,
)
words = st.lists(word, max_size=4)


def check_invalid(bad: parse.Invalid) -> None:
    """An ``Invalid`` names a message that exists, and renders, in both languages."""
    assert bad.key in TEXTS["en"] and bad.key in TEXTS["zh"]
    for lang in ("en", "zh"):
        chat = Chat(platform="telegram", id="1", user="u", locale=lang)
        assert invalid(bad, lang, chat).plain().strip()


def check_zone(zone: str) -> None:
    ZoneInfo(zone)  # a zone the schedule can use


# the properties


@FUZZ
@given(text=word)
@example("٠٩:٣٠")
@example("23:59\x00")
def test_parse_time(text: str) -> None:
    counted("parse_time")
    time = parse.parse_time(text)
    assert time is None or (isinstance(time, dt.time) and time.second == 0)
    if time is not None:
        assert parse.parse_time(time.strftime("%H:%M")) == time


@FUZZ
@given(text=word)
@example("+٨")
@example("UTC+14")
@example("GMT-99")
def test_parse_zone(text: str) -> None:
    counted("parse_zone")
    zone = parse.parse_zone(text)
    if isinstance(zone, parse.Invalid):
        check_invalid(zone)
    elif zone is not None:
        check_zone(zone)


@FUZZ
@given(text=word)
def test_parse_timezone(text: str) -> None:
    counted("parse_timezone")
    zone = parse.parse_timezone(text)
    if zone is not None:
        check_zone(zone)


@FUZZ
@given(
    asked=st.one_of(words, st.tuples(st.just("since"), word).map(list)),
    today=st.dates(min_value=EARLIEST, max_value=dt.date(2100, 1, 1)) | st.just(TODAY.date()),
)
@example(["99999999999999999999"], TODAY.date())
@example(["since", "0001-01-01"], TODAY.date())
def test_parse_digest(asked: list[str], today: dt.date) -> None:
    counted("parse_digest")
    found = parse.parse_digest(asked, today)
    if isinstance(found, parse.Invalid):
        check_invalid(found)
        return
    assert found.days is None or 1 <= found.days <= MAX_DAYS
    assert found.since is None or EARLIEST <= found.since <= today


@FUZZ
@given(asked=words)
def test_parse_subscribe(asked: list[str]) -> None:
    counted("parse_subscribe")
    found = parse.parse_subscribe(asked)
    if isinstance(found, parse.Invalid):
        check_invalid(found)
    elif found is not None and found.timezone is not None:
        check_zone(found.timezone)


FIELDS = ["language", "lang", "time", "timezone", "tz", "zone", "quiet", "quiet-days", "x"]


@FUZZ
@given(asked=st.one_of(words, st.tuples(st.sampled_from(FIELDS), word).map(list)))
def test_parse_setting(asked: list[str]) -> None:
    counted("parse_setting")
    found = parse.parse_setting(asked)
    if not asked:
        assert found is None
    elif isinstance(found, parse.Invalid):
        check_invalid(found)
    elif isinstance(found, parse.SettingChange):
        if found.field == "timezone":
            assert isinstance(found.value, str)
            check_zone(found.value)
        else:
            assert found.field in {"language", "time", "quiet"}


# the bug the fuzzing found, fixed (knowledge.clock.zone)


@pytest.mark.parametrize(
    "zone", ["Asia", "US", "America/Argentina", "a" * 300, "/".join("a" * 400)]
)
def test_a_zone_word_naming_a_tzdata_directory_or_too_long_is_invalid(zone: str) -> None:
    assert isinstance(parse.parse_zone(zone), parse.Invalid)
