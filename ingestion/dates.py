"""Resolve the dates people say ("yesterday", "last Friday", "in two weeks") to epoch ms.

A small, predictable parser instead of a dependency: conversational memory needs a
few dozen phrasings, each resolved against the moment the sentence was said. Results are
day-granular (midnight UTC of the resolved day) so the same phrase said on the same day
always gives the same value, which keeps card ids deterministic.

Conventions (documented because every one of them is a choice):
- "last Friday" = the most recent Friday strictly before the reference day;
  "next Monday" = the first Monday strictly after it; "this Friday" = the first Friday on
  or after it; a bare "Tuesday" / "on Tuesday" goes the way of ``prefer`` (past by
  default), the reference day itself included.
- "last week/month/year" = the reference day minus one week/month/year (same weekday /
  day of month, clamped to the month's end); "two weeks ago" / "in 3 days" likewise.
- "this morning/afternoon/evening", "tonight", "today", "now" = the reference day.
- An explicit date without a year ("March 3") takes the reference year.
- "May 2023" is the 1st of that month; "in 2019" is January 1st.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Literal

from graphmem.lang import en

Prefer = Literal["past", "future"]

_MONTHS = en.MONTHS  # full names, their short forms and "sept"
_WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
    "a few": 3,
    "few": 3,
    "several": 3,
}
_UNIT_DAYS = {"day": 1, "week": 7, "fortnight": 14}

_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAY_RE = "|".join(_WEEKDAYS)
_NUM_RE = "|".join(sorted((re.escape(n) for n in _NUMBERS), key=len, reverse=True))
_UNIT_RE = r"(?:day|week|fortnight|month|year)s?"
_DAY_RE = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR_RE = r"(?P<year>(?:1[89]|2\d)\d\d)"

# Order matters: longer, more specific patterns first.
_PATTERN_TEXT = [
    ("iso", r"\b(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})\b"),
    (
        "day_of_month",
        rf"\b(?:the\s+)?{_DAY_RE}\s+(?:of\s+)?(?P<month>{_MONTH_RE})\.?"
        rf"(?:,?\s+{_YEAR_RE})?\b",
    ),
    ("month_day", rf"\b(?P<month>{_MONTH_RE})\.?\s+{_DAY_RE}(?:,?\s+{_YEAR_RE})?\b"),
    ("month_year", rf"\b(?P<month>{_MONTH_RE})\.?\s+(?:of\s+)?{_YEAR_RE}\b"),
    ("day_before", r"\b(?:the\s+)?day\s+before\s+yesterday\b"),
    ("day_after", r"\b(?:the\s+)?day\s+after\s+tomorrow\b"),
    (
        "word",
        r"\b(?P<word>yesterday|today|tonight|tomorrow|this\s+(?:morning|afternoon|evening)"
        r"|last\s+night|now)\b",
    ),
    ("ago", rf"\b(?P<num>\d+|{_NUM_RE})\s+(?P<unit>{_UNIT_RE})\s+(?:ago|back|earlier)\b"),
    ("in", rf"\b(?:in|within)\s+(?P<num>\d+|{_NUM_RE})\s+(?P<unit>{_UNIT_RE})\b"),
    ("from_now", rf"\b(?P<num>\d+|{_NUM_RE})\s+(?P<unit>{_UNIT_RE})\s+(?:from\s+now|later)\b"),
    ("rel_weekday", rf"\b(?P<which>last|next|this|coming|past)\s+(?P<weekday>{_WEEKDAY_RE})\b"),
    ("rel_weekend", r"\b(?P<which>last|next|this)\s+weekend\b"),
    ("rel_unit", r"\b(?P<which>last|next|past|previous)\s+(?P<unit>week|month|year)\b"),
    ("weekday", rf"\b(?:on\s+)?(?P<weekday>{_WEEKDAY_RE})\b"),
    ("year", rf"\b(?:in|since|during)\s+{_YEAR_RE}\b"),
]
_PATTERNS = [(name, re.compile(rx, re.IGNORECASE)) for name, rx in _PATTERN_TEXT]


@dataclass(frozen=True)
class DateMatch:
    """A date phrase found in a text: where it is and the day it resolves to."""

    start: int
    end: int
    phrase: str
    ms: int


def _day_ms(day: date) -> int:
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() * 1000)


def _add_months(day: date, months: int) -> date:
    total = day.year * 12 + (day.month - 1) + months
    year, month = divmod(total, 12)
    month += 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _shift(day: date, count: int, unit: str) -> date:
    unit = unit.lower().rstrip("s")
    if unit == "month":
        return _add_months(day, count)
    if unit == "year":
        return _add_months(day, 12 * count)
    return day + timedelta(days=_UNIT_DAYS[unit] * count)


def _number(text: str) -> int:
    text = re.sub(r"\s+", " ", text.lower())
    return int(text) if text.isdigit() else _NUMBERS[text]


def _weekday_from(day: date, weekday: int, step: int, *, inclusive: bool) -> date:
    """The nearest ``weekday`` from ``day`` going ``step`` (+1/-1) days at a time."""
    current = day if inclusive else day + timedelta(days=step)
    while current.weekday() != weekday:
        current += timedelta(days=step)
    return current


def _explicit(m: re.Match[str], ref: date) -> date | None:
    month_text = m.group("month")
    month = int(month_text) if month_text.isdigit() else _MONTHS[month_text.lower()]
    year = int(m.group("year")) if m.group("year") else ref.year
    day = int(m.groupdict().get("day") or 1)
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _resolve_match(kind: str, m: re.Match[str], ref: date, prefer: Prefer) -> date | None:
    if kind in {"iso", "day_of_month", "month_day", "month_year"}:
        return _explicit(m, ref)
    if kind == "day_before":
        return ref - timedelta(days=2)
    if kind == "day_after":
        return ref + timedelta(days=2)
    if kind == "word":
        first = m.group("word").lower().split()[0]
        return ref + timedelta(days={"yesterday": -1, "last": -1, "tomorrow": 1}.get(first, 0))
    if kind == "ago":
        return _shift(ref, -_number(m.group("num")), m.group("unit"))
    if kind in {"in", "from_now"}:
        return _shift(ref, _number(m.group("num")), m.group("unit"))
    if kind == "rel_weekday":
        weekday = _WEEKDAYS[m.group("weekday").lower()]
        which = m.group("which").lower()
        if which in {"last", "past"}:
            return _weekday_from(ref, weekday, -1, inclusive=False)
        return _weekday_from(ref, weekday, 1, inclusive=which in {"this", "coming"})
    if kind == "rel_weekend":
        which = m.group("which").lower()
        if which == "last":
            return _weekday_from(ref, 5, -1, inclusive=False)
        return _weekday_from(ref, 5, 1, inclusive=which == "this")
    if kind == "rel_unit":
        step = -1 if m.group("which").lower() in {"last", "past", "previous"} else 1
        return _shift(ref, step, m.group("unit"))
    if kind == "weekday":
        step = -1 if prefer == "past" else 1
        return _weekday_from(ref, _WEEKDAYS[m.group("weekday").lower()], step, inclusive=True)
    if kind == "year":
        return date(int(m.group("year")), 1, 1)
    return None


def find_dates(text: str, reference_ms: int, *, prefer: Prefer = "past") -> list[DateMatch]:
    """Every non-overlapping date phrase in ``text``, in text order, resolved to a day.

    Examples:
        >>> ref = 1710929700000  # Wednesday 2024-03-20T10:15:00Z
        >>> [(m.phrase, m.ms) for m in find_dates("I met Bob yesterday, see him next Monday", ref)]
        [('yesterday', 1710806400000), ('next Monday', 1711324800000)]
    """
    ref = datetime.fromtimestamp(reference_ms / 1000, tz=UTC).date()
    taken: list[tuple[int, int]] = []
    found: list[DateMatch] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < end and start < m.end() for start, end in taken):
                continue
            try:
                day = _resolve_match(kind, m, ref, prefer)
            except (ValueError, OverflowError):  # "in 10000 years": no calendar holds it
                continue
            if day is None:
                continue
            taken.append((m.start(), m.end()))
            found.append(DateMatch(m.start(), m.end(), m.group(0), _day_ms(day)))
    return sorted(found, key=lambda d: d.start)


def resolve_date(text: str, reference_ms: int, *, prefer: Prefer = "past") -> int | None:
    """The day (epoch ms, midnight UTC) the first date phrase in ``text`` refers to.

    ``reference_ms`` is when the text was said (turn timestamp or session date);
    ``prefer`` settles bare weekdays ("on Tuesday"). None when no phrase is found.

    Examples:
        >>> from graphmem.timeutil import to_iso
        >>> ref = 1710929700000  # Wednesday 2024-03-20T10:15:00Z
        >>> to_iso(resolve_date("yesterday", ref))
        '2024-03-19T00:00:00Z'
        >>> to_iso(resolve_date("last Friday", ref))
        '2024-03-15T00:00:00Z'
        >>> to_iso(resolve_date("next Monday", ref))
        '2024-03-25T00:00:00Z'
        >>> to_iso(resolve_date("in two weeks", ref))
        '2024-04-03T00:00:00Z'
        >>> to_iso(resolve_date("two weeks ago", ref))
        '2024-03-06T00:00:00Z'
        >>> to_iso(resolve_date("last month", ref))
        '2024-02-20T00:00:00Z'
        >>> to_iso(resolve_date("on Tuesday", ref)), to_iso(resolve_date("on Tuesday", ref,
        ...                                                  prefer="future"))
        ('2024-03-19T00:00:00Z', '2024-03-26T00:00:00Z')
        >>> to_iso(resolve_date("this morning", ref))
        '2024-03-20T00:00:00Z'
        >>> to_iso(resolve_date("March 3", ref)), to_iso(resolve_date("3rd of May 2023", ref))
        ('2024-03-03T00:00:00Z', '2023-05-03T00:00:00Z')
        >>> to_iso(resolve_date("2024-05-01", ref))
        '2024-05-01T00:00:00Z'
        >>> resolve_date("some day", ref) is None
        True
    """
    found = find_dates(text, reference_ms, prefer=prefer)
    return found[0].ms if found else None
