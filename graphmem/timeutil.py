"""Time as UTC epoch milliseconds, the one encoding both backends store."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, date, datetime, timedelta
from typing import overload

# Below this an epoch number is taken as seconds, above it as milliseconds
# (1e11 s is the year 5138; 1e11 ms is 1973).
_SECONDS_CUTOFF = 100_000_000_000
MIN_MS = -62_135_596_800_000  # 0001-01-01
MAX_MS = 253_402_300_799_999  # 9999-12-31
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
#: How far in the future a time may be before it is taken for a mistake (clock skew,
#: a user's time zone ahead of UTC).
FUTURE_SLACK_MS = 24 * 3600 * 1000
_YEAR = re.compile(r"\d{4}")
_YEAR_MONTH = re.compile(r"(\d{4})-(\d{2})")
_future_allowed: ContextVar[bool] = ContextVar("graphmem_future_allowed", default=False)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def wall_clock_ms(value: object) -> int:
    """``to_ms`` of the time as its writer's clock showed it: an offset is dropped, not
    applied. A conversation written at "2025-05-14T20:05:00-04:00" happened on May 14th
    for the person who lived it (their "on May 14th" and the day memory shows), though
    it was May 15th in UTC; ordering and ages within one person's memory are unchanged.

    >>> wall_clock_ms("2025-05-14T20:05:00-04:00") == to_ms("2025-05-14T20:05:00Z")
    True
    >>> wall_clock_ms(1710929700) == to_ms(1710929700)
    True
    """
    if isinstance(value, str) and "-" in value.strip()[1:]:  # a date, not an epoch number
        text = value.strip()
        try:
            parsed = datetime.fromisoformat(text[:-1] if text.endswith(("Z", "z")) else text)
        except ValueError:
            return to_ms(value)
        return to_ms(parsed.replace(tzinfo=UTC))
    if isinstance(value, datetime):
        return to_ms(value.replace(tzinfo=UTC))
    return to_ms(value)


def to_ms(value: object) -> int:
    """Convert an ISO-8601 string, a datetime/date or an epoch number to UTC epoch ms.

    Naive datetimes are taken as UTC; four digits are a year and ``YYYY-MM`` a month
    (their first instant); booleans and negative epoch numbers are refused (an ISO
    date before 1970 is fine).

    Examples:
        >>> to_ms("2024-03-20T10:15:00Z")
        1710929700000
        >>> to_ms(1710929700)
        1710929700000
        >>> to_ms(1710929700000)
        1710929700000
        >>> to_ms("2024") == to_ms("2024-01-01")
        True
        >>> to_ms(-1)
        Traceback (most recent call last):
        ...
        ValueError: a negative epoch number is not a time; give a date (ISO-8601) instead
    """
    if isinstance(value, bool):
        raise ValueError("a boolean is not a timestamp")
    if isinstance(value, datetime):
        dt = value if value.tzinfo else value.replace(tzinfo=UTC)
        ms = round(dt.timestamp() * 1000)
    elif isinstance(value, date):
        ms = round(datetime(value.year, value.month, value.day, tzinfo=UTC).timestamp() * 1000)
    elif isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError("timestamp must be a finite number")
        if value < 0:
            raise ValueError(
                "a negative epoch number is not a time; give a date (ISO-8601) instead"
            )
        ms = int(value * 1000) if abs(value) < _SECONDS_CUTOFF else int(value)
    elif isinstance(value, str):
        text = value.strip()
        if not text:
            raise ValueError("empty timestamp")
        if _YEAR.fullmatch(text):  # "2024": a year, not 2024 seconds after 1970
            return to_ms(date(int(text), 1, 1))
        month = _YEAR_MONTH.fullmatch(text)
        if month and 1 <= int(month.group(2)) <= 12:
            return to_ms(date(int(month.group(1)), int(month.group(2)), 1))
        try:
            number = float(text)
        except ValueError:
            number = None
        if number is not None:
            return to_ms(number)
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            return to_ms(datetime.fromisoformat(text))
        except ValueError as exc:
            raise ValueError(f"not an ISO-8601 timestamp: {value!r}") from exc
    else:
        raise ValueError(f"cannot read a timestamp from {type(value).__name__}")
    if not MIN_MS <= ms <= MAX_MS:
        raise ValueError("timestamp out of range (years 1-9999)")
    return ms


@contextmanager
def allow_future(allowed: bool = True) -> Iterator[None]:
    """Let times more than a day ahead through ``check_not_future`` inside the block
    (a planned event, a reminder); reading stored cards uses it too."""
    token = _future_allowed.set(allowed or _future_allowed.get())
    try:
        yield
    finally:
        _future_allowed.reset(token)


def check_not_future(ms: int) -> int:
    """``ms``, unless it is more than a day ahead of now and no ``allow_future`` block
    is open: a time in the future is most often a mistake (a year typed wrong, ms read
    as s), and newer facts win conflicts, so such a card would outrank everything.

    >>> check_not_future(to_ms("2024-03-20"))
    1710892800000
    >>> with allow_future():
    ...     check_not_future(to_ms("3000-01-01")) > 0
    True
    """
    if ms > now_ms() + FUTURE_SLACK_MS and not _future_allowed.get():
        raise ValueError(
            f"{to_iso(ms)} is more than a day in the future; if that is meant "
            "(a planned event), pass allow_future=True"
        )
    return ms


def ms_to_datetime(ms: int) -> datetime:
    """Exact UTC datetime for epoch ms (no float rounding).

    >>> ms_to_datetime(1710929700123).isoformat()
    '2024-03-20T10:15:00.123000+00:00'
    """
    return _EPOCH + timedelta(milliseconds=ms)


@overload
def to_iso(ms: int) -> str: ...
@overload
def to_iso(ms: None) -> None: ...
@overload
def to_iso(ms: int | None) -> str | None: ...
def to_iso(ms: int | None) -> str | None:
    """UTC ISO-8601 text for epoch ms, for people to read.

    >>> to_iso(1710929700000)
    '2024-03-20T10:15:00Z'
    """
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
