"""Time as UTC epoch milliseconds, the one encoding both backends store."""

from __future__ import annotations

import math
import time
from datetime import UTC, date, datetime, timedelta

# Below this an epoch number is taken as seconds, above it as milliseconds
# (1e11 s is the year 5138; 1e11 ms is 1973).
_SECONDS_CUTOFF = 100_000_000_000
MIN_MS = -62_135_596_800_000  # 0001-01-01
MAX_MS = 253_402_300_799_999  # 9999-12-31
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def to_ms(value: object) -> int:
    """Convert an ISO-8601 string, a datetime/date or an epoch number to UTC epoch ms.

    Naive datetimes are taken as UTC.

    Examples:
        >>> to_ms("2024-03-20T10:15:00Z")
        1710929700000
        >>> to_ms(1710929700)
        1710929700000
        >>> to_ms(1710929700000)
        1710929700000
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
        ms = int(value * 1000) if abs(value) < _SECONDS_CUTOFF else int(value)
    elif isinstance(value, str):
        text = value.strip()
        if not text:
            raise ValueError("empty timestamp")
        try:
            return to_ms(float(text))
        except ValueError:
            pass
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


def ms_to_datetime(ms: int) -> datetime:
    """Exact UTC datetime for epoch ms (no float rounding).

    >>> ms_to_datetime(1710929700123).isoformat()
    '2024-03-20T10:15:00.123000+00:00'
    """
    return _EPOCH + timedelta(milliseconds=ms)


def to_iso(ms: int | None) -> str | None:
    """UTC ISO-8601 text for epoch ms, for people to read.

    >>> to_iso(1710929700000)
    '2024-03-20T10:15:00Z'
    """
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
