"""What a question says about time, and which cards that favours.

A card is valid from ``valid_from`` (when it became true) until ``valid_to`` (set when a
newer card superseded it; open while it is current). Questions carry three kinds of
temporal intent, read by ``read_intent`` from plain words:

- **current** ("now", "currently", "still", "these days", "anymore"): the card valid
  now; superseded cards stay out (as they do by default);
- **past** ("used to", "before", "previously", "originally", "my old ..."): the value
  that held before it changed, so superseded cards are searched too and rank above the
  cards that replaced them;
- **during** a window ("in 2024", "last summer", "in March 2025", "last year", "two
  years ago"): cards valid at some point of the window are preferred, superseded or not;
  cards valid only outside it are damped.

``weight`` turns the intent into a factor on a card's final score (see
``graphmem.recall.scoring``, which halves superseded cards); ``statuses`` says which card
statuses recall must search for it. Plain functions over plain data, no store.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from graphmem.recall.scoring import SUPERSEDED_FACTOR

Kind = Literal["current", "past", "during"]

#: Asked about the past, a superseded card is the likelier answer than the card that
#: replaced it (which the question is asking around): half again over a current card.
PAST_SUPERSEDED = 1.5 / SUPERSEDED_FACTOR
#: A card valid during the asked window, against one valid only outside it.
DURING_INSIDE = 1.5
DURING_OUTSIDE = 0.5
#: The largest factor ``weight`` returns (recall's early stop needs the bound).
MAX_WEIGHT = DURING_INSIDE / SUPERSEDED_FACTOR


@dataclass(frozen=True)
class TemporalIntent:
    """The time a question is about: ``kind`` (None: no cue), the window of a "during"
    question as epoch ms ``[start, end)``, and the words that decided it."""

    kind: Kind | None = None
    start: int | None = None
    end: int | None = None
    cue: str | None = None


NONE = TemporalIntent()

_CURRENT = re.compile(
    r"\b(?:now|right now|currently|current|these days|nowadays|at the moment|at present|"
    r"presently|still|anymore|any more|any longer|today|as of now|by now)\b",
    re.IGNORECASE,
)
_PAST = re.compile(
    r"\b(?:used to|use to|before|previously|formerly|originally|in the past|back then|"
    r"at first|at the time|earlier|prior to|my old|our old)\b",
    re.IGNORECASE,
)
_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTH_WORDS = "|".join(_MONTHS)
_UNITS = {"day": 1, "week": 7, "month": 30, "year": 365}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_SEASON_YEAR = re.compile(
    rf"\b(?:(?:in|during)\s+)?(?:the\s+)?(?P<season>spring|summer|autumn|fall|winter)\s+"
    rf"(?:of\s+)?{_YEAR}\b",
    re.IGNORECASE,
)
_SEASON_REL = re.compile(
    r"\b(?P<which>last|this|past)\s+(?P<season>spring|summer|autumn|fall|winter)\b",
    re.IGNORECASE,
)
_MONTH_YEAR = re.compile(rf"\b(?P<month>{_MONTH_WORDS})\s+(?:of\s+)?{_YEAR}\b", re.IGNORECASE)
_MONTH_REL = re.compile(
    rf"\b(?P<which>last|this|in|during)\s+(?P<month>{_MONTH_WORDS})\b", re.IGNORECASE
)
_YEAR_ONLY = re.compile(rf"\b(?:in|during|back in|since|of|for)?\s*{_YEAR}\b", re.IGNORECASE)
_REL_UNIT = re.compile(r"\b(?P<which>last|this|past)\s+(?P<unit>week|month|year)\b", re.IGNORECASE)
_AGO = re.compile(
    rf"\b(?P<n>\d+|{'|'.join(_NUMBERS)})\s+(?P<unit>day|week|month|year)s?\s+ago\b",
    re.IGNORECASE,
)


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _month_start(year: int, month: int) -> datetime:
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return datetime(year, month, 1, tzinfo=UTC)


def _span(year: int, month: int, months: int) -> tuple[int, int]:
    return _ms(_month_start(year, month)), _ms(_month_start(year, month + months))


def _season(season: str, year: int) -> tuple[int, int]:
    """Meteorological seasons (northern hemisphere); winter starts in December."""
    return _span(year, _SEASONS[season.lower()], 3)


def _window(query: str, now: datetime) -> tuple[int, int, str] | None:
    """The time window a question names, with the words that name it."""
    if m := _SEASON_YEAR.search(query):
        return (*_season(m["season"], int(m["year"])), m[0].strip())
    if m := _SEASON_REL.search(query):
        first = _SEASONS[m["season"].lower()]
        year = now.year if now.month >= first else now.year - 1  # this year's, once begun
        if m["which"].lower() in {"last", "past"} and _span(year, first, 3)[1] > _ms(now):
            year -= 1  # "last summer" while it is summer: the one before
        return (*_season(m["season"], year), m[0].strip())
    if m := _MONTH_YEAR.search(query):
        return (*_span(int(m["year"]), _MONTHS[m["month"].lower()], 1), m[0].strip())
    if m := _MONTH_REL.search(query):
        month = _MONTHS[m["month"].lower()]
        year = now.year if month <= now.month else now.year - 1  # the latest one begun
        if m["which"].lower() == "last" and month == now.month:
            year -= 1
        return (*_span(year, month, 1), m[0].strip())
    if m := _REL_UNIT.search(query):
        unit, which = m["unit"].lower(), m["which"].lower()
        back = 0 if which == "this" else 1
        if unit == "year":
            return (*_span(now.year - back, 1, 12), m[0].strip())
        if unit == "month":
            return (*_span(now.year, now.month - back, 1), m[0].strip())
        monday = datetime(now.year, now.month, now.day, tzinfo=UTC) - timedelta(now.weekday())
        start = monday - timedelta(weeks=back)
        return _ms(start), _ms(start + timedelta(weeks=1)), m[0].strip()
    if m := _AGO.search(query):
        n = int(m["n"]) if m["n"].isdigit() else _NUMBERS[m["n"].lower()]
        days = _UNITS[m["unit"].lower()]
        centre = now - timedelta(days=n * days)
        half = timedelta(days=max(1, days) / 2 + (days >= 30) * days / 2)
        return _ms(centre - half), _ms(centre + half), m[0].strip()
    if m := _YEAR_ONLY.search(query):
        return (*_span(int(m["year"]), 1, 12), m[0].strip())
    return None


def read_intent(query: str, now: int) -> TemporalIntent:
    """The temporal intent of a question asked at ``now`` (epoch ms).

    A named window wins over the other cues ("where did I live before 2024" is about
    2024's neighbourhood only loosely, but "in 2024" is exact); then past cues, then
    current ones.

    Examples:
        >>> from graphmem.timeutil import to_ms
        >>> now = to_ms("2026-11-23T12:00:00Z")
        >>> read_intent("Where do I live now?", now).kind
        'current'
        >>> read_intent("Is Greg still my manager?", now).cue
        'still'
        >>> read_intent("What instrument did I use to play?", now).kind
        'past'
        >>> read_intent("Where did I live before I moved?", now).kind
        'past'
        >>> read_intent("What did my dad love doing?", now).kind is None
        True
        >>> read_intent("How old am I?", now).kind is None
        True
        >>> from graphmem.timeutil import to_iso
        >>> def window(q):
        ...     i = read_intent(q, now)
        ...     return i.kind, to_iso(i.start)[:10], to_iso(i.end)[:10], i.cue
        >>> window("Where did I live in 2024?")
        ('during', '2024-01-01', '2025-01-01', 'in 2024')
        >>> window("Where did I work last summer?")
        ('during', '2026-06-01', '2026-09-01', 'last summer')
        >>> window("what did we do in the winter of 2023")
        ('during', '2023-12-01', '2024-03-01', 'in the winter of 2023')
        >>> window("Who did I meet in March?")
        ('during', '2026-03-01', '2026-04-01', 'in March')
        >>> window("What was I reading last year?")
        ('during', '2025-01-01', '2026-01-01', 'last year')
    """
    moment = datetime.fromtimestamp(now / 1000, tz=UTC)
    found = _window(query, moment)
    if found is not None:
        return TemporalIntent("during", found[0], found[1], found[2])
    if m := _PAST.search(query):
        return TemporalIntent("past", cue=m[0])
    if m := _CURRENT.search(query):
        return TemporalIntent("current", cue=m[0])
    return NONE


def statuses(intent: TemporalIntent, wanted: list[str]) -> list[str]:
    """The card statuses recall searches: superseded ones join for the past.

    >>> statuses(TemporalIntent("past"), ["active"])
    ['active', 'superseded']
    >>> statuses(TemporalIntent("current"), ["active"])
    ['active']
    """
    if intent.kind in ("past", "during") and "superseded" not in wanted:
        return [*wanted, "superseded"]
    return list(wanted)


def weight(intent: TemporalIntent, card: Mapping[str, object]) -> float:
    """The factor on a card's final score for this intent (1.0: no opinion).

    ``card`` holds the stored fields ``status``, ``timestamp``, ``valid_from`` and
    ``valid_to`` (epoch ms).

    Examples:
        >>> old = {"status": "superseded", "timestamp": 0, "valid_from": 0, "valid_to": 10}
        >>> new = {"status": "active", "timestamp": 10, "valid_from": 10}
        >>> weight(TemporalIntent("past"), old), weight(TemporalIntent("past"), new)
        (3.0, 1.0)
        >>> during = TemporalIntent("during", 2, 5)
        >>> weight(during, old), weight(during, new)
        (3.0, 0.5)
    """
    if intent.kind is None or intent.kind == "current":
        return 1.0
    superseded = card.get("status") == "superseded"
    if intent.kind == "past":
        return PAST_SUPERSEDED if superseded else 1.0
    start = _int(card.get("valid_from"), _int(card.get("timestamp"), 0))
    end = _int(card.get("valid_to"), None)
    window_start, window_end = intent.start or 0, intent.end or 0
    inside = start < window_end and (end is None or end > window_start)
    if not inside:
        return DURING_OUTSIDE
    return DURING_INSIDE / SUPERSEDED_FACTOR if superseded else DURING_INSIDE


def _int(value: object, default: int | None) -> int | None:
    return int(value) if isinstance(value, int | float) else default


__all__ = ["MAX_WEIGHT", "TemporalIntent", "read_intent", "statuses", "weight"]
