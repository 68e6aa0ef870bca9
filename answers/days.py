"""The days and months a text names: "August 19", "Aug", "8月19日", "10/07", "2026-09-23",
and parts of a month ("mid-October", 9月初)."""

from __future__ import annotations

import datetime as dt
import re

from answers.text import MONTH_NAME, MONTH_NAMES, fold

_MONTHS = MONTH_NAMES
MONTH = re.compile(
    r"\b("
    + MONTH_NAME  # "Sept" too
    + r")\b\.?\s*(\d{1,2})?(?:st|nd|rd|th)?\b(?:\s*[-–~]\s*\d{1,2}\b)?"  # "Sep 23-24"
    r"|(\d{1,2})\s*月\s*(?:(\d{1,2})\s*(?:[日号號]|(?=\s*(?:[,，。、;；)）!！?？]|$|(?!"
    r"[天个個步周週年万亿小分秒次张張台层層位倍])[\u4e00-\u9fff]))))?"  # "11 月 27 结束" too
    r"|(?<![\d.,/-])(\d{1,2})/(\d{1,2})(?![\d/.])"  # 10/07, 9/2: month/day, as posted
    r"|\b20\d\d-(\d\d)-(\d\d)(?:\b|(?=t\d))"  # 2026-09-23 (the records'), 2026-08-20T02:04Z
    r"|\b2026(\d\d)(\d\d)\b"  # (or run together: 20261009)
    # 08-19, 10-03, 09-02/03 (a timeline's days), one of the two zero-padded: not "10-20 days"
    r"|(?<![\d.,/-])(0[1-9]-[0-3]\d|1[0-2]-0[1-9])(?:/(\d\d))?(?![\d.%/-])"
)


# A heading's day, dotted, starting a clause: "10.9：旧 run 在 step 231664 cancel"
DOTTED = re.compile(r"^\s*(1[0-2]|[1-9])\.([0-3]?\d)\s*[：:]")


def months(text: str) -> list[tuple[int, int | None]]:
    """(month, day or None) of each date written as "August 19", "Aug", "8月19日"."""
    names = [m[:3] for m in _MONTHS.split()]
    text = fold(text)
    dotted = DOTTED.match(text)
    out: list[tuple[int, int | None]] = [(int(dotted[1]), int(dotted[2]))] if dotted else []
    for found in MONTH.findall(text):
        name, day, number, zh_day, slash_month, slash_day, iso_month, iso_day, *rest = found
        packed_month, packed_day, short, also = rest
        iso_month, iso_day = iso_month or packed_month, iso_day or packed_day
        if name == "may" and not day:
            continue  # "it may end soon": the verb, not the month
        if name:
            out.append((names.index(name[:3]) + 1, int(day) if day else None))
        elif number and 1 <= int(number) <= 12:
            out.append((int(number), int(zh_day) if zh_day else None))
        elif slash_month and 1 <= int(slash_month) <= 12 and 1 <= int(slash_day) <= 31:
            out.append((int(slash_month), int(slash_day)))
        elif iso_month and 1 <= int(iso_month) <= 12:
            out.append((int(iso_month), int(iso_day)))
        elif short:
            month, first = (int(n) for n in short.split("-"))
            out += [(month, d) for d in (first, int(also or 0)) if 1 <= d <= 31]
    return out


# A part of a month: "early September", "mid-Oct", "the end of September", 9月初, 10月中旬.
_PART_EN = re.compile(
    r"\b(early|mid|late|end of|start of|beginning of)[- ]?(?:the )?\s*("
    + MONTH_NAME
    + r")\b(?!\.?\s*\d)"  # ("an expected end of Dec 1" names the day, not late December)
)
_PART_ZH = re.compile(r"(\d{1,2})\s*月\s*(初|上旬|中旬|中|下旬|底|末)")
_PARTS = {
    "early": range(1, 11),
    "start of": range(1, 11),
    "beginning of": range(1, 11),
    "初": range(1, 11),
    "上旬": range(1, 11),
    "mid": range(10, 22),
    "中": range(10, 22),
    "中旬": range(10, 22),
    "late": range(20, 32),
    "end of": range(20, 32),
    "下旬": range(20, 32),
    "底": range(20, 32),
    "末": range(20, 32),
}


def month_parts(text: str) -> list[tuple[int, range]]:
    """(month, its days) of each part of a month named: "mid-October" → (10, 10..21)."""
    names = [m[:3] for m in _MONTHS.split()]
    found = [(names.index(m[:3]) + 1, _PARTS[p]) for p, m in _PART_EN.findall(text)]
    found += [(int(m), _PARTS[p]) for m, p in _PART_ZH.findall(text) if 1 <= int(m) <= 12]
    return found


RUN_YEAR = 2026  # the days a message names without a year are the run's year's


def days_apart(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The days between two (month, day) of the run's year: Aug 19 → Oct 9 is 51."""
    return abs((dt.date(RUN_YEAR, *b) - dt.date(RUN_YEAR, *a)).days)


Day = tuple[int, int | None]  # (month, day or None)
# A span of days: "Sep 2-3", "aug 20-24", "9/30-10/1", "9/2–9/3", "9月23日到24日"
SPAN = re.compile(
    r"\b(" + "|".join(m[:3] for m in _MONTHS.split()) + r")[a-z]*\.?"
    r"\s*(\d{1,2})\s*[-–~]\s*()(\d{1,2})\b"
    r"|(?<![\d.,/])(\d{1,2})/(\d{1,2})\s*[-–~]\s*(?:(\d{1,2})/)?(\d{1,2})(?![\d/.])"
    r"|(\d{1,2})\s*月\s*(\d{1,2})\s*[日号號]?\s*[-–~到至]\s*(?:(\d{1,2})\s*月\s*)?(\d{1,2})\s*[日号號]"
)
_LONGEST_SPAN = 14  # days: "9/2-9/30" is a month of something, no span of one event


def spans(text: str) -> list[set[Day]]:
    """The days of each span of days the text names ("Sep 2-3" → {(9, 2), (9, 3)})."""
    names = [m[:3] for m in _MONTHS.split()]
    found: list[set[Day]] = []
    for match in SPAN.finditer(fold(text)):
        at = next(i for i in range(0, 12, 4) if match.group(i + 1) is not None)
        first_month, first_day, to_month, last_day = match.groups()[at : at + 4]
        month = names.index(first_month) + 1 if first_month in names else int(first_month)
        last_month = int(to_month) if to_month else month
        try:
            start = dt.date(RUN_YEAR, month, int(first_day))
            end = dt.date(RUN_YEAR, last_month, int(last_day))
        except ValueError:
            continue
        if 0 < (end - start).days <= _LONGEST_SPAN:
            days = (start + dt.timedelta(n) for n in range((end - start).days + 1))
            found.append({(d.month, d.day) for d in days})
    return found


def unspanned(said: set[Day], text: str, known: set[Day]) -> set[Day]:
    """The days said, but those of a span of days one of which is known."""
    for span in spans(text):
        if span & known:
            said = said - span
    return said
